/**
 * The URL forms of Discuz! boards and threads, and the request URLs built from a board.
 *
 * Boards (accepted as entry URLs):
 * - Discuz! X: `forum.php?mod=forumdisplay&fid={fid}` (`mod` may be missing), rewritten
 *   `forum-{fid}-{page}.html`, and the archiver `archiver/?fid-{fid}.html` (also `archiver/fid-{fid}.html`).
 *   X also names a board by its key (版块简称, "the_end") instead of its number wherever `fid`
 *   goes: `forum-the_end-1.html`, `forum.php?mod=forumdisplay&fid=the_end` (forum.php looks the key
 *   up itself), so `fid` is a number or a key of letters, digits and `_`;
 * - Discuz! 6/7: `forumdisplay.php?fid={fid}`.
 * Boards often live in a sub-directory (`/bbs/`, `/2b/`): the board's `base` is that directory.
 *
 * Threads (`forum.php?mod=viewthread&tid=`, `viewthread.php?tid=`, `thread-{tid}-{page}-{n}.html`,
 * `archiver/?tid-{tid}.html`) are recognised as Discuz! but refused as entry URLs: a thread URL does
 * not name its board (the board is only in the page's breadcrumb, which registration cannot fetch),
 * so the account form asks for the board's URL and lists the forms above. A Discuz! X category
 * page (`forum.php?gid={gid}`) is recognised and refused the same way: it lists boards, not
 * threads. (6/7's `index.php?gid=` is not taken: too many other sites have an `index.php?gid=`.)
 *
 * Requests: a Discuz! X board (every form but `forumdisplay.php`) is read through `forum.php`,
 * which X serves whether or not URL rewriting is on; a 7.x board through `forumdisplay.php` and
 * `viewthread.php`. An archiver URL does not say which: it is read as X first, and as 7.x when
 * `forum.php` does not exist (see the adapter).
 *
 * Pure, and below the crawler: the platform registry (./discuz.ts) recognises boards with it, a
 * post's site key (lib/site-key.ts) is the board's directory, and the migration's backfill
 * computes it without the crawler. The adapter (crawler/adapters/discuz) builds its requests with it.
 */

/** Which generation of Discuz! the request URLs are built for. */
export type DiscuzDialect = "x" | "7";

/** A board: its directory URL, forum id and request dialect. */
export interface DiscuzBoard {
  /** The directory of the board's scripts ("https://bbs.example.edu.cn/bbs/"). */
  base: string;
  fid: string;
  dialect: DiscuzDialect;
  /** The URL does not say the dialect (archiver): try X, then 7.x. */
  dialectGuessed?: boolean;
}

/** Entry URL forms of a Discuz! board, for messages ("expected something like …"). */
export const DISCUZ_BOARD_FORMS: readonly [string, ...string[]] = [
  "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2",
  "https://bbs.example.edu.cn/forum-2-1.html",
  "https://bbs.example.edu.cn/forumdisplay.php?fid=2",
  "https://bbs.example.edu.cn/archiver/?fid-2.html",
];

const ID = /^\d+$/;
/** A board's number or its key (版块简称). */
const FID = /^\w+$/;

/** Board directory, forum id and dialect of a board URL, or null when it is not a Discuz! board URL. */
export function discuzBoardFromUrl(url: URL): DiscuzBoard | null {
  const path = url.pathname;
  const rewritten = /^(.*\/)forum-(\w+)-\d+\.html$/.exec(path);
  if (rewritten?.[1] && rewritten[2]) return { base: url.origin + rewritten[1], fid: rewritten[2], dialect: "x" };
  const fid = url.searchParams.get("fid");
  const php = /^(.*\/)forum\.php$/.exec(path);
  if (php?.[1] && fid && FID.test(fid) && (url.searchParams.get("mod") ?? "forumdisplay") === "forumdisplay") {
    return { base: url.origin + php[1], fid, dialect: "x" };
  }
  const old = /^(.*\/)forumdisplay\.php$/.exec(path);
  if (old?.[1] && fid && ID.test(fid)) return { base: url.origin + old[1], fid, dialect: "7" };
  const archived = archiverTarget(url);
  if (archived?.kind === "fid") return { base: archived.base, fid: archived.id, dialect: "x", dialectGuessed: true };
  return null;
}

