import Link from "next/link";
import { jsonList } from "@/lib/format";
import type { PostDetail } from "@/lib/queries/posts";
import { queryWords } from "@/lib/queries/search";
import { highlightHtml, sanitizePostHtml, safeHttpUrl } from "@/lib/sanitize";
import { PlatformBadge } from "../platform-badge";
import { Time } from "../time";
import { FlagStatus, ReasonBadges, score } from "./reasons";
import { ReviewForm } from "./review-form";
import { VersionDiff } from "./version-diff";

interface TermSource {
  term: string;
  kinds: Set<"search" | "keyword" | "sensitive" | "top term">;
  topics: Set<string>;
}

/** Every term worth marking in this post, with why: search words, topic keywords, sensitive words, top terms. */
export function matchedTerms(post: PostDetail, q: string | undefined): TermSource[] {
  const body = `${post.title}\n${post.text}\n${post.ocrText ?? ""}`.toLowerCase();
  const out = new Map<string, TermSource>();
  const add = (term: string, kind: TermSource["kinds"] extends Set<infer K> ? K : never, topic?: string) => {
    const t = term.trim();
    if (!t || !body.includes(t.toLowerCase())) return;
    const e = out.get(t) ?? { term: t, kinds: new Set(), topics: new Set() };
    e.kinds.add(kind);
    if (topic) e.topics.add(topic);
    out.set(t, e);
  };
  for (const w of queryWords(q ?? "")) add(w, "search");
  for (const c of post.classifications) {
    for (const k of jsonList<string>(c.topic.keywords)) add(k, "keyword", c.topic.name);
    for (const s of jsonList<string>(c.topic.sensitiveWords)) add(s, "sensitive", c.topic.name);
    for (const s of jsonList<string>(c.sensitiveHits)) add(s, "sensitive", c.topic.name);
    for (const t of jsonList<{ term: string }>(c.topTerms)) if (t && typeof t.term === "string") add(t.term, "top term", c.topic.name);
  }
  return [...out.values()].sort((a, b) => b.term.length - a.term.length);
}

export function PostHeader({ post }: { post: PostDetail }) {
  const original = safeHttpUrl(post.url);
  return (
    <div className="post-meta">
      <PlatformBadge platform={post.account.platform} />
      <Link href={`/posts?account=${post.account.id}`}>{post.account.name}</Link>
      {post.author && <span>· {post.author}</span>}
      <span>
        · published <Time date={post.publishedAt} withYear />
      </span>
      <span>
        · first seen <Time date={post.firstSeenAt} withYear />
      </span>
      {post.version > 1 && <span className="badge warn">edited · v{post.version}</span>}
      {original && (
        <a href={original} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer" className="external">
          Open original ↗
        </a>
      )}
    </div>
  );
}

/** The post's content: sanitized, then the matched terms marked. */
export function PostContent({ post, terms, imageSrc }: { post: PostDetail; terms: TermSource[]; imageSrc?: (src: string, i: number) => string | null }) {
  const safe = sanitizePostHtml(post.html || escapeText(post.text), { baseUrl: post.url, imageSrc });
  const marked = highlightHtml(
    safe,
    terms.map((t) => t.term),
    terms.filter((t) => t.kinds.has("sensitive")).map((t) => t.term),
  );
  return (
    <section className="panel" aria-labelledby="content-h">
      <h2 id="content-h">Content</h2>
      {terms.length > 0 && (
        <p className="term-legend">
          Matched:{" "}
          {terms.map((t) => (
            <span key={t.term} className={`badge term-${t.kinds.has("sensitive") ? "sensitive" : "match"}`} title={[...t.kinds].join(", ") + (t.topics.size ? ` · ${[...t.topics].join("、")}` : "")}>
              {t.term}
            </span>
          ))}
        </p>
      )}
      {/* Sanitized by lib/sanitize.ts (strict allow-list); the CSP is the second wall. */}
      <div className="post-content" data-testid="post-content" dangerouslySetInnerHTML={{ __html: marked }} />
      {post.ocrText && (
        <>
          <h3>Text read from images (OCR)</h3>
          <p className="pre">{post.ocrText}</p>
        </>
      )}
    </section>
  );
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "<br>");
}

