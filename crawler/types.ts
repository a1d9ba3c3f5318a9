/**
 * Contracts between the crawler's parts. Adapters turn pages into items; the fetcher owns the
 * network; dedupe/store own the database. Keep these types small: every adapter depends on them.
 */

import type { Platform } from "../lib/platforms";

// The platform list lives below the crawler (an account's cookies depend on it too).
export { PLATFORMS, type Platform } from "../lib/platforms";

/** How pages are fetched: `auto` lets the adapter decide, `http` never uses a browser, `browser` always does. */
export type FetchMode = "auto" | "http" | "browser";

/** What kind of page a request is, for the crawl run's counters. */
export type PageKind = "list" | "item" | "other";

/** A decoded HTTP response. */
export interface FetchResult {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Body decoded to a string (charset from the header, then `<meta charset>`, GBK/GB18030 included). */
  body: string;
  /** Raw body size in bytes. */
  bytes: number;
  contentType: string;
  /** True when the page was rendered by Chromium. */
  viaBrowser: boolean;
  /** The undecoded body, only when the request asked for `binary`. */
  raw?: Uint8Array;
}

/** Options of one request. */
export interface FetchOptions {
  /** Counted on the crawl run as list, item or other pages. @default "other" */
  kind?: PageKind;
  /** Render through Chromium (mode `auto`: the adapter asks; mode `browser`: always; mode `http`: never). */
  browser?: boolean;
  /** Extra request headers (e.g. conditional GET). */
  headers?: Record<string, string>;
  /** Expect JSON: the fetcher checks it parses, and treats Weibo's `ok: -100` as a block. */
  json?: boolean;
  /** Return the raw bytes in `raw` (images for OCR); always over plain HTTP. */
  binary?: boolean;
  /**
   * The listing's head page (a board's or bar's first list page, a timeline's first page, a
   * blog's feed or entry page): unchanged, nothing new is anywhere in the listing. When the last
   * complete run saw an ETag or Last-Modified for this URL, the request is made conditional, and a
   * 304 answer throws NotModifiedError instead of returning a body (crawler/fetch/conditional.ts).
   */
  conditional?: boolean;
}

/**
 * The only way adapters reach the network. Implementations enforce politeness (one request in
 * flight per host, minimum delay, robots.txt), retries and back-off, size and time caps.
 * Errors are thrown as the classes in `crawler/errors.ts`.
 */
export interface Fetcher {
  get(url: string, options?: FetchOptions): Promise<FetchResult>;
  /**
   * Open `url` in Chromium as a person would (the account's cookies, the host's politeness slot,
   * the address policy on every request the page makes) and keep the JSON answers of the
   * requests the page's own scripts make, for platforms that sign their API calls in their page
   * scripts (Xiaohongshu, Zhihu): the adapter never re-implements the signature. Absent on a
   * fetcher without a browser.
   */
  capture?(url: string, request: CaptureRequest, options?: FetchOptions): Promise<CaptureResult>;
}

/** What {@link Fetcher.capture} keeps and does on the page. */
export interface CaptureRequest {
  /** Keep the answers whose URL matches one of these (e.g. `/api/sns/web/v1/user_posted`). */
  match: readonly RegExp[];
  /** Window globals to read as JSON after load (e.g. `__INITIAL_STATE__`); missing ones are left out. */
  globals?: readonly string[];
  /** Scroll to the bottom up to this many times, each waiting for the page's next matching answer. */
  scrolls?: number;
  /** CSS selectors to click, in order, once each when present (e.g. a "展开更多回复" button). */
  clicks?: readonly string[];
  /** Stop scrolling once this many matching answers have arrived. */
  maxResponses?: number;
}

/** One answer a page's own script received. */
export interface CapturedResponse {
  url: string;
  status: number;
  body: string;
}

/** What {@link Fetcher.capture} returns: the page itself, the kept answers in arrival order, and the globals read. */
export interface CaptureResult {
  page: FetchResult;
  responses: CapturedResponse[];
  globals: Record<string, unknown>;
}

