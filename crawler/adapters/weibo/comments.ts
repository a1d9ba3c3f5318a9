/**
 * Weibo comments and their child comments (the replies to a comment, 楼中楼), read through the
 * m.weibo.cn JSON API.
 *
 * - `/comments/hotflow?id={id}&mid={mid}&max_id_type=0`, then `&max_id=…&max_id_type=…` from
 *   `data.max_id` (0 ends it). Each comment carries `total_number` (how many child comments it
 *   has), a preview of the first ones in `comments` (`false` when none) and, when there are more,
 *   `more_info` ("共N条回复").
 * - `/comments/hotFlowChild?cid={comment id}&max_id={n}&max_id_type=0`: the child comments, in
 *   `data` at the top level of the answer (not `data.data`), paged by the top-level `max_id`
 *   (0 on the last page); `rootComment` repeats the comment they answer.
 *
 * Child comments are stored as replies whose parent is the comment they answer. They are read
 * from the preview when it holds all of them, else from hotFlowChild, one thread page per child
 * page, so the worker's page budget counts them and their parent is always stored first. A
 * failed hotFlowChild request keeps the preview's children and is a warning on the run (see
 * `childrenOf`); a failed hotflow page ends the post's comments (its cursor is lost).
 */
import type { AdapterContext, CrawlItem, ListItem, ThreadPage } from "../../types";
import { apiUrl, userOf, weiboDateOr, weiboGone, weiboGoneNotice } from "./api";
import { arr, dig, getJson, imagesIn, num, rec, str, type Json } from "../shared";
import { missedRequest } from "../missed";

/** The post a comment belongs to, as the comment readers need it. */
export interface PostRef {
  /** The status id used in URLs. */
  id: string;
  /** The post's platformId (mid): the parent of top-level comments. */
  mid: string;
  origin: string;
  publishedAt: Date;
}

/** A comment's own id: `idstr` first (ids near 2^53 lose digits as numbers), then `id`, `mid`. */
function commentId(c: Json): string | undefined {
  return str(c["idstr"]) ?? str(c["id"]) ?? str(c["mid"]);
}

/**
 * One comment (or child comment) as a reply. Returns null only for an entry without an id (it
 * cannot be stored or deduplicated); an unreadable date or author is warned about and replaced.
 * @param parent platformId of what it answers (the post's mid, or the comment's id)
 * @param parentDate date to use when the comment's own cannot be read
 */
export function commentToReply(
  ctx: Pick<AdapterContext, "now" | "warn">,
  c: Json,
  post: PostRef,
  parent: Pick<CrawlItem, "platformId" | "publishedAt">,
  source: { url: string; body: string },
): CrawlItem | null {
  const cid = commentId(c);
  if (!cid) {
    ctx.warn({ url: source.url, field: "id", raw: JSON.stringify(c).slice(0, 200), reason: "skipped a comment without id" });
    return null;
  }
  const html = str(c["text"]) ?? "";
  if (str(c["text"]) === undefined) ctx.warn({ url: source.url, field: "body", raw: `comment ${cid}`, reason: "stored with an empty body" });
  const publishedAt = weiboDateOr(ctx, c["created_at"], { date: parent.publishedAt, what: "the date of what it answers" }, source.url);
  const { author, authorId } = userOf(c);
  if (!author) ctx.warn({ url: source.url, field: "author", raw: JSON.stringify(c["user"] ?? null).slice(0, 200), reason: "stored without an author name" });
  return {
    platformId: cid,
    parentPlatformId: parent.platformId,
    kind: "reply",
    url: `${post.origin}/detail/${post.id}#comment-${cid}`,
    title: "",
    author,
    ...(authorId ? { authorId } : {}),
    publishedAt,
    html,
    images: imagesIn(html, source.url),
    source,
  };
}

/**
 * The replies of one hotflow answer: its comments, plus the child comments of those whose preview
 * holds all of them; `needs` are the comments whose preview is cut (their children are read from
 * hotFlowChild, and the preview is what is kept of them should that fail). An `ok: 0` answer
 * without data is how hotflow says "no (more) comments": nothing.
 * @param post the post the comments belong to (`origin` is where their links point)
 */
export function hotflowReplies(
  ctx: Pick<AdapterContext, "now" | "warn">,
  data: unknown,
  post: PostRef,
  source: { url: string; body: string },
): { replies: CrawlItem[]; needs: { comment: CrawlItem; preview: CrawlItem[] }[] } {
  const replies: CrawlItem[] = [];
  const needs: { comment: CrawlItem; preview: CrawlItem[] }[] = [];
  for (const entry of arr(dig(data, "data.data"))) {
    const c = rec(entry);
    if (!c) continue;
    const comment = commentToReply(ctx, c, post, { platformId: post.mid, publishedAt: post.publishedAt }, source);
    if (!comment) continue;
    replies.push(comment);
    const preview = arr(c["comments"])
      .map(rec)
      .filter((x): x is Json => x !== undefined);
    const total = num(c["total_number"]) ?? preview.length;
    if (total <= 0 && preview.length === 0) continue;
    const children = preview.map((child) => commentToReply(ctx, child, post, comment, source)).filter((r): r is CrawlItem => r !== null);
    if (preview.length >= total && !rec(c["more_info"])) replies.push(...children);
    else needs.push({ comment, preview: children });
  }
  return { replies, needs };
}

