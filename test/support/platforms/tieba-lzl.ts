/**
 * Local Tieba users and 楼中楼 (replies to a floor), and the two places Tieba serves the latter:
 * `/p/totalComment?tid=&fid=&pn=` (JSON: the first 10 of each floor of thread page `pn`) and
 * `/p/comment?tid=&pid=&pn=` (HTML: 10 a page, oldest first), modelled on what public scrapers
 * read from the real ones (data.comment_list keyed by floor post id with comment_info[] and
 * comment_num; data.user_list keyed by user id; `li.lzl_single_post` with a single-quoted
 * data-field, `.lzl_content_main`, `.lzl_time`, and the `lzl_li_pager` pager).
 *
 * State lives beside the model (a WeakMap per model), so the generated world and its seeds are
 * untouched: a site has no 楼中楼 until a test adds some with {@link addTiebaLzl}.
 */
import type { LocalPost, PlatformModel } from "./model";
import { esc, tiebaFloorDate } from "./format";
import { html, json, type Rendered } from "./responses";

/** A 楼中楼: a short reply under one floor. */
export interface LocalLzl {
  /** The comment id (`spid`). */
  id: string;
  /** Post id of the floor it answers (`post.headId` for floor 1). */
  floorPid: string;
  author: string;
  html: string;
  publishedAt: Date;
}

/** 楼中楼 per `/p/comment` page and per floor in `/p/totalComment`, as on Tieba. */
export const LZL_PAGE = 10;
/** 楼中楼 a floor renders inline in the thread page (Tieba shows a few). */
export const LZL_INLINE = 2;

/** A floor field the local Tieba prints unreadably, to test one bad field on a floor. */
export type TiebaGarble = "date" | "author" | "body";

interface TiebaState {
  lzl: Map<string, LocalLzl[]>;
  next: bigint;
  garbled: Map<string, Set<TiebaGarble>>;
}
const STATE = new WeakMap<PlatformModel, TiebaState>();

function state(model: PlatformModel): TiebaState {
  let s = STATE.get(model);
  if (!s) STATE.set(model, (s = { lzl: new Map(), next: 150_000_000_000n, garbled: new Map() }));
  return s;
}

/** A stable small hash of a name, for its local login and portrait. */
function hash(name: string): number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
}

/** The login (`user_name`) of a local user: not what the page prints (the nickname is). */
export function tiebaLogin(name: string): string {
  return `u${hash(name).toString(36)}`;
}
/** The portrait id of a local user (the stable id the adapter stores as `authorId`). */
export function tiebaPortrait(name: string): string {
  return `tb.1.${hash(name).toString(16).padStart(8, "0")}.${hash(`p:${name}`).toString(36)}`;
}
/** The numeric user id of a local user. */
export function tiebaUserId(name: string): number {
  return 1_000_000 + (hash(name) % 9_000_000);
}
/** The forum id (`fid`) of a local bar. */
export function tiebaForumId(model: PlatformModel, accountKey: string): number {
  return 27_000_000 + model.accounts.findIndex((a) => a.key === accountKey);
}

/** Add a 楼中楼 under the floor with post id `floorPid`, at `at` (default: the clock's now). */
export function addTiebaLzl(model: PlatformModel, floorPid: string, input: { text?: string; html?: string; author?: string; at?: Date } = {}): LocalLzl {
  const s = state(model);
  s.next += 1n;
  const lzl: LocalLzl = {
    id: String(s.next),
    floorPid,
    author: input.author ?? "路过的同学",
    html: input.html ?? esc(input.text ?? "顶"),
    publishedAt: new Date(input.at ?? model.clock.now()),
  };
  const list = [...(s.lzl.get(floorPid) ?? []), lzl].sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime());
  s.lzl.set(floorPid, list);
  return lzl;
}

/** Remove a 楼中楼 (a moderator deleted it). */
export function removeTiebaLzl(model: PlatformModel, id: string): void {
  const s = state(model);
  for (const [pid, list] of s.lzl)
    s.lzl.set(
      pid,
      list.filter((l) => l.id !== id),
    );
}

/** The 楼中楼 of a floor visible at the clock's time, oldest first. */
export function visibleLzl(model: PlatformModel, floorPid: string): LocalLzl[] {
  const now = model.clock.now().getTime();
  return (state(model).lzl.get(floorPid) ?? []).filter((l) => l.publishedAt.getTime() <= now);
}

/** Print a floor's date, author or body unreadably (`garbleTiebaFloor(model, pid, [])` restores it). */
export function garbleTiebaFloor(model: PlatformModel, floorPid: string, fields: readonly TiebaGarble[]): void {
  state(model).garbled.set(floorPid, new Set(fields));
}
export function isGarbled(model: PlatformModel, floorPid: string, field: TiebaGarble): boolean {
  return state(model).garbled.get(floorPid)?.has(field) ?? false;
}

