/**
 * The page parsers a parse thread may run (./off-thread.ts): each is a pure function of the page
 * and plain options. The adapters pass the same function with its name, and run it here when
 * parse threads are off; test/integration/adapters/parse-threads.test.ts checks the names.
 *
 * Only a parse thread imports this module (./thread.ts): the adapters import ./off-thread.ts,
 * which imports neither, so there is no import cycle. The names are ./protocol.ts `ParserName`.
 */
import { archiveSync } from "../archive";
import { parseDiscuzCommentMore, parseDiscuzList, parseDiscuzThread } from "../adapters/discuz/pages";
import { advertisedFeedsIn, readFeed } from "../adapters/blog/feed";
import { parseBlogListing, readBlogArticle } from "../adapters/blog/page";
import { parseListPage as parseTiebaListPage } from "../adapters/tieba";
import { parseTiebaThread } from "../adapters/tieba/thread";
import type { ParserName } from "./protocol";

export const parsers = {
  discuzList: parseDiscuzList,
  discuzThread: parseDiscuzThread,
  discuzCommentMore: parseDiscuzCommentMore,
  tiebaList: parseTiebaListPage,
  tiebaThread: parseTiebaThread,
  blogListing: parseBlogListing,
  blogArticle: readBlogArticle,
  blogFeed: readFeed,
  blogFeedLinks: advertisedFeedsIn,
  /** Not a parser: the raw archive's write (../archive.ts), which also wants a thread that is not the crawl's. */
  archive: archiveSync,
} satisfies Record<ParserName, (...args: never[]) => unknown>;

/** The parsers by name. */
export type Parsers = typeof parsers;