/**
 * One kind of saved page or API answer that `campuswatch parse FILE --platform P --kind K` reads
 * with the adapter's own code ("list" and "thread" pages, Bilibili's "feed-space", …). It is what
 * a user attaches to a bug report, and how captures are replayed.
 */
export interface CaptureKind {
  /** The name given to `--kind`. */
  kind: string;
  /** One line for `--help`. */
  summary: string;
  /**
   * True when a body is of this kind at a glance (a cheap test of its text): `campuswatch parse`
   * without `--kind` takes the one kind of the platform that claims it. Absent: never guessed.
   */
  looksLike?(body: string): boolean;
  /** The items the crawl would store from this body; one bad field is a warning, never a throw. */
  parse(body: string, options: { url?: string; now: Date; warn: (warning: FieldWarning) => void }): CrawlItem[] | Promise<CrawlItem[]>;
}

/** One post or reply as an adapter reads it. Dates are already resolved to instants. */
export interface CrawlItem {
  /** The platform's own id, unique within the account (Weibo mid, Tieba post id, Discuz pid, blog guid/URL). */
  platformId: string;
  /** For a reply: the platformId of the thread/post it belongs to. */
  parentPlatformId?: string | null;
  kind: "post" | "reply";
  url: string;
  title: string;
  /** The author's name as the page shows it (whitespace-collapsed). */
  author: string;
  /** The platform's stable id of the author (Tieba portrait/login, Weibo uid, Discuz uid), when shown. */
  authorId?: string;
  publishedAt: Date;
  /**
   * The content is known to be partial (a Weibo long text whose full text failed): stored marked
   * incomplete, and replaced by a later crawl that reads it whole.
   */
  textIncomplete?: boolean;
  /** Content as crawled (hostile HTML; sanitized only at display time). */
  html: string;
  /** Image URLs found in the content (for OCR). */
  images?: string[];
  /** Floor number on Tieba/Discuz threads, when known. */
  floor?: number;
  /** The raw page or JSON this item was read from, for the evidence archive. */
  source?: { url: string; body: string };
}

/** An entry of a listing page: a post, or a thread whose replies may need reading. */
export interface ListItem extends CrawlItem {
  /** Pinned/sticky items neither stop the scan nor hide older unseen items. */
  pinned?: boolean;
  /** The list entry lacks full content; call `adapter.complete` for a new or re-checked item. */
  incomplete?: boolean;
  /** The item has replies that `adapter.replies` can read. */
  hasReplies?: boolean;
  /** Newest activity (last reply) shown by the list; lists ordered by last reply sort by this. */
  lastActivityAt?: Date;
  /** Reply count shown by the list, when the platform shows it. */
  replyCount?: number;
}

/** How an account's list is ordered (see {@link Adapter.listOrder}). */
export type ListOrder = "activity" | "published";

/** One page of a listing, newest first. */
export interface ListPage {
  url: string;
  items: ListItem[];
  /** True when the list is ordered by last reply (Discuz!, Tieba) rather than by publication. */
  orderedByActivity?: boolean;
  /**
   * The platform ordered this page by relevance (a keyword watch's search results): an old item
   * says nothing about the next page, so the walk neither stops at the history mark nor at the
   * backfill cutoff here; the adapter bounds how many pages it yields.
   */
  orderedByRelevance?: boolean;
}

/** One page of a thread: the first post (on page 1) and replies. */
export interface ThreadPage {
  url: string;
  /** The thread's own first post with full content, when this page shows it. */
  head?: CrawlItem;
  replies: CrawlItem[];
  /** Forums: this page's number (from 1). With `pageCount`, lets the worker resume an unfinished thread. */
  page?: number;
  /** Forums: the thread's page count as this page shows it. */
  pageCount?: number;
  /**
   * Some replies this page announces could not be read (a failed child-comment, 楼中楼 or 点评
   * request, already warned about with its URL): what came with the page is kept, and the worker
   * reads the thread again on the next run instead of marking it read.
   */
  missed?: boolean;
}

