/**
 * robots.txt, parsed by the maintained `robots-parser` package and cached per origin. The cache is
 * tied to a HostScheduler (see {@link robotsCacheFor}) because both hold "what we know about a
 * host": fetchers that share a queue share robots rules, and a test that brings its own scheduler
 * starts with a clean slate.
 */
import robotsParser from "robots-parser";
import { ProxyError } from "./proxy-tunnel";

/** What we need from a parsed robots.txt. */
export interface RobotsRules {
  isAllowed(url: string, userAgent: string): boolean;
  /** Crawl-delay for this agent in ms, if the file sets one. */
  crawlDelayMs(userAgent: string): number | undefined;
}

/** The answer of the loader given to {@link RobotsCache.get}. */
export interface RobotsResponse {
  status: number;
  body: string;
}

/** RFC 9309 §2.4: a cached robots.txt should not be used for more than 24 hours. */
const ROBOTS_TTL_MS = 24 * 3_600_000;
/** After a server error we allow everything, but ask again sooner: the outage may hide real rules. */
const ROBOTS_ERROR_TTL_MS = 10 * 60_000;

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelayMs: () => undefined };

interface Entry {
  rules: Promise<RobotsRules>;
  expires: number;
}

type ParsedRobots = {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
};
const parseRobots: (url: string, contents: string) => ParsedRobots = robotsParser;

/** Parsed robots.txt per origin, fetched once and shared by concurrent callers. */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * Rules for `origin` (e.g. `https://bbs.example.edu.cn`). `load` fetches `<origin>/robots.txt`
   * (through the politeness queue); it is called at most once per origin per TTL even when many
   * requests ask at the same time. 4xx means no rules (allow all); 5xx or a network error also
   * allows, with a log line, and is asked again after a few minutes. A proxy failure is not the
   * site's answer: it is thrown (the request fails as a ProxyError) and nothing is cached.
   */
  get(origin: string, load: (robotsUrl: string) => Promise<RobotsResponse>, log: (message: string) => void): Promise<RobotsRules> {
    const now = Date.now();
    const cached = this.entries.get(origin);
    if (cached && cached.expires > now) return cached.rules;
    const robotsUrl = `${origin}/robots.txt`;
    const entry: Entry = { expires: now + ROBOTS_TTL_MS, rules: Promise.resolve(ALLOW_ALL) };
    entry.rules = load(robotsUrl).then(
      (res) => {
        if (res.status >= 200 && res.status < 300) return toRules(robotsUrl, res.body);
        if (res.status >= 500) {
          entry.expires = Date.now() + ROBOTS_ERROR_TTL_MS;
          log(`robots.txt at ${robotsUrl} answered HTTP ${res.status}; crawling as if allowed`);
        }
        // 4xx (including 401/403, per RFC 9309 §2.3.1.3): the site has no rules for us.
        return ALLOW_ALL;
      },
      (err: unknown) => {
        // A proxy failure says nothing about the site: never remember "allow all" for it (the
        // cache is shared by every account, some of which may reach the site another way).
        if (err instanceof ProxyError) {
          if (this.entries.get(origin) === entry) this.entries.delete(origin);
          throw err;
        }
        entry.expires = Date.now() + ROBOTS_ERROR_TTL_MS;
        log(`robots.txt at ${robotsUrl} could not be fetched (${err instanceof Error ? err.message : String(err)}); crawling as if allowed`);
        return ALLOW_ALL;
      },
    );
    this.entries.set(origin, entry);
    return entry.rules;
  }
}

function toRules(robotsUrl: string, body: string): RobotsRules {
  const parsed = parseRobots(robotsUrl, body);
  return {
    // undefined means the URL is not on this origin; the caller always asks with a matching origin.
    isAllowed: (url, ua) => parsed.isAllowed(url, ua) !== false,
    crawlDelayMs: (ua) => {
      const seconds = parsed.getCrawlDelay(ua);
      return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
    },
  };
}

const caches = new WeakMap<object, RobotsCache>();

/** The robots cache belonging to a scheduler (created on first use). */
export function robotsCacheFor(owner: object): RobotsCache {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new RobotsCache();
    caches.set(owner, cache);
  }
  return cache;
}
