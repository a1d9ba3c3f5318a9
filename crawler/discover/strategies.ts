/**
 * The three crawl strategies. They share fetching, politeness, the page classifier and the
 * common link filters (sensitive words, same-site, nofollow), and differ only in which links of a
 * page they accept and with what priority:
 *
 * - `bfs`: every link, priority 0, so the frontier is FIFO by discovery order.
 * - `best-first`: every link, priority = the relevance of the page it was found on (the classic
 *   baseline: no link blocks, no page types).
 * - `focused`: the full method — page types (hubs followed, topic pages only when relevant), link
 *   blocks (rules, then the classifier on joined anchors), the weighted relevance of body, anchor
 *   and URL as priority, and the 255/L link budget.
 */
import { normalizeWord, type WordMatcher } from "../classify";
import { applyLinkBudget, blockAnchorText, blockRuleFailure, DEFAULT_BLOCK_RULES, measureBlock, type BlockRuleOptions } from "./link-blocks";
import type { PageLink, ParsedPage } from "./page";
import { DEFAULT_PAGE_TYPE_OPTIONS, type PageTypeOptions, type PageTypeVerdict } from "./page-type";
import {
  DEFAULT_RELEVANCE_WEIGHTS,
  urlWords,
  weightedRelevance,
  type RelevanceWeights,
  type TopicJudge,
  type TopicJudgement,
  type UrlEvidence,
} from "./relevance";
import { onSites } from "./url";

/** Strategy names, as stored on a run. */
export type StrategyName = "focused" | "best-first" | "bfs";
/** Every strategy, in the order reports list them. */
export const STRATEGIES: readonly StrategyName[] = ["bfs", "best-first", "focused"] as const;

/** Options of the focused strategy. */
export interface FocusedOptions {
  /** Page-type analyser thresholds. @default DEFAULT_PAGE_TYPE_OPTIONS */
  pageType: Partial<PageTypeOptions>;
  /** Block rule thresholds (pass 1). @default DEFAULT_BLOCK_RULES */
  blocks: Partial<BlockRuleOptions>;
  /** Pass 2: a block whose joined anchors score below this is dropped whole. @default 0.3 */
  blockThreshold: number;
  /** A link whose weighted relevance R is below this is not crawled. @default 0.25 */
  linkThreshold: number;
  /** Weights of body, anchor and URL in R. @default DEFAULT_RELEVANCE_WEIGHTS */
  weights: RelevanceWeights;
  /** Apply the 255/L link budget. @default true */
  budget: boolean;
}

/** Defaults of {@link FocusedOptions}. */
export const DEFAULT_FOCUSED_OPTIONS: Readonly<FocusedOptions> = {
  pageType: DEFAULT_PAGE_TYPE_OPTIONS,
  blocks: DEFAULT_BLOCK_RULES,
  blockThreshold: 0.3,
  linkThreshold: 0.25,
  weights: DEFAULT_RELEVANCE_WEIGHTS,
  budget: true,
};

/** A fetched, parsed and judged page, as a strategy sees it. */
export interface PageView {
  url: string;
  /** Seeds are on layer 0; a link found on layer L is on layer L + 1. */
  layer: number;
  page: ParsedPage;
  judgement: TopicJudgement;
  pageType: PageTypeVerdict;
}

/** What a strategy decided about one link target (one verdict per distinct URL of a page). */
export interface LinkVerdict {
  url: string;
  anchor: string;
  /** Order of the link on the page (first occurrence). */
  order: number;
  accepted: boolean;
  /** Frontier priority (higher first); meaningful when accepted. */
  priority: number;
  /** Why it was rejected (or, when accepted, a short note on its score). */
  reason: string;
}

/** What strategies are given besides the page. */
export interface StrategyContext {
  judge: TopicJudge;
  urlEvidence: UrlEvidence;
  /** Content words of a text (the block rules' title test). */
  words: (text: string) => ReadonlySet<string>;
}

