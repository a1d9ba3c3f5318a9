/**
 * Discuz! boards (the usual campus BBS engine, X2–X3.5 and 6/7), read as desktop HTML.
 * URL forms are in lib/platforms/discuz-urls.ts (the registry entry is lib/platforms/discuz.ts), page parsing in ./pages.ts.
 *
 * - Entry: a board URL in any form — `forum.php?mod=forumdisplay&fid={fid}`, rewritten
 *   `forum-{fid}-{n}.html`, 7.x `forumdisplay.php?fid={fid}`, archiver `archiver/?fid-{fid}.html`.
 *   Boards often live in a sub-directory (`/bbs/`, `/2b/`): requests are built from the entry's
 *   origin plus that directory. A board may be named by its key (`forum-the_end-1.html`). Thread
 *   and category (`forum.php?gid=`) URLs are recognised as Discuz! but refused as entries.
 * - List (7.x: `forumdisplay.php?fid=&page=`): `forum.php?mod=forumdisplay&fid={fid}&page={n}`, ordered by last reply (Discuz!'s
 *   default), so `orderedByActivity` and each item's `lastActivityAt` are set. Rows are
 *   `table#threadlisttableid > tbody[id^=normalthread_]`, pinned ones `stickthread_`; title
 *   `a.s.xst`; author `td.by cite a`; dates `td.by em span` — the `title` attribute holds the
 *   full date when the text is relative ("3 天前"); the second `td.by` is the last reply;
 *   `td.num` has replies (a) and views (em); `div.pg a.nxt` links the next page.
 * - Thread (7.x: `viewthread.php?tid=&page=`): `forum.php?mod=viewthread&tid={tid}&page={n}`; posts `div#postlist > div[id^=post_]`,
 *   author `.authi a.xw1`, date `em[id^=authorposton]` ("发表于 2019-1-11 22:29", or a span
 *   with a title), content `td.t_f[id^=postmessage_]`. The first post of page 1 is the head
 *   (platformId `t{tid}`); the others are replies (`p{pid}`, parent `t{tid}`); 点评 under a
 *   floor are replies to that floor, those past the ones the page shows read from the floor's
 *   commentmore pages (./comments.ts; a failed one is a warning, never a lost page).
 * - Login (./login.ts): with login cookies, a page showing the login form instead of the
 *   member bar, or a "需要登录" notice, is an expired login (`LoginExpiredError`); without them
 *   the notice says the board is for members. Never read as an empty board.
 * - GBK boards are decoded by the fetcher (header or `<meta charset>`); nothing here cares.
 */
import { NonRetryableError } from "../../errors";
import { offThread } from "../../parse/off-thread";
import type { Adapter, AdapterContext, CaptureKind, CrawlItem, ListItem, ListPage, ThreadPage, ThreadReadOptions } from "../../types";
import { discuz } from "../../../lib/platforms/discuz";
import { getThreadPage, structureWarning, walkThreadPages } from "../shared";
import { boardListUrl, DISCUZ_BOARD_FORMS, discuzBoardFromUrl, threadPageUrl, type DiscuzBoard } from "../../../lib/platforms/discuz-urls";
import { parseDiscuzList, parseDiscuzThread, type DiscuzParseOptions } from "./pages";
import { checkDiscuzLogin } from "./login";
import { withDiscuzComments } from "./comments";
import { captureUrl, idFrom, threadPageItems } from "../captures";

export { discuzBoardFromUrl, discuzThreadFromUrl, DISCUZ_BOARD_FORMS } from "../../../lib/platforms/discuz-urls";
export type { DiscuzBoard, DiscuzDialect } from "../../../lib/platforms/discuz-urls";
export { parseDiscuzCommentMore, parseDiscuzList, parseDiscuzThread } from "./pages";
export type { DiscuzCommentFloor, DiscuzParseOptions } from "./pages";

/**
 * Dialect of boards whose entry URL did not say it (archiver), as learnt in this run: a board
 * without `forum.php` (HTTP 404) is a 7.x board. Keyed by the run's context, so it lives one run.
 */
const learnt = new WeakMap<AdapterContext, DiscuzBoard>();

function boardOf(ctx: AdapterContext): DiscuzBoard {
  const known = learnt.get(ctx);
  if (known) return known;
  const board = discuzBoardFromUrl(new URL(ctx.account.entryUrl));
  if (!board) {
    throw new NonRetryableError(`not a Discuz! board URL: ${ctx.account.entryUrl} (expected one of ${DISCUZ_BOARD_FORMS.join(", ")})`, ctx.account.entryUrl);
  }
  return board;
}

/** What the page parsers get from a run: the board, warnings to the run, and the list's view of the thread. */
function parseOptions(ctx: AdapterContext, thread?: ListItem): DiscuzParseOptions {
  const options: DiscuzParseOptions = { board: boardOf(ctx), warn: (w) => ctx.warn(w) };
  if (thread) {
    options.thread = { title: thread.title, author: thread.author, publishedAt: thread.publishedAt };
    if (thread.authorId) options.thread.authorId = thread.authorId;
  }
  return options;
}

/** Discuz!'s notice of a board without threads (X and 6/7), in the list's place. */
const EMPTY_BOARD = /尚无主题|暂无主题|没有主题|no threads/i;

/** Discuz!'s notices for a deleted (or hidden) thread, shown instead of the post list. */
const DISCUZ_GONE = /抱歉，指定的主题不存在或已被删除|该帖已被删除|指定的主题不存在/;

/**
 * A viewthread page; a deleted thread throws GoneError (the notice comes without `div#postlist`),
 * a logged-out one LoginExpiredError (./login.ts).
 */
