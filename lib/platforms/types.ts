/**
 * What the platform registry (./index.ts) knows of one platform: everything that is not crawling.
 * The crawl behaviour is the adapter's (crawler/adapters/<id>/index.ts), which names its entry.
 *
 * Every field is required, so an entry that forgets one does not compile. Pure data and pure URL
 * functions only: client components import the registry (badges, filters, charts, forms).
 */

/** Which search fields a keyword watch on this platform asks for besides the word. */
export type WatchScope =
  /** The word alone (Weibo's search). */
  | "word"
  /** The word and, optionally, a Tieba bar to search in. */
  | "bar"
  /** The word and the board's URL (a Discuz! installation's search). */
  | "board";

/** What a platform supports. */
export interface PlatformFeatures {
  /** Replies to a post (comments, floors) are read. */
  replies: boolean;
  /** Replies to a reply (楼中楼, child comments, threaded comments, 点评) are read. */
  subReplies: boolean;
  /** A post or reply the platform no longer serves is noticed and marked deleted. */
  deletions: boolean;
  /** A keyword watch can follow the platform's own search: which fields it needs, or null. */
  keywordWatch: WatchScope | null;
  /** Login cookies can be imported for an account (cookie import, lib/cookies). */
  cookies: boolean;
}

/** The colours of a platform: the same in every chart and badge. */
export interface PlatformColours {
  /** Series colour in charts. */
  chart: string;
  /** Badge text. */
  badgeText: string;
  /** Badge background. */
  badgeBackground: string;
}

/** The account a page of a platform belongs to, as discovery proposes it. */
export interface CandidateEntry {
  /** Entry URL to register. */
  url: string;
  /** Name to propose (stored with the candidate, not translated). */
  name: string;
}

/**
 * One platform. Its names are messages, not fields: `platforms.<id>.name` (the reader's name),
 * `.short` (dense tables), `.full` (bilingual, form selects) and `.shape` (what an entry URL
 * names, "Weibo user") in messages/<locale>.json; test/unit/platforms checks they exist.
 */
export interface PlatformEntry<Id extends string = string> {
  id: Id;
  /** English name of what an entry URL names ("Weibo user"), for English (CLI) messages. */
  shapeLabel: string;
  colours: PlatformColours;
  /** Default crawl schedule (cron): fast-moving platforms are polled more often. */
  defaultCron: string;
  /**
   * True when a URL looks like this platform's (host or path shape), entry or not. The registry
   * tries platforms in its order; a `fallback` platform takes any http(s) URL and comes last.
   */
  recognise: (url: URL) => boolean;
  /** True when the URL has this platform's exact entry shape (the adapter builds every request from it). */
  isEntryUrl: (url: URL) => boolean;
  /** The entry URL to store for one someone registers (a mobile form → the desktop list), or null to keep it as given. */
  normaliseEntryUrl: (url: URL) => string | null;
  /** Every entry URL form accepted, for the "unknown URL shape" message; the first is the example. */
  entryUrlForms: readonly [string, ...string[]];
  /** The account a page URL belongs to, for discovery, or null when the URL does not say. */
  candidateOf: (url: URL) => CandidateEntry | null;
  /**
   * The site key of an account's posts (lib/site-key.ts): posts with the same platform id and
   * key are the same post, whichever account reached them.
   */
  siteKey: (url: URL) => string;
  /**
   * The platform's other sites whose cookies an account on a public host may use (Weibo's API on
   * m.weibo.cn for a weibo.com entry; Baidu's login for Tieba), besides the entry host's own.
   */
  cookieDomains: readonly string[];
  features: PlatformFeatures;
  /** Takes any http(s) URL (a blog): tried last, and used when a stored platform is unknown. */
  fallback: boolean;
}