/** Filters every strategy applies before its own choice. */
export interface CommonFilterOptions {
  /** Link text containing any of these words is dropped (method.md §5). */
  sensitive: WordMatcher;
  /** When set, links off these sites are dropped (the same-site option). */
  sites: ReadonlySet<string> | null;
}

/**
 * The links of a page every strategy may consider, and verdicts for those none may: a page that
 * says nofollow, self-links, sensitive words in the anchor, other sites under same-site.
 */
export function commonFilter(view: PageView, options: CommonFilterOptions): { candidates: PageLink[]; rejected: LinkVerdict[] } {
  const candidates: PageLink[] = [];
  const rejected: LinkVerdict[] = [];
  if (view.page.nofollow) return { candidates, rejected };
  for (const l of view.page.links) {
    if (l.url === view.url) continue;
    const reject = (reason: string) => rejected.push({ url: l.url, anchor: l.anchor, order: l.order, accepted: false, priority: 0, reason });
    const hit = options.sensitive.size > 0 ? options.sensitive.findAll(normalizeWord(l.anchor))[0] : undefined;
    if (hit) reject(`sensitive word "${hit.word}" in the link text`);
    else if (options.sites && !onSites(l.url, options.sites)) reject("off the seeds' sites");
    else candidates.push(l);
  }
  return { candidates, rejected };
}

/** A strategy: which candidate links of a page to crawl, and how urgently. */
export interface Strategy {
  readonly name: StrategyName;
  /** Verdicts for `candidates` (links of `view.page` that passed {@link commonFilter}). */
  expand(view: PageView, candidates: readonly PageLink[], ctx: StrategyContext): LinkVerdict[];
  /**
   * The frontier state of a fetched page: "done" when it was worth fetching for this strategy
   * (relevant, or a hub whose links focused follows), "irrelevant" otherwise.
   */
  pageState(view: PageView): "done" | "irrelevant";
}

/** Priority of the seeds: above anything a link can score, so every strategy starts from them. */
export const SEED_PRIORITY = 1;

const relevanceState = (view: PageView): "done" | "irrelevant" => (view.judgement.relevant ? "done" : "irrelevant");

/** Breadth-first: all links, FIFO. */
export const bfsStrategy: Strategy = {
  name: "bfs",
  expand: (_view, candidates) => candidates.map((l) => ({ url: l.url, anchor: l.anchor, order: l.order, accepted: true, priority: 0, reason: "" })),
  pageState: relevanceState,
};

/** Best-first: all links, each with the relevance of the page it was found on. */
export const bestFirstStrategy: Strategy = {
  name: "best-first",
  expand: (view, candidates) =>
    candidates.map((l) => ({ url: l.url, anchor: l.anchor, order: l.order, accepted: true, priority: view.judgement.score, reason: "" })),
  pageState: relevanceState,
};

