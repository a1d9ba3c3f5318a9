/**
 * The jobs layer: every kind of background work — crawl an account, run or resume discovery,
 * train a topic, re-score a topic, send pending notifications — as one typed union with one
 * handler per kind, run by the in-process queue on SQLite and by pg-boss workers on PostgreSQL.
 * The dashboard and the CLI only ask ({@link requestJob}) and read progress from rows.
 */
export * from "./types";
export { requestJob, getJob, latestJob, activeJob, cancelQueuedJob, listJobs, toJobView, type RequestOptions, type RequestResult } from "./requests";
export {
  jobHandlers,
  crawlHandler,
  isSkipped,
  discoverWork,
  catchUpWork,
  type JobContext,
  type JobHandlers,
  type CrawlSkipped,
  type CrawlHandlerOptions,
} from "./handlers";
export {
  createJobRunner,
  reapDeadJobs,
  processOwner,
  type JobRunner,
  type JobRunnerOptions,
  type ReapOptions,
  type JobWork,
  type RunHereOptions,
  type RunHereResult,
} from "./runner";
export { dispatchQueuedJobs, forgetDispatches, type DispatchOptions } from "./dispatch";
export { requestDailyRetrains } from "./daily";
export { requestCatchUp, requestArchivePrune, requestIncidentCheck } from "./housekeeping";