async function getDiscuzThreadPage(ctx: AdapterContext, url: string) {
  const res = await getThreadPage(ctx, url, DISCUZ_GONE, (body) => /id=["']postlist["']/.test(body));
  checkDiscuzLogin(ctx, res);
  return res;
}

function tidOf(item: ListItem): string {
  return /[?&]tid=(\d+)/.exec(item.url)?.[1] ?? item.platformId.replace(/^t/, "");
}

/**
 * A list page. A board whose URL did not say its dialect (archiver) is read as Discuz! X first;
 * when `forum.php` does not exist there (HTTP 404 on page 1) it is a 6/7 board, read as such
 * from then on in this run.
 */
async function getListPage(ctx: AdapterContext, url: string, page: number) {
  const board = boardOf(ctx);
  try {
    // Page 1 is the board's head (ordered by last reply): unchanged, nothing is new on the board.
    return await ctx.fetch.get(url, { kind: "list", conditional: page === 1 });
  } catch (e) {
    if (!(page === 1 && board.dialectGuessed && board.dialect === "x" && e instanceof NonRetryableError && e.status === 404)) throw e;
    const old: DiscuzBoard = { ...board, dialect: "7", dialectGuessed: false };
    learnt.set(ctx, old);
    ctx.log(`${board.base}forum.php answers 404: reading the board as Discuz! 7`);
    return ctx.fetch.get(boardListUrl(old, page), { kind: "list", conditional: page === 1 });
  }
}

/**
 * What `campuswatch parse` reads for Discuz!: the board pages the crawl reads (X and 6/7). A page
 * saved without `--url` and without its own `<base>` or canonical link is placed on a host that
 * cannot exist (`discuz.invalid`): its ids are right, its links say they were guessed.
 */
const discuzCaptureKinds: readonly CaptureKind[] = [
  {
    kind: "list",
    summary: "a board's thread list: the forumdisplay page",
    looksLike: (body) => /id=["']normalthread_\d+/.test(body) && !/id=["']postlist["']/.test(body),
    parse(body, options) {
      const url = captureUrl(options, body, "https://discuz.invalid/forum.php?mod=forumdisplay&fid=0");
      const { items } = parseDiscuzList(body, url, options.now, { warn: options.warn });
      if (items.length === 0 && !EMPTY_BOARD.test(body)) {
        options.warn(structureWarning(url, "thread rows (tbody[id^=normalthread_] with a thread link) in table#threadlisttableid or table#forum_{fid}", body));
      }
      return items;
    },
  },
  {
    kind: "thread",
    summary: "one page of a thread: the viewthread page (floors and the 点评 it shows)",
    looksLike: (body) => /id=["']postlist["']/.test(body),
    parse(body, options) {
      const tid = idFrom([/[?&;]tid=(\d+)/, /thread-(\d+)-\d+-\d+\.html/], options.url, body);
      const url = captureUrl(options, body, `https://discuz.invalid/forum.php?mod=viewthread&tid=${tid ?? ""}`);
      if (!tid) throw new NonRetryableError("no thread id (tid) in the URL or the page: give --url …viewthread&tid=<tid>", url);
      const page = Number(idFrom([/[?&]page=(\d+)/, /thread-\d+-(\d+)-\d+\.html/], url, "") ?? 1);
      return threadPageItems(parseDiscuzThread(body, url, tid, page, options.now, { warn: options.warn }));
    },
  },
];

/** Discuz! X boards. */
export const discuzAdapter: Adapter = {
  platform: discuz.id,
  // The board's list is ordered by last reply: a thread missing from where its activity places it is probed.
  listOrder: "activity",
  repliesIncludeHead: true,
  recognise: discuz.recognise,
  captureKinds: discuzCaptureKinds,

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    for (let page = 1; ; page++) {
      const url = boardListUrl(boardOf(ctx), page);
      const res = await getListPage(ctx, url, page);
      // A logged-out page or a "login required" notice is not an empty board (./login.ts).
      checkDiscuzLogin(ctx, res);
      const { items, nextUrl } = await offThread("discuzList", parseDiscuzList, res.body, res.url, ctx.now, parseOptions(ctx));
      if (items.length === 0) {
        // An empty board says so ("本版块或指定的范围内尚无主题"); a first page without rows or that
        // notice is markup we do not know (a theme, a login wall): never silently empty.
        if (page === 1 && !EMPTY_BOARD.test(res.body)) {
          ctx.warn(
            structureWarning(res.url, "thread rows (tbody[id^=normalthread_] with a thread link) in table#threadlisttableid or table#forum_{fid}", res.body),
          );
        }
        return;
      }
      yield { url: res.url, items, orderedByActivity: true };
      if (!nextUrl) return;
    }
  },

  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const tid = tidOf(item);
    const url = threadPageUrl(boardOf(ctx), tid, 1);
    const res = await getDiscuzThreadPage(ctx, url);
    const page = await offThread("discuzThread", parseDiscuzThread, res.body, url, tid, 1, ctx.now, parseOptions(ctx, item));
    if (!page.head) throw new NonRetryableError(`Discuz! thread ${tid} has no first post`, res.url);
    return page.head;
  },

  replies(ctx: AdapterContext, thread: ListItem, since: Date | null, options?: ThreadReadOptions): AsyncIterable<ThreadPage> {
    const tid = tidOf(thread);
    const pages = walkThreadPages(
      since,
      async (page) => {
        const url = threadPageUrl(boardOf(ctx), tid, page);
        const res = await getDiscuzThreadPage(ctx, url);
        return offThread("discuzThread", parseDiscuzThread, res.body, url, tid, page, ctx.now, parseOptions(ctx, thread));
      },
      options,
    );
    // 点评 past the ones a floor shows are read for the pages the walk yields (./comments.ts).
    return withDiscuzComments(ctx, boardOf(ctx), pages);
  },
};
