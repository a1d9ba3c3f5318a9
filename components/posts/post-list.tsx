import Link from "next/link";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { can } from "@/lib/permissions";
import type { Role } from "@/lib/auth/session";
import { filterToParams, listPostsPage, type Cursor, type PostFilter, type PostRow } from "@/server/posts";
import { PlatformBadge } from "../platform-badge";
import { Time } from "../time";
import { BulkReviewForm } from "./bulk-review-form";
import { AuthorName, DeletedFlaggedMark, DeletedMark, IncompleteMark, SentimentMark } from "./post-marks";
import { FlagStatus, ReasonBadges, score } from "./reasons";

interface Props {
  filter: PostFilter;
  after?: Cursor;
  before?: Cursor;
  /** Where the list lives ("/" or "/posts"), for page links and returning after a review. */
  basePath: "/" | "/posts";
  role: Role;
}

/** One page of posts (newest first) with their topics, scores and flags, and links to the neighbours. */
export async function PostList({ filter, after, before, basePath, role }: Props) {
  const page = await listPostsPage(db, filter, { after, before });
  return <PostTable page={page} filter={filter} after={after} before={before} basePath={basePath} role={role} />;
}

/**
 * A page of posts already read (the lists above, an author's page): the table, bulk review and the
 * pager. `basePath` is the page the list lives on; its links keep the filter's query string.
 */
export async function PostTable({
  page: { rows, older, newer },
  filter,
  after,
  before,
  basePath,
  role,
}: Omit<Props, "basePath"> & { page: Awaited<ReturnType<typeof listPostsPage>>; basePath: string }) {
  const t = await getTranslations("posts.list");
  const params = filterToParams(filter);
  const here = new URLSearchParams(params);
  if (after) here.set("after", `${after.publishedAt.getTime()}.${after.id}`);
  if (before) here.set("before", `${before.publishedAt.getTime()}.${before.id}`);
  const returnTo = `${basePath}${here.size ? `?${here}` : ""}`;
  const link = (key: "after" | "before", cursor: string) => {
    const sp = new URLSearchParams(params);
    sp.set(key, cursor);
    return `${basePath}?${sp}`;
  };
  const canReview = can(role, "review");
  const detailQuery = filter.q ? `?q=${encodeURIComponent(filter.q)}` : "";

  if (rows.length === 0) {
    return (
      <div className="panel empty" data-testid="post-list-empty">
        {after || before ? t("noMore") : filter.flagged ? t("noFlagged") : t("none")}
      </div>
    );
  }
  return (
    <BulkReviewForm returnTo={returnTo} canReview={canReview}>
      <div className="table-wrap">
        <table className="data posts" data-testid="post-table">
          <thead>
            <tr>
              {canReview && (
                <th className="check">
                  <input type="checkbox" data-select-all aria-label={t("selectAll")} />
                </th>
              )}
              <th>{t("time")}</th>
              <th>{t("source")}</th>
              <th>{t("post")}</th>
              <th>{t("topicsScore")}</th>
              <th>{t("whyFlagged")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <Row key={p.id} p={p} filter={filter} canReview={canReview} detailHref={`/posts/${p.id}${detailQuery}`} />
            ))}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label={t("pages")}>
        {newer || after || before ? <Link href={basePath + (params.size ? `?${params}` : "")}>{t("newest")}</Link> : <span />}
        <span className="pager-links">
          {newer ? (
            <Link href={link("before", newer)} rel="prev">
              {t("newer")}
            </Link>
          ) : (
            <span className="muted">{t("newer")}</span>
          )}
          {older ? (
            <Link href={link("after", older)} rel="next">
              {t("older")}
            </Link>
          ) : (
            <span className="muted">{t("older")}</span>
          )}
        </span>
      </nav>
    </BulkReviewForm>
  );
}