/** How far `replies()` may read in this run, and where to start (forums read by page number). */
export interface ThreadReadOptions {
  /**
   * The page to start at: an unfinished thread's next page, or a finished thread's last page
   * (new replies land there). Null: the adapter finds it (page 1, or the last page with `since`).
   */
  fromPage?: number | null;
  /** Pages this run may request for this thread, the search for the start page included. */
  pageBudget?: number;
  /** Also yield page 1 (the head post), to re-check it for edits. */
  withHead?: boolean;
}

/** What an adapter is given. */
export interface AdapterContext {
  account: {
    id: number;
    entryUrl: string;
    platform: Platform;
    fetchMode: FetchMode;
    /**
     * The operator gave this account login cookies: the adapter checks that the platform answers
     * as to a logged-in member and throws `LoginExpiredError` when it does not (an anonymous
     * account is expected to be logged out and is not checked).
     */
    hasLoginCookies?: boolean;
  };
  fetch: Fetcher;
  /** The crawl's clock: resolve relative and year-less dates against it. */
  now: Date;
  log: (message: string) => void;
  /**
   * A field of one item that could not be read (a date, an author, a body): recorded on the run
   * with the page URL and the raw text, while the item is stored with the best value available
   * and the rest of the page goes on. Never throw for one bad field.
   */
  warn: (warning: FieldWarning) => void;
}

/**
 * The {@link FieldWarning} field of a page an adapter recognised as its platform's (a bar's list,
 * a board's thread table, a thread page) from which it read nothing: old markup, a changed
 * template, a login wall the adapter does not know. Never silently empty: the run records it with
 * the URL and what was expected (crawler/adapters/shared.ts `structureWarning`), and after two
 * such runs in a row the account is marked "unrecognised" (页面结构无法识别, crawler/runs.ts).
 */
export const STRUCTURE_FIELD = "structure";

/** One unreadable field, as {@link AdapterContext.warn} records it on the crawl run. */
export interface FieldWarning {
  /** The page (or API) URL the field was read from. */
  url: string;
  /** "date" | "author" | "body" | "title" | … */
  field: string;
  /** The raw text that could not be read (cut to 200 characters when recorded). */
  raw: string;
  /** What was used instead, e.g. "the list's date". */
  reason: string;
}

/**
 * A platform adapter. It only knows its platform: it turns pages into plain items and says where
 * the next page is. It never touches the database, the history table or the classifier.
 * Every request URL is built from the origin of `account.entryUrl`.
 */
export interface Adapter {
  platform: Platform;
  /** True when an entry URL looks like this platform's (host or path shape). */
  recognise(url: URL): boolean;
  /** Listing pages, newest first, fetched lazily: the caller stops iterating when it has seen enough. */
  list(ctx: AdapterContext): AsyncIterable<ListPage>;
  /** Full content of an incomplete list item (blog article page, Weibo long text). */
  complete?(ctx: AdapterContext, item: ListItem): Promise<CrawlItem>;
  /**
   * How the account's list orders every post of the account, when it lists them all: "activity"
   * (by last reply: forums), "published" (by publication: a Weibo timeline, a blog). A stored
   * post missing from the span of the list a walk read is then probably gone, and the worker opens
   * it through `complete()` to find out (crawler/worker/deletions.ts). Unset: the list is not the
   * account's whole output (keyword search results), and a post missing from it says nothing.
   */
  listOrder?: ListOrder;
  /**
   * Pages of a thread's replies, in the order the platform shows them (oldest first on forums).
   * `since` is the newest reply time already stored for this thread (null: read everything).
   */
  replies?(ctx: AdapterContext, thread: ListItem, since: Date | null, options?: ThreadReadOptions): AsyncIterable<ThreadPage>;
  /**
   * True when `replies()` yields the thread's full head post (forums: floor 1 is the post), so the
   * worker stores a new thread from its first page instead of from the list excerpt. False (Weibo):
   * the post comes from the list (completed by `complete()`), and replies are comments only.
   */
  repliesIncludeHead?: boolean;
  /** The saved pages and API answers `campuswatch parse` reads for this platform. */
  captureKinds?: readonly CaptureKind[];
}
