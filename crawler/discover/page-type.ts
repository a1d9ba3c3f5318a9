/**
 * The page-type analyser (method.md §3): is a fetched page a hub (a link or directory page: many
 * links, little text, few punctuation marks) or a topic page (an article)? Hubs are not judged by
 * their text and their links are followed; topic pages are judged, and only relevant ones are
 * followed. The four features of the paper each cast a vote; the sum decides.
 */
import type { ParsedPage } from "./page";

/** The two page types. */
export type PageType = "hub" | "topic";

/** What the analyser measured. */
export interface PageTypeFeatures {
  /** Sentence punctuation marks outside links. */
  punctuation: number;
  /** Length of the URL's path and query (the host says nothing about the page). */
  urlLength: number;
  /** The last path segment ("" for a directory URL). */
  fileName: string;
  /** What the file name suggests on its own. */
  fileHint: PageType | null;
  /** The site's front page ("/" without a query). */
  siteRoot: boolean;
  /** Characters of link text / characters of all text (0 for an empty page). */
  linkTextRatio: number;
  links: number;
}

/** The analyser's verdict. */
export interface PageTypeVerdict {
  type: PageType;
  /** Sum of the votes: positive means hub. */
  score: number;
  features: PageTypeFeatures;
}

/** Thresholds of {@link analysePageType}. */
export interface PageTypeOptions {
  /** A link-text ratio at or above this votes hub (twice: it is the strongest signal). @default 0.5 */
  hubLinkRatio: number;
  /** A link-text ratio at or below this votes topic (twice). @default 0.3 */
  topicLinkRatio: number;
  /** At most this many punctuation marks votes hub: a list has no sentences. @default 6 */
  hubMaxPunctuation: number;
  /** At least this many punctuation marks votes topic. @default 20 */
  topicMinPunctuation: number;
  /** A path+query at most this long votes hub ("/", "/sports/", "/f?kw=x"). @default 12 */
  hubMaxUrlLength: number;
  /** A path+query at least this long votes topic (dated article paths, ids). @default 30 */
  topicMinUrlLength: number;
}

/** Defaults of {@link PageTypeOptions}. */
export const DEFAULT_PAGE_TYPE_OPTIONS: Readonly<PageTypeOptions> = {
  hubLinkRatio: 0.5,
  topicLinkRatio: 0.3,
  hubMaxPunctuation: 6,
  topicMinPunctuation: 20,
  hubMaxUrlLength: 12,
  topicMinUrlLength: 30,
};

// File names of listings: index pages, boards, categories, tags, archives, pagination, Weibo
// profiles and Tieba bars ("/f?kw="), Discuz! board lists.
const HUB_FILE =
  /^(index|default|home|main|list|lists|forum|forumdisplay|category|categories|tag|tags|archive|archives|channel|column|sitemap|map|page|node|f|profile|search|author|topics?)([-_.]?\d*)?(\.(s?html?|php|aspx?|jsp))?$/i;
// File names of single documents: numeric or hashed ids, dated names, article/thread/post words.
const TOPIC_FILE =
  /^(\d{3,}|[a-z]?\d+[-_]\d+([-_]\d+)*|[0-9a-f]{8,}|(article|thread|post|detail|content|show|view|viewthread|news|p)[-_]?\w*\d\w*)(\.(s?html?|php|aspx?|jsp))?$/i;
// Directory shapes of single documents: /p/123, /2024/05/01/…, /archives/123, ?p=123, mod=viewthread.
const TOPIC_PATH = /\/p\/\d+|\/(19|20)\d{2}[/-]\d{1,2}[/-]|\/archives\/\d+|[?&](p|tid|aid|id)=\d+|mod=viewthread|\/(article|thread|post|detail|status)\//i;

// Directory shapes of listings: a tag's or category's page (/tag/足球, /category/sports).
const HUB_PATH = /\/(tags?|category|categories|channel|column|board|topics)\/[^/]+\/?$/i;

/** The features the analyser votes on. */
export function pageTypeFeatures(page: ParsedPage): PageTypeFeatures {
  let urlLength = 0;
  let fileName = "";
  let pathAndQuery = "";
  let siteRoot = false;
  try {
    const u = new URL(page.url);
    pathAndQuery = decodeURIComponentSafe(u.pathname + u.search);
    urlLength = pathAndQuery.length;
    fileName = decodeURIComponentSafe(u.pathname.split("/").pop() ?? "");
    siteRoot = u.pathname === "/" && u.search === "";
  } catch {
    // A page always has a URL; an unparseable one simply casts no URL votes.
  }
  let fileHint: PageType | null = null;
  if (TOPIC_PATH.test(pathAndQuery) || (fileName !== "" && TOPIC_FILE.test(fileName))) fileHint = "topic";
  else if (fileName === "" || HUB_FILE.test(fileName) || HUB_PATH.test(pathAndQuery.split("?")[0] ?? "")) fileHint = "hub";
  return {
    punctuation: page.punctuation,
    urlLength,
    fileName,
    fileHint,
    siteRoot,
    linkTextRatio: page.textChars === 0 ? 0 : page.linkChars / page.textChars,
    links: page.links.length,
  };
}

/**
 * Hub or topic page. Votes: link-text ratio ±2 (the paper's strongest feature: a directory is
 * mostly link text), punctuation ±1 (articles are made of sentences), file name ±1, URL length ±1
 * (listings sit at short URLs, articles at long ones). A tie is a topic page, so a page we are
 * unsure about is judged by its text rather than followed blindly.
 *
 * One exception: a site's front page is a hub whatever its text. It is the site's directory by
 * definition, and a blog's front page full of excerpts would otherwise read as an article,
 * be held to the title-words rule, and lose its list of posts.
 */
export function analysePageType(page: ParsedPage, options: Partial<PageTypeOptions> = {}): PageTypeVerdict {
  const o = { ...DEFAULT_PAGE_TYPE_OPTIONS, ...options };
  const f = pageTypeFeatures(page);
  let score = 0;
  if (f.links === 0) return { type: "topic", score: -10, features: f };
  if (f.siteRoot) return { type: "hub", score: 10, features: f };
  if (f.linkTextRatio >= o.hubLinkRatio) score += 2;
  else if (f.linkTextRatio <= o.topicLinkRatio) score -= 2;
  if (f.punctuation <= o.hubMaxPunctuation) score += 1;
  else if (f.punctuation >= o.topicMinPunctuation) score -= 1;
  if (f.fileHint === "hub") score += 1;
  else if (f.fileHint === "topic") score -= 1;
  if (f.urlLength <= o.hubMaxUrlLength) score += 1;
  else if (f.urlLength >= o.topicMinUrlLength) score -= 1;
  return { type: score > 0 ? "hub" : "topic", score, features: f };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