function Row({ p, filter, canReview, detailHref }: { p: PostRow; filter: PostFilter; canReview: boolean; detailHref: string }) {
  const t = useTranslations("posts.list");
  const flags = filter.topicId ? p.flags.filter((f) => f.topicId === filter.topicId) : p.flags;
  const openIds = flags.filter((f) => f.status === "open").map((f) => f.id);
  const allIds = flags.map((f) => f.id);
  const flaggedTopics = new Set(p.flags.map((f) => f.topicId));
  const others = p.classifications.filter((c) => !flaggedTopics.has(c.topicId) && c.relevant);
  const title = p.title || (p.kind === "reply" ? "" : p.excerpt.split("\n")[0]!.slice(0, 40));
  // A flagged post the platform removed stands out for reviewers (the removal is itself a signal).
  const deletedFlagged = Boolean(p.deletedAt) && p.flags.length > 0;
  const classes = [openIds.length ? "has-open" : "", p.deletedAt ? "deleted" : "", deletedFlagged ? "deleted-flagged" : ""].filter(Boolean).join(" ");
  return (
    <tr className={classes || undefined} data-deleted={p.deletedAt ? "1" : undefined}>
      {canReview && (
        <td className="check">
          {allIds.length > 0 && (
            <input type="checkbox" name="flagId" value={(openIds.length ? openIds : allIds).join(",")} aria-label={t("selectPost", { id: p.id })} />
          )}
        </td>
      )}
      <td className="nowrap">
        <Time date={p.publishedAt} />
      </td>
      <SourceCell platform={p.account.platform} accountName={p.account.name} author={p.author} authorId={p.authorId} />
      <td className="post-cell">
        <Link href={detailHref} className="post-title">
          {p.kind === "reply" && <span className="badge kind">{t("replyBadge")}</span>}
          {title || <span className="muted">{p.parent ? t("re", { title: p.parent.title || p.parent.excerpt }) : t("noTitle")}</span>}
        </Link>
        {(p.deletedAt || p.incomplete || p.sentiment) && (
          <div className="post-marks">
            <SentimentMark sentiment={p.sentiment} score={p.sentimentScore} /> {deletedFlagged ? <DeletedFlaggedMark /> : null}{" "}
            <DeletedMark deletedAt={p.deletedAt} /> <IncompleteMark incomplete={p.incomplete} />
          </div>
        )}
        <div className="excerpt">{p.excerpt.replace(/\s+/g, " ")}</div>
      </td>
      <td className="topics" data-label={t("topicsScore")}>
        {flags.map((f) => (
          <div key={f.id} className={`topic-chip flag-${f.status}`}>
            <span className="topic-name">{f.topicName}</span>
            <span className="topic-score">{score(f.score)}</span>
            <FlagStatus status={f.status} />
          </div>
        ))}
        {others.slice(0, 3).map((c) => (
          <div key={c.topicId} className="topic-chip relevant">
            <span className="topic-name">{c.topicName}</span>
            <span className="topic-score">{score(c.score)}</span>
          </div>
        ))}
        {flags.length === 0 && others.length === 0 && <span className="muted">—</span>}
      </td>
      <td className="why" data-label={t("whyFlagged")}>
        {flags.map((f) => (
          <div key={f.id}>
            <ReasonBadges reasons={f.reasons} />
          </div>
        ))}
        {flags.length === 0 && <span className="muted">—</span>}
      </td>
    </tr>
  );
}

/** A post's source as a table cell: its platform, the account that stored it, and its author. Shared by the post lists and an incident's members. */
export function SourceCell({ platform, accountName, author, authorId }: { platform: string; accountName: string; author: string; authorId: string }) {
  return (
    <td className="source">
      <PlatformBadge platform={platform} short />
      <div className="account-name" title={accountName}>
        {accountName}
      </div>
      {author && (
        <div className="muted small">
          <AuthorName platform={platform} author={author} authorId={authorId} />
        </div>
      )}
    </td>
  );
}
