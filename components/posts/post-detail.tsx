import Link from "next/link";
import { useTranslations } from "next-intl";
import { jsonList } from "@/lib/format";
import { isSentiment } from "@/lib/sentiments";
import type { PostDetail } from "@/server/posts";
import { queryWords } from "@/server/search";
import { highlightHtml, sanitizePostHtml, safeHttpUrl } from "@/lib/sanitize";
import { PlatformBadge } from "../platform-badge";
import { Time } from "../time";
import { AuthorName, DeletedMark, IncompleteMark, SentimentMark } from "./post-marks";
import { FlagStatus, ReasonBadges, ReasonKindName, score } from "./reasons";
import { ReviewForm } from "./review-form";
import { VersionDiff } from "./version-diff";

const KIND_KEY = { search: "kind_search", keyword: "kind_keyword", sensitive: "kind_sensitive", "top term": "kind_topTerm" } as const;

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
  const t = useTranslations("posts.detail");
  return (
    <div className="post-meta">
      <PlatformBadge platform={post.account.platform} />
      <Link href={`/posts?account=${post.account.id}`}>{post.account.name}</Link>
      <OtherSources post={post} />
      {post.author && (
        <span>
          · <AuthorName platform={post.account.platform} author={post.author} authorId={post.authorId} />
        </span>
      )}
      <span>{t.rich("published", { time: () => <Time date={post.publishedAt} withYear /> })}</span>
      <span>{t.rich("firstSeen", { time: () => <Time date={post.firstSeenAt} withYear /> })}</span>
      {post.version > 1 && <span className="badge warn">{t("edited", { version: post.version })}</span>}
      <SentimentMark sentiment={isSentiment(post.sentiment) ? post.sentiment : null} score={post.sentimentScore} />
      <DeletedMark deletedAt={post.deletedAt} />
      <IncompleteMark incomplete={post.incomplete} />
      {original && (
        <a href={original} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer" className="external">
          {t("openOriginal")}
        </a>
      )}
    </div>
  );
}

/**
 * The other accounts that reached the post (a keyword watch, another board of the same site):
 * one post is listed under every source, and each links to that source's posts.
 */
function OtherSources({ post }: { post: PostDetail }) {
  const t = useTranslations("posts.detail");
  const others = post.sources.filter((s) => s.account.id !== post.account.id);
  if (others.length === 0) return null;
  return (
    <span data-testid="post-sources">
      {t("alsoFoundBy")}{" "}
      {others.map((s, i) => (
        <span key={s.account.id}>
          {i > 0 && t("sourceSeparator")}
          <Link href={`/posts?account=${s.account.id}`}>{s.account.name}</Link>
        </span>
      ))}
    </span>
  );
}