/**
 * The replies of one hotFlowChild answer: the child comments of `comment`, which sit in the
 * top-level `data` (some answers nest them like hotflow's).
 */
export function childReplies(
  ctx: Pick<AdapterContext, "now" | "warn">,
  data: unknown,
  post: PostRef,
  comment: Pick<CrawlItem, "platformId" | "publishedAt">,
  source: { url: string; body: string },
): CrawlItem[] {
  const top = rec(data);
  const list = Array.isArray(top?.["data"]) ? arr(top?.["data"]) : arr(dig(data, "data.data"));
  const replies: CrawlItem[] = [];
  for (const entry of list) {
    const c = rec(entry);
    const r = c ? commentToReply(ctx, c, post, comment, source) : null;
    if (r) replies.push(r);
  }
  return replies;
}

/**
 * Every page of a post's comments: each hotflow page (its comments, plus child comments whose
 * preview is complete), then the hotFlowChild pages of the comments whose preview is not.
 * Hotflow is ordered by popularity, not time, so `since` cannot end the scan early: every page
 * is read and the caller dedupes.
 * @throws GoneError when Weibo answers that the post is gone
 */
export async function* weiboComments(ctx: AdapterContext, thread: ListItem): AsyncGenerator<ThreadPage> {
  const id = /\/detail\/(\d+)/.exec(thread.url)?.[1] ?? thread.platformId;
  const post: PostRef = { id, mid: thread.platformId, origin: "", publishedAt: thread.publishedAt };
  let cursor = "&max_id_type=0";
  const seenCursors = new Set<string>();
  const childrenRead = new Set<string>();
  for (;;) {
    const url = apiUrl(ctx, `/comments/hotflow?id=${id}&mid=${post.mid}${cursor}`);
    const { res, data } = await getJson(ctx, url, { kind: "item" });
    post.origin = new URL(url).origin;
    const source = { url: res.url, body: res.body };
    const gone = weiboGoneNotice(data);
    if (gone) throw weiboGone(gone, res.url);
    const { replies, needs } = hotflowReplies(ctx, data, post, source);
    if (replies.length === 0) return;
    yield { url: res.url, replies };
    for (const { comment, preview } of needs) {
      if (childrenRead.has(comment.platformId)) continue;
      childrenRead.add(comment.platformId);
      yield* childrenOf(ctx, post, comment, preview, source.url);
    }
    const maxId = str(dig(data, "data.max_id"));
    const maxIdType = str(dig(data, "data.max_id_type")) ?? "0";
    const next = `&max_id=${maxId}&max_id_type=${maxIdType}`;
    // A cursor seen before means the API is looping: stop rather than read forever.
    if (!maxId || maxId === "0" || seenCursors.has(next)) return;
    seenCursors.add(next);
    cursor = next;
  }
}

/**
 * A comment's children: its hotFlowChild pages. A failed page ends them without ending the
 * post's comments: the children of the preview not read yet are kept (yielded as a page marked
 * `missed`), the failure is a warning naming the hotFlowChild URL, and the flow goes on with the
 * next comment and the next hotflow page.
 * @param hotflowUrl the hotflow page the preview came with
 */
async function* childrenOf(ctx: AdapterContext, post: PostRef, comment: CrawlItem, preview: CrawlItem[], hotflowUrl: string): AsyncGenerator<ThreadPage> {
  const got = new Set<string>();
  try {
    for await (const page of childPages(ctx, post, comment)) {
      for (const r of page.replies) got.add(r.platformId);
      yield page;
    }
  } catch (e) {
    const kept = preview.filter((r) => !got.has(r.platformId));
    missedRequest(ctx, e, childUrl(ctx, comment.platformId, "0", "0"), `the ${kept.length} child comments shown with comment ${comment.platformId}`);
    yield { url: hotflowUrl, replies: kept, missed: true };
  }
}

function childUrl(ctx: AdapterContext, cid: string, maxId: string, maxIdType: string): string {
  return apiUrl(ctx, `/comments/hotFlowChild?cid=${cid}&max_id=${maxId}&max_id_type=${maxIdType}`);
}

/**
 * The hotFlowChild pages of one comment, one thread page each. An `ok: 0` answer ends them (the
 * comment has no more children, or was removed since hotflow listed it).
 */
async function* childPages(ctx: AdapterContext, post: PostRef, comment: CrawlItem): AsyncGenerator<ThreadPage> {
  let maxId = "0";
  let maxIdType = "0";
  const seen = new Set<string>();
  for (;;) {
    const url = childUrl(ctx, comment.platformId, maxId, maxIdType);
    const { res, data } = await getJson(ctx, url, { kind: "item" });
    const source = { url: res.url, body: res.body };
    const replies = childReplies(ctx, data, post, comment, source);
    const top = rec(data);
    if (replies.length === 0) return;
    yield { url: res.url, replies };
    const next = str(top?.["max_id"]) ?? str(dig(data, "data.max_id"));
    if (!next || next === "0" || seen.has(next)) return;
    seen.add(next);
    maxId = next;
    maxIdType = str(top?.["max_id_type"]) ?? "0";
  }
}
