/**
 * One page of a discovery run: fetch it, judge it, split it and filter its links (method.md §3's
 * analyser → splitter → page filter → URL parser → URL filter), and apply the outcome to the
 * frontier in memory. Writing to the database is the loop's business (persist.ts), so a page is
 * applied whole or not at all.
 */
import crypto from "node:crypto";
import { cleanText } from "../classify";
import { FatalError } from "../errors";
import { AddressRefusedError } from "../fetch";
import type { Fetcher, FetchResult } from "../types";
import type { FrontierEntry } from "./frontier";
import { parsePage } from "./page";
import { analysePageType, type PageType } from "./page-type";
import { observeStored } from "./persist";
import { contentWords } from "./relevance";
import { errorMessage, type Session } from "./session";
import { commonFilter, mergeByUrl, type LinkVerdict, type PageView, type StrategyContext } from "./strategies";
import { normalizeUrl } from "./url";

/** Pages whose non-link text is shorter than this are judged on all their text (a hub's text is its links). */
const MIN_CONTENT_CHARS = 80;

/** The checkpoint of a page's content (method.md §4): MD5 and length of its cleaned text. */
export function contentCheckpoint(title: string, text: string): { checksum: string; length: number } {
  const cleaned = cleanText(`${title}\n${text}`);
  return { checksum: crypto.createHash("md5").update(cleaned).digest("hex"), length: cleaned.length };
}

/** True when the response is an HTML page (an untyped body that starts with a tag counts). */
export function isHtml(res: FetchResult): boolean {
  const type = res.contentType.toLowerCase();
  if (type.includes("html")) return true;
  return type === "" && /^\s*</.test(res.body);
}

/** The parts of a page visit shared by the crawl and by revisits. */
export interface Examined {
  view: PageView;
  verdicts: LinkVerdict[];
  checksum: string;
  length: number;
  finalUrl: string;
}

/** Parse, judge and type a fetched page, and decide on each of its links; touches nothing. */
export function examine(s: Session, entry: FrontierEntry, res: FetchResult): Examined {
  const finalUrl = normalizeUrl(res.url) ?? entry.url;
  const page = parsePage(res.body, finalUrl);
  const body = page.contentText.length >= MIN_CONTENT_CHARS ? page.contentText : page.text;
  const judgement = s.judge.judge(`${page.title}\n${body}`);
  const pageType = analysePageType(page, s.options.focused.pageType);
  const view: PageView = { url: finalUrl, layer: entry.layer, page, judgement, pageType };
  const ctx: StrategyContext = { judge: s.judge, urlEvidence: s.state.evidence, words: contentWords };
  const { candidates, rejected } = commonFilter(view, { sensitive: s.sensitive, sites: s.sites });
  const verdicts = mergeByUrl([...rejected, ...s.strategy.expand(view, candidates, ctx)]);
  const { checksum, length } = contentCheckpoint(page.title, page.text);
  return { view, verdicts, checksum, length, finalUrl };
}

/** The HTTP validators a later revisit sends back in a conditional GET. */
export function validatorsOf(res: FetchResult): { etag: string | null; lastModified: string | null } {
  return { etag: res.headers["etag"] ?? null, lastModified: res.headers["last-modified"] ?? null };
}

/** What crawling one page did, for the run's counters and its page event. */
export interface CrawledPage {
  /** The page counts as relevant (a duplicate never does). */
  relevant: boolean;
  score: number;
  pageType: PageType;
  /** Links queued (new, raised or revived). */
  queued: number;
  /** Links rejected. */
  rejected: number;
}

/**
 * Crawl one frontier entry and apply the outcome to the session's state in memory. Returns null
 * when the URL gave no page (unreachable, refused, not HTML): the entry is marked irrelevant and
 * does not count as crawled.
 * @throws FatalError, which fails the run (any other fetch error only marks the URL).
 */
export async function crawlPage(s: Session, fetcher: Fetcher, entry: FrontierEntry, log: (message: string) => void): Promise<CrawledPage | null> {
  const { frontier, evidence, tally, checksums } = s.state;
  let res: FetchResult;
  try {
    res = await fetcher.get(entry.url, { kind: "other" });
  } catch (e) {
    if (e instanceof FatalError) throw e;
    // Unreachable (method.md §4), or refused as internal. fetchedAt marks the attempt, so no later link revives it.
    const reason = e instanceof AddressRefusedError ? e.message : `unreachable: ${errorMessage(e)}`;
    frontier.update(entry, { state: "irrelevant", reason, fetchedAt: new Date() });
    log(`  ${entry.url}: ${errorMessage(e)}`);
    return null;
  }
  if (!isHtml(res)) {
    frontier.update(entry, { state: "irrelevant", reason: `not an HTML page (${res.contentType || "no content type"})`, fetchedAt: new Date() });
    return null;
  }

  const now = new Date();
  const ex = examine(s, entry, res);
  const dup = checksums.get(ex.checksum);
  const validators = validatorsOf(res);
  let queued = 0;
  let rejected = 0;
  let relevant = ex.view.judgement.relevant;
  if (dup !== undefined && dup !== entry.url) {
    // The same content under another URL (method.md §2): crawled, but nothing new to follow.
    relevant = false;
    frontier.update(entry, {
      state: "irrelevant",
      reason: `duplicate of ${dup}`,
      pageType: ex.view.pageType.type,
      relevance: ex.view.judgement.score,
      relevant: false,
      checksum: ex.checksum,
      contentLength: ex.length,
      fetchedAt: now,
      changedAt: now,
      ...validators,
    });
  } else {
    for (const v of ex.verdicts) {
      const outcome = frontier.offer(v, entry.layer);
      if (outcome === "added" || outcome === "raised" || outcome === "revived") queued++;
      else if (!v.accepted) rejected++;
    }
    const state = s.strategy.pageState(ex.view);
    frontier.update(entry, {
      state,
      reason: state === "irrelevant" ? `off-topic page (score ${ex.view.judgement.score.toFixed(3)})` : null,
      pageType: ex.view.pageType.type,
      relevance: ex.view.judgement.score,
      relevant,
      checksum: ex.checksum,
      contentLength: ex.length,
      fetchedAt: now,
      changedAt: now,
      ...validators,
    });
    if (ex.finalUrl !== entry.url) frontier.alias(ex.finalUrl, entry, `reached by a redirect from ${entry.url}`);
  }
  observeStored(entry, evidence, tally, checksums);
  return { relevant, score: ex.view.judgement.score, pageType: ex.view.pageType.type, queued, rejected };
}