/** The post's content: sanitized, then the matched terms marked. */
export function PostContent({ post, terms, imageSrc }: { post: PostDetail; terms: TermSource[]; imageSrc?: (src: string, i: number) => string | null }) {
  const t = useTranslations("posts.detail");
  const safe = sanitizePostHtml(post.html || escapeText(post.text), { baseUrl: post.url, imageSrc });
  const marked = highlightHtml(
    safe,
    terms.map((t) => t.term),
    terms.filter((t) => t.kinds.has("sensitive")).map((t) => t.term),
  );
  return (
    <section className="panel" aria-labelledby="content-h">
      <h2 id="content-h">{t("content")}</h2>
      {terms.length > 0 && (
        <p className="term-legend">
          {t("matched")}{" "}
          {terms.map((term) => (
            <span
              key={term.term}
              className={`badge term-${term.kinds.has("sensitive") ? "sensitive" : "match"}`}
              title={[...term.kinds].map((k) => t(KIND_KEY[k])).join(", ") + (term.topics.size ? ` · ${[...term.topics].join("、")}` : "")}
            >
              {term.term}
            </span>
          ))}
        </p>
      )}
      {/* Sanitized by lib/sanitize.ts (strict allow-list); the CSP is the second wall. */}
      <div className="post-content" data-testid="post-content" dangerouslySetInnerHTML={{ __html: marked }} />
      {post.ocrText && (
        <>
          <h3>{t("ocr")}</h3>
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
  const t = useTranslations("posts.detail");
  const flagByTopic = new Map(post.flags.map((f) => [f.topicId, f]));
  if (post.classifications.length === 0 && post.flags.length === 0) {
    return (
      <section className="panel">
        <h2>{t("topics")}</h2>
        <p className="muted">{t("notClassified")}</p>
      </section>
    );
  }
  const topicIds = [...new Set([...post.flags.map((f) => f.topicId), ...post.classifications.map((c) => c.topicId)])];
  return (
    <>
      {topicIds.map((topicId) => {
        const c = post.classifications.find((x) => x.topicId === topicId);
        const f = flagByTopic.get(topicId);
        const name = f?.topic.name ?? c?.topic.name ?? t("topicFallback", { id: topicId });
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
                    <dt>{t("classifierScore")}</dt>
                    <dd>
                      <ScoreBar value={c.score} threshold={c.topic.nbThreshold} /> {score(c.score)}
                      <span className="muted">{t("flagsAt", { threshold: String(c.topic.nbThreshold) })}</span>
                    </dd>
                    <dt>{t("relevance")}</dt>
                    <dd>
                      <ScoreBar value={c.cosine} threshold={c.topic.cosineThreshold} /> {c.cosine.toFixed(2)}
                      <span className="muted">{t("flagsAt", { threshold: String(c.topic.cosineThreshold) })}</span>
                    </dd>
                  </>
                ) : (
                  <>
                    <dt>{t("score")}</dt>
                    <dd className="muted">{t("noModel")}</dd>
                  </>
                )}
                <dt>{t("label")}</dt>
                <dd>
                  {c.label} {c.relevant ? <span className="badge info">{t("relevant")}</span> : <span className="badge">{t("notRelevant")}</span>}
                  <span className="muted">{t("modelVersion", { version: c.modelVersion })}</span>
                </dd>
                <dt>{t("topTerms")}</dt>
                <dd>
                  {terms.length ? (
                    terms.slice(0, 10).map((term) => (
                      <span className="badge term-match" key={term.term} title={t("weight", { weight: String(term.weight) })}>
                        {term.term} <small>{Number(term.weight).toFixed(2)}</small>
                      </span>
                    ))
                  ) : (
                    <span className="muted">—</span>
                  )}
                </dd>
                <dt>{t("sensitiveWords")}</dt>
                <dd>
                  {hits.length ? (
                    hits.map((h) => (
                      <span className="badge term-sensitive" key={h}>
                        {h}
                      </span>
                    ))
                  ) : (
                    <span className="muted">{t("none")}</span>
                  )}
                </dd>
              </dl>
            ) : (
              <p className="muted">{t("noClassification")}</p>
            )}
            {f && (
              <>
                <h3>{t("whyFlagged")}</h3>
                <ReasonBadges reasons={f.reasons} />
                <ul className="reason-list">
                  {jsonList<{ kind: string; detail?: string }>(f.reasons).map((r, i) => (
                    <li key={i}>
                      <b>
                        <ReasonKindName kind={r.kind} />
                      </b>
                      : {r.detail}
                    </li>
                  ))}
                </ul>
                {f.reviews.length > 0 && (
                  <>
                    <h3>{t("reviews")}</h3>
                    <ul className="review-history">
                      {f.reviews.map((r) => (
                        <li key={r.id}>
                          {t.rich("reviewBy", {
                            decision: r.decision === "confirm" ? "confirm" : "dismiss",
                            reviewer: r.reviewer.username,
                            badge: (chunks) => <span className={`badge ${r.decision === "confirm" ? "danger" : ""}`}>{chunks}</span>,
                            b: (chunks) => <b>{chunks}</b>,
                          })}{" "}
                          <Time date={r.createdAt} withYear />
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
  const t = useTranslations("posts.detail");
  if (post.versions.length === 0) return null;
  const chain = [
    ...post.versions.map((v) => ({ version: v.version, title: v.title, text: v.text, seenAt: v.seenAt, replacedAt: v.replacedAt })),
    { version: post.version, title: post.title, text: post.text, seenAt: null, replacedAt: null },
  ];
  const steps = chain
    .slice(1)
    .map((next, i) => ({ prev: chain[i]!, next }))
    .reverse();
  return (
    <section className="panel" aria-labelledby="versions-h">
      <h2 id="versions-h">{t("earlierVersions", { count: post.versions.length })}</h2>
      {steps.map(({ prev, next }) => (
        <div className="version" key={prev.version}>
          <div className="muted small">
            {t.rich("versionLine", {
              prev: prev.version,
              next: next.version,
              seen: () => <Time date={prev.seenAt} withYear />,
              replaced: () => <Time date={prev.replacedAt} withYear />,
            })}
          </div>
          <VersionDiff before={`${prev.title}\n${prev.text}`} after={`${next.title}\n${next.text}`} />
        </div>
      ))}
    </section>
  );
}

export { InReplyTo, Replies } from "./reply-tree";
