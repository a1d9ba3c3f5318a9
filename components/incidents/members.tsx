import Link from "next/link";
import { useTranslations } from "next-intl";
import type { IncidentDetail } from "@/server/incidents";
import { SourceCell } from "../posts/post-list";
import { FlagStatus, score } from "../posts/reasons";
import { Time } from "../time";

type Member = IncidentDetail["members"][number];
const REASONS = ["seed", "near-duplicate", "similar", "link", "reply", "reviewer"] as const;
const SENTIMENTS = ["negative", "neutral", "positive"] as const;

/**
 * Every member post with why it is a member (reason, score, the post it matched, pinned by a
 * reviewer), its flags, versions and sentiment; each post one click from its page. Crawled text is
 * rendered as text only.
 */
export function MemberTable({ members, selectable }: { members: readonly Member[]; selectable: boolean }) {
  const t = useTranslations("incidents.detail");
  return (
    <div className="table-wrap">
      <table className="data incident-members" data-testid="member-table">
        <thead>
          <tr>
            {selectable && <th className="check" />}
            <th>{t("time")}</th>
            <th>{t("source")}</th>
            <th>{t("post")}</th>
            <th>{t("why")}</th>
            <th>{t("flags")}</th>
            <th className="num">{t("versions")}</th>
            <th>{t("sentiment")}</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <MemberRow key={m.post.id} m={m} selectable={selectable} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MemberRow({ m, selectable }: { m: Member; selectable: boolean }) {
  const t = useTranslations("incidents.detail");
  const tr = useTranslations("incidents.reason");
  const ts = useTranslations("incidents.sentiment");
  const p = m.post;
  const title = p.title || p.excerpt.split("\n")[0]!.slice(0, 60);
  const reason = (REASONS as readonly string[]).includes(m.reason) ? tr(m.reason as (typeof REASONS)[number]) : m.reason;
  const sentiment = (SENTIMENTS as readonly string[]).includes(p.sentiment ?? "") ? (p.sentiment as (typeof SENTIMENTS)[number]) : null;
  return (
    <tr data-testid="member-row" data-post-id={p.id} className={p.flagged ? "has-open" : undefined}>
      {selectable && (
        <td className="check">
          <input type="checkbox" name="postId" value={p.id} aria-label={t("selectPost", { id: p.id })} />
        </td>
      )}
      <td className="nowrap">
        <Time date={p.publishedAt} />
      </td>
      <SourceCell platform={p.account.platform} accountName={p.account.name} author={p.author} authorId={p.authorId} />
      <td className="post-cell">
        <Link href={`/posts/${p.id}`} className="post-title">
          {p.kind === "reply" && <span className="badge kind">{t("reply")}</span>}
          {title || <span className="muted">{t("noTitle")}</span>}
        </Link>
        {p.deletedAt && <span className="badge danger">{t("deleted")}</span>}
        {/* Without a title the link already shows the opening words: the excerpt would repeat them. */}
        {p.title && <div className="excerpt">{p.excerpt.replace(/\s+/g, " ")}</div>}
      </td>
      <td className="why small" data-label={t("why")}>
        <div>
          <span className={`badge reason reason-${m.reason}`}>{reason}</span>
        </div>
        {m.score !== null && <div className="muted">{t("score", { score: m.score.toFixed(2) })}</div>}
        {m.matchedPostId !== null && (
          <div className="muted">{t.rich("matched", { id: m.matchedPostId, link: (c) => <Link href={`/posts/${m.matchedPostId}`}>{c}</Link> })}</div>
        )}
        {m.pinned && <div className="badge info">{t("pinned")}</div>}
      </td>
      <td className="topics" data-label={t("flags")}>
        {p.flags.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          p.flags.map((f) => (
            <div key={f.id} className={`topic-chip flag-${f.status}`}>
              <span className="topic-name">{f.topic.name}</span>
              <span className="topic-score">{score(f.score)}</span>
              <FlagStatus status={f.status} />
            </div>
          ))
        )}
      </td>
      <td className="num" data-label={t("versions")}>
        {p.versions + 1}
      </td>
      <td data-label={t("sentiment")}>
        {sentiment ? <span className={`badge sentiment-${sentiment}`}>{ts(sentiment)}</span> : <span className="muted">{ts("none")}</span>}
      </td>
    </tr>
  );
}
