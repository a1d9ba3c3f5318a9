/**
 * Topic discovery: a focused crawl from seed URLs that finds pages and sites on a topic
 * (method.md §2–§5). Import from here; the other files are internal.
 *
 * @example
 * const run = await createDiscoveryRun(db, { topic: "体育", seeds: { seedSet: "portals" }, strategy: "focused", maxPages: 2000 });
 * const summary = await runDiscovery(db, run.id, { onPage: (e) => console.log(e.crawled, e.relevantSoFar) });
 */
export {
  createDiscoveryRun,
  runDiscovery,
  revisitDiscovery,
  contentCheckpoint,
  systemClock,
  DiscoveryBusyError,
  type Clock,
  type DiscoverySummary,
  type NewDiscoveryRun,
  type PageEvent,
  type RevisitSummary,
  type RunDiscoveryOptions,
  type StopReason,
} from "./run";
export { DEFAULT_SENSITIVE_WORDS, parseDiscoveryOptions, effectiveFocusedOptions, discoveryOptionsSchema, type DiscoveryOptions } from "./options";
export {
  STRATEGIES,
  DEFAULT_FOCUSED_OPTIONS,
  strategyFor,
  focusedStrategy,
  bfsStrategy,
  bestFirstStrategy,
  commonFilter,
  mergeByUrl,
  type FocusedOptions,
  type LinkVerdict,
  type PageView,
  type Strategy,
  type StrategyContext,
  type StrategyName,
} from "./strategies";
export { Frontier, loadFrontierEntries, type FrontierEntry, type FrontierState, type OfferOutcome } from "./frontier";
export { parsePage, type LinkBlock, type PageLink, type ParsedPage } from "./page";
export {
  analysePageType,
  pageTypeFeatures,
  DEFAULT_PAGE_TYPE_OPTIONS,
  type PageType,
  type PageTypeFeatures,
  type PageTypeOptions,
  type PageTypeVerdict,
} from "./page-type";
export {
  applyLinkBudget,
  blockAnchorText,
  blockRuleFailure,
  gbBytes,
  linkBudget,
  measureBlock,
  DEFAULT_BLOCK_RULES,
  type BlockMeasures,
  type BlockRule,
  type BlockRuleOptions,
} from "./link-blocks";
export {
  contentWords,
  keywordJudge,
  loadTopicJudge,
  modelJudge,
  urlWords,
  weightedRelevance,
  UrlEvidence,
  DEFAULT_RELEVANCE_WEIGHTS,
  type DiscoveryTopic,
  type ModelJudgeOptions,
  type RelevanceWeights,
  type TopicJudge,
  type TopicJudgement,
} from "./relevance";
export { candidateKeyOf, CandidateTally, type CandidateKey, type CandidateOptions, type CandidateRow } from "./candidates";
export {
  harvestAt,
  harvestReport,
  toHarvestChart,
  REPORT_PAGE_COUNTS,
  type HarvestChartRow,
  type HarvestCurve,
  type HarvestRow,
  type HarvestSample,
} from "./metrics";
export { normalizeUrl, siteOf, onSites } from "./url";
export { failDiscoveryRunRow, markCandidateAdopted, pauseDiscoveryRunRow, queueDiscoveryRunRow, setDiscoveryRunMaxPages } from "./rows";
