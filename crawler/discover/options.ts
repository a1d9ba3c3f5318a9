/**
 * A discovery run's options, stored as JSON on DiscoveryRun.options and validated with zod when
 * read back, so a run resumes with exactly the settings it started with.
 */
import { z } from "zod";
import { parseTrustedEntry, type AddressClass } from "../../lib/net/address";
import { DEFAULT_FOCUSED_OPTIONS, type FocusedOptions } from "./strategies";

/**
 * Link-text words that drop a link at once (method.md §5's sensitive-word set): gambling, porn
 * and fake-document spam, the usual bait of link farms and ads on Chinese pages. Not the topic's
 * own "sensitive words": those are words the monitor must FIND (a post about 跳楼 is exactly
 * what a campus-safety topic is for), while these are places a crawler must not go.
 */
export const DEFAULT_SENSITIVE_WORDS: readonly string[] = [
  "博彩",
  "赌场",
  "赌博",
  "六合彩",
  "时时彩",
  "百家乐",
  "色情",
  "成人视频",
  "代开发票",
  "办证",
  "私服",
  "外挂",
];

/** Options of a run. */
export interface DiscoveryOptions {
  /** Seed URLs (normalized), snapshotted when the run is created. */
  seeds: string[];
  /** Only crawl the seeds' sites. @default false */
  sameSite: boolean;
  /** Minimum gap between two requests to one host (a larger robots.txt Crawl-delay wins). @default 1000 */
  hostDelayMs: number;
  /** Crawl this long, then pause for {@link pauseMs} (method.md §5); 0: no windows. @default 0 */
  workMs: number;
  /** Length of the pause between work windows. @default 0 */
  pauseMs: number;
  /** Link-text words that drop a link. @default DEFAULT_SENSITIVE_WORDS */
  sensitiveWords: string[];
  /** Relevant pages an account or site needs to be proposed. @default 3 */
  candidateMinPages: number;
  /** Focused-strategy thresholds; missing values take {@link DEFAULT_FOCUSED_OPTIONS}. @default {} */
  focused: Partial<FocusedOptions>;
  /**
   * Hosts (`URL.host`, a URL, or a CIDR range) this run may reach on internal addresses besides
   * its seeds' hosts and `CAMPUSWATCH_TRUSTED_HOSTS`: every other link that resolves to a
   * loopback, private or otherwise non-public address is refused (crawler/fetch/address-policy.ts).
   * @default []
   */
  trustedHosts: string[];
  /**
   * The address class of each seed (by its URL in `seeds`) when it was registered
   * (./seed-class.ts): a seed registered on a public address is not trusted on an internal one.
   * A seed missing here is classified when a session starts. @default {}
   */
  seedClasses: Record<string, AddressClass>;
}

const nonNegative = z.number().finite().min(0);
const unit = z.number().finite().min(0).max(1);

const focusedSchema = z
  .object({
    pageType: z
      .object({
        hubLinkRatio: unit,
        topicLinkRatio: unit,
        hubMaxPunctuation: nonNegative,
        topicMinPunctuation: nonNegative,
        hubMaxUrlLength: nonNegative,
        topicMinUrlLength: nonNegative,
      })
      .partial(),
    blocks: z
      .object({
        minAvgAnchorBytes: nonNegative,
        minTitleWords: nonNegative,
        titleRuleMinTitleWords: nonNegative,
        titleRuleOn: z.enum(["topic", "all", "off"]),
        minOnSiteRatio: unit,
      })
      .partial(),
    blockThreshold: unit,
    linkThreshold: unit,
    weights: z.object({ body: nonNegative, anchor: nonNegative, url: nonNegative }).partial(),
    budget: z.boolean(),
  })
  .partial();

/** zod schema of {@link DiscoveryOptions} with defaults filled in. */
export const discoveryOptionsSchema = z.object({
  seeds: z.array(z.string()).default([]),
  sameSite: z.boolean().default(false),
  hostDelayMs: z.number().int().min(0).default(1000),
  workMs: z.number().int().min(0).default(0),
  pauseMs: z.number().int().min(0).default(0),
  sensitiveWords: z.array(z.string()).default([...DEFAULT_SENSITIVE_WORDS]),
  candidateMinPages: z.number().int().min(1).default(3),
  focused: focusedSchema.default({}),
  trustedHosts: z.array(z.string().refine(isTrustedEntry, { message: "not a host, host:port, URL or CIDR range" })).default([]),
  seedClasses: z.record(z.string(), z.enum(["public", "internal"])).default({}),
});

function isTrustedEntry(entry: string): boolean {
  try {
    parseTrustedEntry(entry);
    return true;
  } catch {
    return false;
  }
}

/** Read stored options (JSON text), filling defaults; throws on a damaged value. */
export function parseDiscoveryOptions(json: string | null | undefined): DiscoveryOptions {
  const raw: unknown = json ? JSON.parse(json) : {};
  const o = discoveryOptionsSchema.parse(raw);
  return { ...o, focused: o.focused as Partial<FocusedOptions> };
}

/** The focused options in force (stored values over the defaults), for display. */
export function effectiveFocusedOptions(o: Partial<FocusedOptions>): FocusedOptions {
  return {
    ...DEFAULT_FOCUSED_OPTIONS,
    ...o,
    pageType: { ...DEFAULT_FOCUSED_OPTIONS.pageType, ...o.pageType },
    blocks: { ...DEFAULT_FOCUSED_OPTIONS.blocks, ...o.blocks },
    weights: { ...DEFAULT_FOCUSED_OPTIONS.weights, ...o.weights },
  };
}
