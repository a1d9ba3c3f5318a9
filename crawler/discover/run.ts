/**
 * A discovery run's life, gathered under the path importers already use: create it (create.ts),
 * crawl it (crawl.ts: the loop; visit.ts: one page), revisit it (revisit.ts). persist.ts reads and
 * writes a run's stored state; session.ts holds what a crawl and a revisit share.
 */
export { createDiscoveryRun, type NewDiscoveryRun } from "./create";
export { runDiscovery, type DiscoverySummary, type StopReason } from "./crawl";
export { revisitDiscovery, type RevisitSummary } from "./revisit";
export { DiscoveryBusyError, systemClock, type Clock, type PageEvent, type RunDiscoveryOptions } from "./session";
export { contentCheckpoint } from "./visit";
