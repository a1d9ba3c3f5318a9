import Link from "next/link";
import { useTranslations } from "next-intl";
import type { PostDetail } from "@/server/posts";
import type { ReplyNode } from "@/server/posts-replies";
import { sanitizePostHtml } from "@/lib/sanitize";
import { Time } from "../time";
import { AuthorName, DeletedMark, IncompleteMark } from "./post-marks";

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "<br>");
}

/** What a reply answers, up to the thread: the thread first, then the floor. */
export function InReplyTo({ post }: { post: PostDetail }) {
  const t = useTranslations("posts.detail");
  if (post.ancestors.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="parent-h" data-testid="in-reply-to">
      <h2 id="parent-h">{t("inReplyTo")}</h2>
      <ol className="ancestors">
        {post.ancestors.map((a) => (
          <li key={a.id}>
            <Link href={`/posts/${a.id}`} className="post-title">
              {a.title || a.text.slice(0, 60) || t("reply")}
            </Link>
            <div className="muted small">
              <AuthorName platform={post.account.platform} author={a.author} authorId={a.authorId} /> · <Time date={a.publishedAt} withYear />{" "}
              <DeletedMark deletedAt={a.deletedAt} withTime={false} />
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The replies as a tree: each under what it answers (a floor's 楼中楼 under the floor), oldest
 * first on every level, sanitized like the post. A cut thread says what was left out and links to
 * where the rest is.
 */
export function Replies({ post }: { post: PostDetail }) {
  const t = useTranslations("posts.detail");
  const tree = post.replies;
  // A reply without replies of its own shows only what it answers.
  if (post.kind === "reply" && tree.directCount === 0) return null;
  return (
    <section className="panel" aria-labelledby="replies-h">
      <h2 id="replies-h">{t("replies", { count: tree.directCount })}</h2>
      {tree.nodes.length === 0 ? (
        <p className="muted">{t("noReplies")}</p>
      ) : (
        <ol className="replies" data-testid="reply-tree">
          {tree.nodes.map((r) => (
            <ReplyItem key={r.id} r={r} platform={post.account.platform} />
          ))}
        </ol>
      )}
      {tree.directCount > tree.nodes.length && <p className="muted">{t("showingFirst", { count: tree.nodes.length, total: tree.directCount })}</p>}
    </section>
  );
}

function ReplyItem({ r, platform }: { r: ReplyNode; platform: string }) {
  const t = useTranslations("posts.detail");
  const hidden = r.replyCount - r.children.length;
  return (
    <li className={r.deletedAt ? "deleted" : undefined} data-testid={`reply-${r.id}`}>
      <div className="reply-meta">
        <b>
          <AuthorName platform={platform} author={r.author} authorId={r.authorId} fallback={t("anonymous")} />
        </b>{" "}
        · <Time date={r.publishedAt} withYear /> · <Link href={`/posts/${r.id}`}>{t("detailLink")}</Link>
        <DeletedMark deletedAt={r.deletedAt} />
        <IncompleteMark incomplete={r.incomplete} />
        {r.flags.map((f) => (
          <span key={f.id} className={`badge status-${f.status}`}>
            {f.topic.name}
          </span>
        ))}
      </div>
      <div className="post-content small" dangerouslySetInnerHTML={{ __html: sanitizePostHtml(r.html || escapeText(r.text), { baseUrl: r.url }) }} />
      {r.children.length > 0 && (
        <ol className="replies nested" aria-label={t("repliesTo", { author: r.author || t("anonymous") })}>
          {r.children.map((c) => (
            <ReplyItem key={c.id} r={c} platform={platform} />
          ))}
        </ol>
      )}
      {hidden > 0 && (
        <p className="small more-replies">
          <Link href={`/posts/${r.id}`}>{t("moreReplies", { count: hidden })}</Link>
        </p>
      )}
    </li>
  );
}
