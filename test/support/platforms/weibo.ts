/**
 * Local m.weibo.cn: the JSON API shapes of the real capture (weibo_m_getIndex_107603_timeline.json)
 * plus the container lookup, long text, comment and child-comment endpoints.
 *
 * Child comments (replies to a comment, 楼中楼) are kept beside the model, per model, and added
 * with {@link addWeiboChildComment}; a generated world has none, so every other test sees the
 * same site as before.
 */
import type { LocalAccount, LocalPost, LocalReply, NewReply, PlatformModel } from "./model";
import { cmpId } from "./model";
import { NICKNAMES } from "./text";
import { weiboRfc, weiboShort } from "./format";
import { html, json, notFound, type PageSizes, type Rendered } from "./responses";

/** Weibo cuts list text at this many characters and flags the post `isLongText`. */
const LONG_TEXT_LIMIT = 140;

/** How timeline dates are printed: the short list forms (default) or the full RFC form. */
export type WeiboDateStyle = "short" | "rfc";

function plain(html: string): string {
  return html.replace(/<\/p>\s*<p>/g, "\n").replace(/<[^>]+>/g, "");
}

/** Weibo text is one block with <br />, not paragraphs. */
function weiboText(html: string): string {
  return plain(html).replace(/\n/g, "<br />");
}

const BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
function bidOf(id: string): string {
  let n = BigInt(id);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function mblog(model: PlatformModel, account: LocalAccount, post: LocalPost, style: WeiboDateStyle): Record<string, unknown> {
  const now = model.clock.now();
  const full = plain(post.html);
  const long = full.length > LONG_TEXT_LIMIT;
  const text = long ? `${full.slice(0, LONG_TEXT_LIMIT).replace(/\n/g, "<br />")}...<a href="/status/${post.id}">全文</a>` : weiboText(post.html);
  const comments = commentCount(model, post);
  return {
    created_at: style === "rfc" ? weiboRfc(post.publishedAt) : weiboShort(post.publishedAt, now),
    id: post.id,
    idstr: post.id,
    mid: post.id,
    can_edit: false,
    text,
    textLength: full.length * 2,
    source: "微博 weibo.com",
    favorited: false,
    user: { id: Number(account.slug), screen_name: account.name, profile_url: `/u/${account.slug}`, statuses_count: account.posts.length, verified: true },
    reposts_count: post.views % 50,
    comments_count: comments,
    attitudes_count: post.views % 300,
    pending_approval_count: 0,
    isLongText: long,
    ...(post.pinned ? { isTop: 1 } : {}),
    mblogtype: post.pinned ? 2 : 0,
    edit_config: { edited: post.editedAt !== null },
    bid: bidOf(post.id),
    pics: [],
  };
}

/** `/api/container/getIndex?type=uid&value={uid}` without containerid: profile and tabs. */
export function renderWeiboLookup(account: LocalAccount): Rendered {
  return json({
    ok: 1,
    data: {
      userInfo: { id: Number(account.slug), screen_name: account.name, statuses_count: account.posts.length },
      tabsInfo: {
        selectedTab: 1,
        tabs: [
          { id: 1, tabKey: "profile", must_show: 1, hidden: 0, title: "主页", tab_type: "profile", containerid: `230283${account.slug}` },
          { id: 2, tabKey: "weibo", must_show: 1, hidden: 0, title: "微博", tab_type: "weibo", containerid: `107603${account.slug}` },
        ],
      },
    },
  });
}

/**
 * The timeline, pinned posts first on the first page only (as Weibo does), then newest first.
 * `since_id` is the id of the first post of the next page, so paging is stable while new posts
 * arrive at the top.
 */
export function renderWeiboTimeline(model: PlatformModel, account: LocalAccount, url: URL, sizes: PageSizes, style: WeiboDateStyle): Rendered {
  const containerId = url.searchParams.get("containerid");
  if (containerId !== `107603${account.slug}`) return json({ ok: 0, msg: "这里还没有内容", data: { cards: [] } });
  const posts = model.visiblePosts(account);
  const pinned = posts.filter((p) => p.pinned);
  const rest = posts.filter((p) => !p.pinned);
  const sinceId = url.searchParams.get("since_id");
  let page: LocalPost[];
  let start: number;
  if (sinceId) {
    start = rest.findIndex((p) => cmpId(p.id, sinceId) <= 0);
    if (start === -1) return json({ ok: 0, msg: "这里还没有内容", data: { cards: [] } });
    page = rest.slice(start, start + sizes.weibo);
  } else {
    start = 0;
    page = [...pinned, ...rest.slice(0, sizes.weibo)];
  }
  const next = rest[start + sizes.weibo];
  if (page.length === 0) return json({ ok: 0, msg: "这里还没有内容", data: { cards: [] } });
  return json({
    ok: 1,
    data: {
      cardlistInfo: { containerid: containerId, v_p: 42, show_style: 1, total: posts.length, ...(next ? { since_id: Number(next.id) } : {}) },
      cards: page.map((p) => ({
        card_type: 9,
        itemid: `${containerId}_-_${p.id}`,
        scheme: `/status/${bidOf(p.id)}?mblogid=${bidOf(p.id)}`,
        mblog: mblog(model, account, p, style),
        show_type: 0,
      })),
      scheme: `sinaweibo://cardlist?containerid=${containerId}`,
    },
  });
}

/** `/statuses/extend?id=`: the full text of a long post. */
export function renderWeiboExtend(model: PlatformModel, url: URL): Rendered {
  const post = model.post(url.searchParams.get("id") ?? "");
  if (!post || post.platform !== "weibo" || post.publishedAt > model.clock.now()) return json({ ok: 0, msg: "微博不存在或暂无查看权限!" });
  return json({
    ok: 1,
    data: {
      ok: 1,
      longTextContent: weiboText(post.html),
      reposts_count: post.views % 50,
      comments_count: commentCount(model, post),
      attitudes_count: post.views % 300,
    },
  });
}

/**
 * `/comments/hotflow?id=&mid=&max_id=&max_id_type=`: comments newest first; `max_id` is the id
 * of the next comment to show, 0 on the last page. No comments: `ok: 0`, as Weibo answers.
 */
export function renderWeiboHotflow(model: PlatformModel, url: URL, sizes: PageSizes): Rendered {
  const post = model.post(url.searchParams.get("id") ?? "");
  if (!post || post.platform !== "weibo") return json({ ok: 0, msg: "快来发表你的评论吧" });
  const all = [...model.visibleReplies(post)].reverse();
  const maxId = url.searchParams.get("max_id");
  const start = maxId && maxId !== "0" ? all.findIndex((r) => cmpId(r.id, maxId) <= 0) : 0;
  const page = start === -1 ? [] : all.slice(start, start + sizes.weiboComments);
  if (page.length === 0) return json({ ok: 0, msg: "快来发表你的评论吧" });
  const next = all[start + sizes.weiboComments];
  const account = model.account(post.accountKey);
  return json({
    ok: 1,
    data: {
      data: page.map((r, k) => {
        const children = visibleChildren(model, r.id);
        return {
          ...commentJson(r, r.id),
          floor_number: all.length - start - k,
          // Weibo previews the first child comments; "共N条回复" says there are more.
          total_number: children.length,
          comments: children.length > 0 ? children.slice(0, CHILD_PREVIEW).map((c) => commentJson(c, r.id)) : false,
          ...(children.length > CHILD_PREVIEW
            ? { more_info_type: 1, more_info: { text: `共${children.length}条回复`, scheme: `/comments/hotFlowChild?cid=${r.id}` } }
            : { more_info_type: 0 }),
        };
      }),
      total_number: all.length,
      max_id: next ? Number(next.id) : 0,
      max_id_type: 0,
      status: { id: post.id, user: { screen_name: account.name } },
    },
  });
}

/** A post's comment count as Weibo shows it: comments and their child comments. */
function commentCount(model: PlatformModel, post: LocalPost): number {
  const comments = model.visibleReplies(post);
  return comments.length + comments.reduce((n, c) => n + visibleChildren(model, c.id).length, 0);
}

/** Child comments shown inline under a comment (Weibo shows two, then "共N条回复"). */
const CHILD_PREVIEW = 2;

/** A numeric user id derived from a name, stable across runs. */
function uidOfName(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + (ch.codePointAt(0) ?? 0)) % 100_000;
  return 6_000_000_000 + h;
}