/** One `li.lzl_single_post`, as the thread page and `/p/comment` print it. */
export function lzlItem(lzl: LocalLzl): string {
  const field = `{'pid':'${lzl.floorPid}','spid':'${lzl.id}','user_name':'${tiebaLogin(lzl.author)}','portrait':'${tiebaPortrait(lzl.author)}','showname':'${esc(lzl.author)}','user_nickname':'${esc(lzl.author)}'}`;
  const card = `{'un':'${tiebaLogin(lzl.author)}', 'id':'${tiebaPortrait(lzl.author)}'}`;
  const d = tiebaFloorDate(lzl.publishedAt).replace(/-0?(\d+)-0?(\d+) /, "-$1-$2&nbsp;");
  return `<li class="lzl_single_post j_lzl_s_p " data-field="${field}" data-lzl-author="0"><a data-field="${card}" target="_blank" class="j_user_card lzl_p_p" href="/home/main?id=${tiebaPortrait(lzl.author)}&amp;ie=utf-8&amp;fr=pb" username="${tiebaLogin(lzl.author)}"><img src="/sys/portrait/item/${tiebaPortrait(lzl.author)}"></a><div class="lzl_cnt"><a class="at j_user_card " data-field="${card}" alog-group="p_author" target="_blank" href="/home/main?id=${tiebaPortrait(lzl.author)}&amp;ie=utf-8&amp;fr=pb" username="${tiebaLogin(lzl.author)}">${esc(lzl.author)}</a>:&nbsp;<span class="lzl_content_main" data-username="undefined">${lzl.html}</span><div class="lzl_content_reply"><span class="lzl_jb" style="display:none"><a href="###" class="lzl_jb_in">&nbsp;</a></span><span class="lzl_op_list j_lzl_o_l"></span><span class="lzl_time">${d}</span><a rel="noopener" href="#" class="lzl_s_r">回复</a></div></div></li>`;
}

/** The 楼中楼 pager `li` (`{total_num:N,total_page:P}`: JavaScript, not JSON, as on Tieba). */
export function lzlPager(total: number): string {
  const pages = Math.ceil(total / LZL_PAGE);
  return `<li class="lzl_li_pager j_lzl_l_p lzl_li_pager_s" data-field="{total_num:${total},total_page:${pages}}"><a rel="noopener" class="j_lzl_p btn-sub btn-small pull-right" href="##"><i class="icon-reply"></i>我也说一句</a><p>&nbsp;</p></li>`;
}

/**
 * `/p/totalComment?tid=&fid=&pn=`: the first {@link LZL_PAGE} 楼中楼 of every floor on thread page
 * `pn`. `floorsOnPage` gives those floors' post ids. A wrong `fid` gets Tieba's error answer.
 */
export function renderTotalComment(
  model: PlatformModel,
  post: LocalPost | undefined,
  url: URL,
  floorsOnPage: (post: LocalPost, pn: number) => string[],
): Rendered {
  if (!post || post.platform !== "tieba") return json({ errno: 4, errmsg: "thread not found", data: [] });
  if (url.searchParams.get("fid") !== String(tiebaForumId(model, post.accountKey))) return json({ errno: 1989002, errmsg: "fid error", data: [] });
  const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1") || 1);
  const commentList: Record<string, unknown> = {};
  const users: Record<string, unknown> = {};
  for (const pid of floorsOnPage(post, pn)) {
    const all = visibleLzl(model, pid);
    if (all.length === 0) continue;
    const shown = all.slice(0, LZL_PAGE);
    commentList[pid] = {
      comment_num: all.length,
      comment_list_num: shown.length,
      comment_info: shown.map((l) => {
        const uid = tiebaUserId(l.author);
        users[String(uid)] = {
          user_id: uid,
          user_name: tiebaLogin(l.author),
          user_nickname: l.author,
          portrait: tiebaPortrait(l.author),
          show_nickname: l.author,
        };
        return {
          thread_id: post.id,
          post_id: pid,
          comment_id: l.id,
          username: tiebaLogin(l.author),
          user_id: String(uid),
          now_time: Math.floor(l.publishedAt.getTime() / 1000),
          content: l.html,
          ptype: "0",
          during_time: "0",
          show_nickname: l.author,
        };
      }),
    };
  }
  // Tieba answers an empty list, not an empty object, when no floor has any.
  return json({
    errno: 0,
    errmsg: "success",
    data: { comment_list: Object.keys(commentList).length > 0 ? commentList : [], user_list: Object.keys(users).length > 0 ? users : [] },
  });
}

/** `/p/comment?tid=&pid=&pn=`: one page of one floor's 楼中楼 (an empty list past the end). */
export function renderCommentPage(model: PlatformModel, post: LocalPost | undefined, url: URL): Rendered {
  if (!post || post.platform !== "tieba") return html("<html><body>该贴已被删除</body></html>", 404);
  const pid = url.searchParams.get("pid") ?? "";
  const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1") || 1);
  const all = visibleLzl(model, pid);
  const shown = all.slice((pn - 1) * LZL_PAGE, pn * LZL_PAGE);
  return html(`<ul class="j_lzl_m_w">${shown.map(lzlItem).join("")}${lzlPager(all.length)}</ul>`);
}
