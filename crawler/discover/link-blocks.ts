/**
 * Link prediction over link blocks (method.md §3) and the depth-halving link budget (§5).
 *
 * Pass 1, block rules: a block is irrelevant when its average anchor text is shorter than 10
 * bytes (menus, pagers, "更多»"), when its anchors share too few content words with the page's
 * title, or when too few of its links stay on the page's site (ads, friends' links, link farms).
 * Pass 2: the anchor texts of a surviving block, joined, are scored by the topic classifier and
 * the whole block is dropped under a threshold. Every threshold is an option.
 */
import type { LinkBlock, PageLink } from "./page";
import { siteOf } from "./url";

/** Thresholds of the block rules. */
export interface BlockRuleOptions {
  /**
   * Shortest average anchor text of a kept block, in bytes of GB2312 (the paper's encoding: a
   * Chinese character is 2 bytes, ASCII 1), so 10 bytes is five Chinese characters. @default 10
   */
  minAvgAnchorBytes: number;
  /** Fewest distinct content words the block's anchors must share with the page title. @default 1 */
  minTitleWords: number;
  /**
   * The title test is skipped when the title has fewer content words than this: a title like
   * "首页" says nothing about what a block should share with it. @default 2
   */
  titleRuleMinTitleWords: number;
  /**
   * Pages whose blocks the title test applies to. A hub's title names a section or a site, not
   * what its lists are about, so by default only articles' blocks are held to their title.
   * @default "topic"
   */
  titleRuleOn: "topic" | "all" | "off";
  /** Smallest share of a block's links that stay on the page's site. @default 0.6 */
  minOnSiteRatio: number;
}

/** Defaults of {@link BlockRuleOptions} (the paper's values where it gives them: 10 bytes, 0.6). */
export const DEFAULT_BLOCK_RULES: Readonly<BlockRuleOptions> = {
  minAvgAnchorBytes: 10,
  minTitleWords: 1,
  titleRuleMinTitleWords: 2,
  titleRuleOn: "topic",
  minOnSiteRatio: 0.6,
};

/** The rule that rejected a block. */
export type BlockRule = "anchor-length" | "title-words" | "on-site";

/** What the rules measured on a block. */
export interface BlockMeasures {
  links: number;
  avgAnchorBytes: number;
  /** Distinct content words shared by the joined anchors and the title. */
  titleWords: number;
  /** Links on the page's site / all links of the block. */
  onSiteRatio: number;
}

/** Length of a text in GB2312 bytes: 2 per non-ASCII character, 1 per ASCII one. */
export function gbBytes(text: string): number {
  let n = 0;
  for (const ch of text) n += ch.charCodeAt(0) < 0x80 ? 1 : 2;
  return n;
}

/** The anchors of a block joined into one text (pass 2 scores it as a whole). */
export function blockAnchorText(block: LinkBlock): string {
  return block.links
    .map((l) => l.anchor)
    .filter((a) => a !== "")
    .join("\n");
}

/**
 * Measure a block. `titleWords` are the title's content words; `words(text)` gives a text's
 * content words (injected so this module stays free of the segmenter, and tests can pass a
 * simple splitter).
 */
export function measureBlock(block: LinkBlock, pageUrl: string, titleWords: ReadonlySet<string>, words: (text: string) => ReadonlySet<string>): BlockMeasures {
  const n = block.links.length;
  let bytes = 0;
  let onSite = 0;
  const site = siteOf(pageUrl);
  for (const l of block.links) {
    bytes += gbBytes(l.anchor);
    if (siteOf(l.url) === site) onSite++;
  }
  let shared = 0;
  if (titleWords.size > 0) {
    for (const w of words(blockAnchorText(block))) if (titleWords.has(w)) shared++;
  }
  return { links: n, avgAnchorBytes: n === 0 ? 0 : bytes / n, titleWords: shared, onSiteRatio: n === 0 ? 0 : onSite / n };
}

/**
 * Pass 1: the first rule a block fails, or null when it passes. Rules in the paper's order:
 * anchor length, title words, on-site ratio.
 */
export function blockRuleFailure(
  m: BlockMeasures,
  context: { pageType: "hub" | "topic"; titleWordCount: number },
  options: Partial<BlockRuleOptions> = {},
): BlockRule | null {
  const o = { ...DEFAULT_BLOCK_RULES, ...options };
  if (m.avgAnchorBytes < o.minAvgAnchorBytes) return "anchor-length";
  const titleRuleApplies =
    o.titleRuleOn !== "off" && (o.titleRuleOn === "all" || context.pageType === "topic") && context.titleWordCount >= o.titleRuleMinTitleWords;
  if (titleRuleApplies && m.titleWords < o.minTitleWords) return "title-words";
  if (m.onSiteRatio < o.minOnSiteRatio) return "on-site";
  return null;
}

/**
 * The link budget of a page on layer `layer` (method.md §5): all links on layer 0 (the seeds),
 * else at most ⌊255 / L⌋.
 */
export function linkBudget(layer: number): number {
  return layer <= 0 ? Infinity : Math.floor(255 / layer);
}

/**
 * Keep at most {@link linkBudget}(layer) of `links`, the most topic-similar ones (highest
 * `similarity`; ties keep document order, so the choice is deterministic). Returns the kept and
 * the dropped links, each in their original order.
 */
export function applyLinkBudget<T extends Pick<PageLink, "order">>(
  links: readonly T[],
  layer: number,
  similarity: (link: T) => number,
): { kept: T[]; dropped: T[] } {
  const budget = linkBudget(layer);
  if (links.length <= budget) return { kept: [...links], dropped: [] };
  const ranked = links.map((l) => ({ l, s: similarity(l) })).sort((a, b) => b.s - a.s || a.l.order - b.l.order);
  const keep = new Set(ranked.slice(0, budget).map((r) => r.l));
  return { kept: links.filter((l) => keep.has(l)), dropped: links.filter((l) => !keep.has(l)) };
}