/** Board directory and thread id of a Discuz! thread URL (any form), or null. */
export function discuzThreadFromUrl(url: URL): { base: string; tid: string; dialect: DiscuzDialect } | null {
  const path = url.pathname;
  const rewritten = /^(.*\/)thread-(\d+)-\d+-\d+\.html$/.exec(path);
  if (rewritten?.[1] && rewritten[2]) return { base: url.origin + rewritten[1], tid: rewritten[2], dialect: "x" };
  const tid = url.searchParams.get("tid");
  const php = /^(.*\/)forum\.php$/.exec(path);
  if (php?.[1] && tid && ID.test(tid) && url.searchParams.get("mod") === "viewthread") return { base: url.origin + php[1], tid, dialect: "x" };
  const old = /^(.*\/)viewthread\.php$/.exec(path);
  if (old?.[1] && tid && ID.test(tid)) return { base: url.origin + old[1], tid, dialect: "7" };
  const archived = archiverTarget(url);
  if (archived?.kind === "tid") return { base: archived.base, tid: archived.id, dialect: "x" };
  return null;
}

/** A Discuz! X category page (`forum.php?gid=1`): its directory and group id, or null. */
export function discuzCategoryFromUrl(url: URL): { base: string; gid: string } | null {
  const gid = url.searchParams.get("gid");
  const dir = /^(.*\/)forum\.php$/.exec(url.pathname);
  if (!dir?.[1] || !gid || !ID.test(gid)) return null;
  const mod = url.searchParams.get("mod");
  return mod === null || mod === "index" ? { base: url.origin + dir[1], gid } : null;
}

/** `archiver/?fid-2.html`, `archiver/?tid-9.html` (also without `?`, and with `-page-N`). */
function archiverTarget(url: URL): { base: string; kind: "fid" | "tid"; id: string } | null {
  const dir = /^(.*\/)archiver\/(?:index\.php)?((?:fid|tid)-\d+(?:-page-\d+)?\.html)?$/.exec(url.pathname);
  if (!dir?.[1]) return null;
  const target = dir[2] ?? url.search.replace(/^\?/, "").split("&")[0] ?? "";
  const m = /^(fid|tid)-(\d+)(?:-page-\d+)?\.html$/.exec(target);
  return m?.[1] && m[2] ? { base: url.origin + dir[1], kind: m[1] as "fid" | "tid", id: m[2] } : null;
}

/** Page `page` of the board's thread list. */
export function boardListUrl(board: DiscuzBoard, page: number): string {
  return board.dialect === "7"
    ? `${board.base}forumdisplay.php?fid=${board.fid}&page=${page}`
    : `${board.base}forum.php?mod=forumdisplay&fid=${board.fid}&page=${page}`;
}

/** A thread's link (what is stored as the post URL). */
export function threadUrl(board: DiscuzBoard, tid: string): string {
  return board.dialect === "7" ? `${board.base}viewthread.php?tid=${tid}` : `${board.base}forum.php?mod=viewthread&tid=${tid}`;
}

/** Page `page` of a thread. */
export function threadPageUrl(board: DiscuzBoard, tid: string, page: number): string {
  return `${threadUrl(board, tid)}&page=${page}`;
}

/**
 * Page `page` of a floor's 点评 (Discuz! X post comments) as the thread page's "下一页" asks for
 * it: `forum.php?mod=misc&action=commentmore&tid=&pid=&page=` answered as an AJAX fragment.
 * Discuz! serves it only to AJAX requests (`inajax=1`; without it the answer is the notice
 * "postcomment_closed"), so the parameters its own script adds are sent too.
 */
export function commentMoreUrl(board: DiscuzBoard, tid: string, pid: string, page: number): string {
  return `${board.base}forum.php?mod=misc&action=commentmore&tid=${tid}&pid=${pid}&page=${page}&inajax=1&ajaxtarget=comment_${pid}`;
}

/** A floor's permanent link. */
export function floorUrl(board: DiscuzBoard, tid: string, pid: string): string {
  return board.dialect === "7"
    ? `${board.base}redirect.php?goto=findpost&ptid=${tid}&pid=${pid}`
    : `${board.base}forum.php?mod=redirect&goto=findpost&ptid=${tid}&pid=${pid}`;
}

/** The thread id in a link of any thread form, or null. */
export function tidInLink(href: string, pageUrl: string): string | null {
  try {
    return discuzThreadFromUrl(new URL(href, pageUrl))?.tid ?? null;
  } catch {
    return null;
  }
}
