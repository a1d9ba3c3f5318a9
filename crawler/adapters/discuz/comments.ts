/**
 * Requests for a Discuz! X thread page's 点评 beyond the ones it shows (formats in
 * ./pages.ts: the floor's "下一页" link and the commentmore pages).
 *
 * Only floors whose 点评 block links a next page cost requests: their commentmore pages from page
 * 2 on, each one request, until the pager ends. They are read whole even when the thread was read
 * before: the worker takes a reply that a page it read no longer shows for deleted (the head
 * floor's 点评 hang under the thread itself), so a floor's older 点评 are shown whenever its page
 * is read. (Discuz! lists them newest first; new ones push the older ones to later pages.)
 *
 * A failed commentmore request costs only what it would have read, as Tieba's 楼中楼 do
 * (./tieba/lzl.ts): the page is yielded with its floors, the 点评 the page shows itself and those
 * the other requests read, marked `missed`; the failure is a warning on the run naming the URL
 * (./missed.ts), the other floors' pages are still read, and the worker reads the thread again on
 * the next run instead of letting its mark move past the comments it missed. A block (a captcha,
 * or a throttle status such as 429 or 503 after the fetcher's retries) ends the page's
 * commentmore requests: asking a blocking host again only prolongs the block. The next thread
 * page and the next thread are read as usual.
 */
import { BlockedError } from "../../errors";
import { offThread } from "../../parse/off-thread";
import type { AdapterContext, CrawlItem, ThreadPage } from "../../types";
import { parseDiscuzCommentMore, type DiscuzCommentFloor, type DiscuzThreadPage } from "./pages";
import { commentMoreUrl, type DiscuzBoard } from "../../../lib/platforms/discuz-urls";
import { missedRequest } from "../missed";

/**
 * Commentmore pages read per floor and run at most (5 点评 a page by default: 500 comments). A
 * floor with more is read this far, with a warning; its newest comments are on the first pages.
 */
export const DISCUZ_COMMENT_PAGE_LIMIT = 100;

/**
 * Yields each thread page with its floors and inline 点评 followed by the 点评 of their later
 * pages (parents before children, as the store wants them). A page some of whose commentmore
 * requests failed is yielded with the rest, marked `missed`.
 */
export async function* withDiscuzComments(ctx: AdapterContext, board: DiscuzBoard, pages: AsyncIterable<ThreadPage>): AsyncGenerator<ThreadPage> {
  for await (const yielded of pages) {
    const { commentFloors, ...rest } = yielded as ThreadPage & Partial<DiscuzThreadPage>;
    if (!commentFloors || commentFloors.length === 0) {
      yield rest;
      continue;
    }
    const more: CrawlItem[] = [];
    const missed = await readMoreComments(ctx, board, commentFloors, more, rest.url);
    yield { ...rest, replies: [...rest.replies, ...more], ...(missed ? { missed } : {}) };
  }
}

/** Read the floors' later 点评 pages into `out`; true when some request failed (each is warned about). */
async function readMoreComments(ctx: AdapterContext, board: DiscuzBoard, floors: DiscuzCommentFloor[], out: CrawlItem[], pageUrl: string): Promise<boolean> {
  let missed = false;
  for (const floor of floors) {
    let current: DiscuzCommentFloor = floor;
    let read = 0;
    for (let n = 0; ; n++) {
      if (n === DISCUZ_COMMENT_PAGE_LIMIT) {
        ctx.warn({
          url: commentMoreUrl(board, floor.tid, floor.pid, current.nextPage),
          field: "comments",
          raw: `${read} 点评 read from ${n} pages`,
          reason: `floor ${floor.parentPlatformId}: read the first ${n} commentmore pages only`,
        });
        break;
      }
      const url = commentMoreUrl(board, floor.tid, floor.pid, current.nextPage);
      let page;
      try {
        const res = await ctx.fetch.get(url, { kind: "item" });
        page = await offThread("discuzCommentMore", parseDiscuzCommentMore, res.body, res.url, current, current.nextPage, ctx.now, { warn: ctx.warn });
      } catch (e) {
        const shown = Object.values(floor.seen).reduce((sum, texts) => sum + texts.length, 0);
        const blocked = e instanceof BlockedError;
        const rest = blocked ? " (blocked: the page's other commentmore requests wait for the next run too)" : "";
        missedRequest(ctx, e, url, `the floor, its ${shown} 点评 shown on ${pageUrl} and ${read} from its later pages${rest}`);
        if (blocked) return true;
        missed = true;
        break;
      }
      out.push(...page.comments);
      read += page.comments.length;
      // The end of the pager, a page past the end, or a page that only repeats the ones read.
      if (page.nextPage === null || page.rows === 0 || page.comments.length === 0) break;
      current = { ...current, nextPage: page.nextPage, seen: page.seen };
    }
  }
  return missed;
}