/** Each topic's judgement of the post: score, relevance, top terms, sensitive words; the flag and its review. */
export function TopicExplanations({ post, canReview, returnTo }: { post: PostDetail; canReview: boolean; returnTo: string }) {
  const flagByTopic = new Map(post.flags.map((f) => [f.topicId, f]));
  if (post.classifications.length === 0 && post.flags.length === 0) {
    return (
      <section className="panel">
        <h2>Topics</h2>
        <p className="muted">Not classified yet: no topic existed when this post was stored, or classification is pending.</p>
      </section>
    );
  }
  const topicIds = [...new Set([...post.flags.map((f) => f.topicId), ...post.classifications.map((c) => c.topicId)])];
  return (
    <>
      {topicIds.map((topicId) => {
        const c = post.classifications.find((x) => x.topicId === topicId);
        const f = flagByTopic.get(topicId);
        const name = f?.topic.name ?? c?.topic.name ?? `topic ${topicId}`;
        const terms = jsonList<{ term: string; weight: number }>(c?.topTerms).filter((t) => t && typeof t.term === "string");
        const hits = jsonList<string>(c?.sensitiveHits);
        return (
          <section className={`panel topic-panel${f ? ` flag-${f.status}` : ""}`} key={topicId} data-testid={`topic-${name}`}>
            <h2>
              {name} {f && <FlagStatus status={f.status} />}
            </h2>
            {c ? (
              <dl className="facts">
                {c.modelVersion > 0 ? (
                  <>
                    <dt>Classifier score</dt>
                    <dd>
                      <ScoreBar value={c.score} threshold={c.topic.nbThreshold} /> {score(c.score)}
                      <span className="muted"> (flags at ≥ {c.topic.nbThreshold})</span>
                    </dd>
                    <dt>Relevance (cosine)</dt>
                    <dd>
                      <ScoreBar value={c.cosine} threshold={c.topic.cosineThreshold} /> {c.cosine.toFixed(2)}
                      <span className="muted"> (flags at ≥ {c.topic.cosineThreshold})</span>
                    </dd>
                  </>
                ) : (
                  <>
                    <dt>Score</dt>
                    <dd className="muted">no model yet: judged by keywords and sensitive words</dd>
                  </>
                )}
                <dt>Label</dt>
                <dd>
                  {c.label} {c.relevant ? <span className="badge info">relevant</span> : <span className="badge">not relevant</span>}
                  <span className="muted"> · model v{c.modelVersion}</span>
                </dd>
                <dt>Top terms</dt>
                <dd>
                  {terms.length ? (
                    terms.slice(0, 10).map((t) => (
                      <span className="badge term-match" key={t.term} title={`weight ${t.weight}`}>
                        {t.term} <small>{Number(t.weight).toFixed(2)}</small>
                      </span>
                    ))
                  ) : (
                    <span className="muted">—</span>
                  )}
                </dd>
                <dt>Sensitive words</dt>
                <dd>
                  {hits.length ? (
                    hits.map((h) => (
                      <span className="badge term-sensitive" key={h}>
                        {h}
                      </span>
                    ))
                  ) : (
                    <span className="muted">none</span>
                  )}
                </dd>
              </dl>
            ) : (
              <p className="muted">No classification stored for this topic.</p>
            )}
            {f && (
              <>
                <h3>Why flagged</h3>
                <ReasonBadges reasons={f.reasons} />
                <ul className="reason-list">
                  {jsonList<{ kind: string; detail?: string }>(f.reasons).map((r, i) => (
                    <li key={i}>
                      <b>{r.kind}</b>: {r.detail}
                    </li>
                  ))}
                </ul>
                {f.reviews.length > 0 && (
                  <>
                    <h3>Reviews</h3>
                    <ul className="review-history">
                      {f.reviews.map((r) => (
                        <li key={r.id}>
                          <span className={`badge ${r.decision === "confirm" ? "danger" : ""}`}>{r.decision === "confirm" ? "confirmed" : "dismissed"}</span> by{" "}
                          <b>{r.reviewer.username}</b> <Time date={r.createdAt} withYear />
                          {r.note && <div className="note">“{r.note}”</div>}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {canReview && <ReviewForm flagId={f.id} topicName={name} status={f.status} returnTo={returnTo} />}
              </>
            )}
          </section>
        );
      })}
    </>
  );
}

function ScoreBar({ value, threshold }: { value: number; threshold: number }) {
  const pct = Math.max(0, Math.min(1, value)) * 100;
  return (
    <span className="scorebar" aria-hidden="true">
      <span className={`fill${value >= threshold ? " over" : ""}`} style={{ width: `${pct}%` }} />
      <span className="threshold" style={{ left: `${Math.min(1, threshold) * 100}%` }} />
    </span>
  );
}

/** Earlier versions, newest first, each with what the next version changed. */
export function Versions({ post }: { post: PostDetail }) {
  if (post.versions.length === 0) return null;
  const chain = [...post.versions.map((v) => ({ version: v.version, title: v.title, text: v.text, seenAt: v.seenAt as Date | null, replacedAt: v.replacedAt as Date | null })), { version: post.version, title: post.title, text: post.text, seenAt: null, replacedAt: null }];
  const steps = chain.slice(1).map((next, i) => ({ prev: chain[i]!, next })).reverse();
  return (
    <section className="panel" aria-labelledby="versions-h">
      <h2 id="versions-h">Earlier versions ({post.versions.length})</h2>
      {steps.map(({ prev, next }) => (
        <div className="version" key={prev.version}>
          <div className="muted small">
            v{prev.version} → v{next.version} · v{prev.version} first seen <Time date={prev.seenAt} withYear />, replaced <Time date={prev.replacedAt} withYear />
          </div>
          <VersionDiff before={`${prev.title}\n${prev.text}`} after={`${next.title}\n${next.text}`} />
        </div>
      ))}
    </section>
  );
}

/** Replies, oldest first, sanitized like the post. */
export function Replies({ post }: { post: PostDetail }) {
  if (post.kind === "reply" && post.parent) {
    return (
      <section className="panel" aria-labelledby="parent-h">
        <h2 id="parent-h">In reply to</h2>
        <Link href={`/posts/${post.parent.id}`} className="post-title">
          {post.parent.title || post.parent.text.slice(0, 60)}
        </Link>
        <div className="muted small">
          {post.parent.author} · <Time date={post.parent.publishedAt} withYear />
        </div>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="replies-h">
      <h2 id="replies-h">Replies ({post._count.replies})</h2>
      {post.replies.length === 0 ? (
        <p className="muted">No replies stored.</p>
      ) : (
        <ol className="replies">
          {post.replies.map((r) => (
            <li key={r.id}>
              <div className="reply-meta">
                <b>{r.author || "anonymous"}</b> · <Time date={r.publishedAt} withYear /> · <Link href={`/posts/${r.id}`}>detail</Link>
                {r.flags.map((f) => (
                  <span key={f.id} className={`badge status-${f.status}`}>
                    {f.topic.name}
                  </span>
                ))}
              </div>
              <div className="post-content small" dangerouslySetInnerHTML={{ __html: sanitizePostHtml(r.html || escapeText(r.text), { baseUrl: r.url }) }} />
            </li>
          ))}
        </ol>
      )}
      {post._count.replies > post.replies.length && <p className="muted">Showing the first {post.replies.length} replies.</p>}
    </section>
  );
}