/** A comment or child comment as hotflow and hotFlowChild print it. */
function commentJson(r: LocalReply, rootId: string): Record<string, unknown> {
  return {
    created_at: weiboRfc(r.publishedAt),
    id: Number(r.id),
    idstr: r.id,
    rootid: Number(rootId),
    rootidstr: rootId,
    text: r.html,
    disable_reply: 0,
    user: { id: uidOfName(r.author), screen_name: r.author },
    mid: r.id,
    like_count: Number(r.id) % 17,
  };
}

interface ChildState {
  next: bigint;
  /** Comment id → its child comments, oldest first. */
  byComment: Map<string, LocalReply[]>;
}
const childStates = new WeakMap<PlatformModel, ChildState>();
const CHILD_ID_BASE = 4_900_000_800_000_000n;

function childState(model: PlatformModel): ChildState {
  let st = childStates.get(model);
  if (!st) {
    st = { next: 0n, byComment: new Map() };
    childStates.set(model, st);
  }
  return st;
}

/**
 * A child comment (a reply to the comment `commentId`) on the local Weibo, at `at` (default: the
 * clock's now). Its `postId` is the post the comment belongs to; `platformIdOf` gives its id.
 */
export function addWeiboChildComment(model: PlatformModel, commentId: string, input: NewReply = {}): LocalReply {
  const comment = model.reply(commentId);
  if (!comment) throw new Error(`no local Weibo comment ${commentId}`);
  const st = childState(model);
  st.next++;
  const reply: LocalReply = {
    id: String(CHILD_ID_BASE + st.next),
    postId: comment.postId,
    author: input.author ?? model.rng.pick(NICKNAMES),
    html: input.html ?? (input.text ?? "回复一下").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
    topic: comment.topic,
    publishedAt: new Date(input.at ?? model.clock.now()),
    editedAt: null,
    floor: 0,
  };
  const list = st.byComment.get(commentId) ?? [];
  list.push(reply);
  list.sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || cmpId(a.id, b.id));
  st.byComment.set(commentId, list);
  return reply;
}

/** The child comments of a comment visible at the clock's time, oldest first. */
export function visibleChildren(model: PlatformModel, commentId: string): LocalReply[] {
  const now = model.clock.now().getTime();
  return (childState(model).byComment.get(commentId) ?? []).filter((c) => c.publishedAt.getTime() <= now);
}

/**
 * `/comments/hotFlowChild?cid=&max_id=&max_id_type=0`: a comment's child comments, oldest first,
 * in the top-level `data` (not `data.data`), `max_id` the id of the next child to show (0 on the
 * last page), `rootComment` the comment they answer. None (or no such comment): `ok: 0`.
 */
export function renderWeiboHotFlowChild(model: PlatformModel, url: URL, sizes: PageSizes): Rendered {
  const cid = url.searchParams.get("cid") ?? "";
  const root = model.reply(cid);
  const all = root ? visibleChildren(model, cid) : [];
  const maxId = url.searchParams.get("max_id");
  const start = maxId && maxId !== "0" ? all.findIndex((c) => cmpId(c.id, maxId) >= 0) : 0;
  const page = start === -1 ? [] : all.slice(start, start + sizes.weiboComments);
  if (!root || page.length === 0) return json({ ok: 0, msg: "暂无回复" });
  const next = all[start + sizes.weiboComments];
  return json({
    ok: 1,
    data: page.map((c) => ({ ...commentJson(c, cid), reply_id: Number(cid), reply_original_text: root.html })),
    total_number: all.length,
    max_id: next ? Number(next.id) : 0,
    max_id_type: 0,
    max: Math.ceil(all.length / sizes.weiboComments),
    rootComment: [commentJson(root, cid)],
  });
}

/** `/u/{uid}`: the mobile site is a script-rendered shell; crawlers go to the API. */
export function renderWeiboProfileShell(account: LocalAccount | undefined): Rendered {
  if (!account) return notFound("用户不存在");
  return html(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${account.name}的微博</title></head><body><div id="app"></div><script>window.$render_data = { uid: "${account.slug}" };</script></body></html>`,
  );
}

/**
 * `/api/config`, which m.weibo.cn asks on load: `login` says whether the session is a member's
 * (./login.ts answers it from the request's cookies).
 */
export function renderWeiboConfig(member: { uid: string } | null): Rendered {
  return json({ ok: 1, data: member ? { login: true, st: "8f3a2c", uid: member.uid } : { login: false, st: "", uid: "" } });
}