/** The focused strategy with `options` over {@link DEFAULT_FOCUSED_OPTIONS}. */
export function focusedStrategy(options: Partial<FocusedOptions> = {}): Strategy {
  const o: FocusedOptions = {
    ...DEFAULT_FOCUSED_OPTIONS,
    ...options,
    blocks: { ...DEFAULT_FOCUSED_OPTIONS.blocks, ...options.blocks },
    pageType: { ...DEFAULT_FOCUSED_OPTIONS.pageType, ...options.pageType },
    weights: { ...DEFAULT_FOCUSED_OPTIONS.weights, ...options.weights },
  };
  return {
    name: "focused",
    pageState: (view) => (view.pageType.type === "hub" || view.judgement.relevant ? "done" : "irrelevant"),
    expand(view, candidates, ctx) {
      const reject = (l: PageLink, reason: string): LinkVerdict => ({ url: l.url, anchor: l.anchor, order: l.order, accepted: false, priority: 0, reason });
      // Topic pages are judged first: an off-topic article's links lead away from the topic.
      if (view.pageType.type === "topic" && !view.judgement.relevant) {
        return candidates.map((l) => reject(l, "found on an off-topic page"));
      }
      const allowed = new Set(candidates);
      const titleWords = ctx.words(view.page.title);
      const verdicts: LinkVerdict[] = [];
      for (const block of view.page.blocks) {
        const mine = block.links.filter((l) => allowed.has(l));
        if (mine.length === 0) continue;
        // The rules measure the block as the page shows it, links filtered out above included.
        const m = measureBlock(block, view.url, titleWords, ctx.words);
        const failed = blockRuleFailure(m, { pageType: view.pageType.type, titleWordCount: titleWords.size }, o.blocks);
        if (failed) {
          const detail =
            failed === "anchor-length"
              ? `average anchor ${m.avgAnchorBytes.toFixed(1)} bytes`
              : failed === "title-words"
                ? `${m.titleWords} content words shared with the title`
                : `on-site ratio ${m.onSiteRatio.toFixed(2)}`;
          for (const l of mine) verdicts.push(reject(l, `block ${block.label}: rule ${failed} (${detail})`));
          continue;
        }
        const blockScore = ctx.judge.score(blockAnchorText(block));
        if (blockScore < o.blockThreshold) {
          for (const l of mine) verdicts.push(reject(l, `block ${block.label}: classifier ${blockScore.toFixed(3)} < ${o.blockThreshold}`));
          continue;
        }
        // C1 is the text around the link: an article's body, or on a hub (whose "body" is its
        // lists) the block the link sits in.
        const body = view.pageType.type === "hub" ? blockScore : view.judgement.score;
        for (const l of mine) {
          const anchor = l.anchor === "" ? blockScore : ctx.judge.score(l.anchor);
          const learned = ctx.urlEvidence.estimate(l.url);
          const words = urlWords(l.url);
          const url = words ? (learned + ctx.judge.score(words)) / 2 : learned;
          const r = weightedRelevance({ body, anchor, url }, o.weights);
          if (r < o.linkThreshold) verdicts.push(reject(l, `relevance ${r.toFixed(3)} < ${o.linkThreshold}`));
          else
            verdicts.push({
              url: l.url,
              anchor: l.anchor,
              order: l.order,
              accepted: true,
              priority: r,
              reason: `R ${r.toFixed(3)} (body ${body.toFixed(2)}, anchor ${anchor.toFixed(2)}, url ${url.toFixed(2)})`,
            });
        }
      }
      const merged = mergeByUrl(verdicts);
      if (!o.budget) return merged;
      const accepted = merged.filter((v) => v.accepted);
      const { dropped } = applyLinkBudget(accepted, view.layer, (v) => v.priority);
      const over = new Set(dropped);
      return merged.map((v) => (over.has(v) ? { ...v, accepted: false, priority: 0, reason: `over the 255/L budget of layer ${view.layer}` } : v));
    },
  };
}

/** One verdict per URL: the best accepted one, else the first rejection; in document order. */
export function mergeByUrl(verdicts: readonly LinkVerdict[]): LinkVerdict[] {
  const best = new Map<string, LinkVerdict>();
  for (const v of verdicts) {
    const prev = best.get(v.url);
    if (!prev) best.set(v.url, v);
    else if (v.accepted && (!prev.accepted || v.priority > prev.priority)) best.set(v.url, { ...v, order: Math.min(v.order, prev.order) });
    else if (v.order < prev.order) best.set(v.url, { ...prev, order: v.order });
  }
  return [...best.values()].sort((a, b) => a.order - b.order);
}

/** The strategy of a run. */
export function strategyFor(name: StrategyName, focused: Partial<FocusedOptions> = {}): Strategy {
  if (name === "bfs") return bfsStrategy;
  if (name === "best-first") return bestFirstStrategy;
  return focusedStrategy(focused);
}
