/**
 * The jobs layer's vocabulary: every kind of background work CampusWatch does, as one typed union.
 *
 * Crawls are jobs like the others but keep their own record (CrawlRun, one per crawl, with
 * counts, errors and warnings), so a crawl job carries just the account. Every other kind has a
 * row in the Job table: the dashboard and the CLI insert it, a worker claims it, and its progress
 * and outcome are written on it. Both kinds travel through the same queue (in-process on SQLite,
 * pg-boss on PostgreSQL) and are run by one handler per kind (./handlers.ts).
 */
import { z } from "zod";

/** A crawl of one account, and why it runs. */
export interface CrawlJob {
  accountId: number;
  trigger: "schedule" | "manual" | "cli";
}

/** The parameters of each kind of job with a row, as stored in `Job.payload`. */
export const jobSpecSchema = z.discriminatedUnion("kind", [
  /**
   * Run (or resume) a discovery run. `force` takes over a run a dead process left "running";
   * `revisit` re-checks the run's crawled pages instead (conditional GET, `discover --revisit`).
   */
  z.object({ kind: z.literal("discover"), runId: z.number().int().positive(), force: z.boolean().optional(), revisit: z.boolean().optional() }),
  /** Train a topic's model from its samples and reviews. */
  z.object({ kind: z.literal("train"), topicId: z.number().int().positive() }),
  /** Score a topic's stored posts again with its current model. */
  z.object({ kind: z.literal("rescore"), topicId: z.number().int().positive() }),
  /**
   * Fold a topic's new review samples into its model (a full retrain every CAMPUSWATCH_RETRAIN_EVERY
   * of them) and score its open flags again; asked for by every review.
   */
  z.object({ kind: z.literal("learn"), topicId: z.number().int().positive(), full: z.boolean().optional() }),
  /** Send notifications waiting to go out ("pending"), these ones or all of them. */
  z.object({ kind: z.literal("notify"), notificationIds: z.array(z.number().int().positive()).max(1000).optional() }),
  /** Make and send the notifications of what one crawl run found (its new flags, an expired login). */
  z.object({ kind: z.literal("notifyRun"), crawlRunId: z.number().int().positive() }),
  /**
   * Classify the posts killed or failed runs left in UnclassifiedPost, those queued before
   * `queuedBefore` (ISO time): what crawls queue later they classify themselves. Asked for when a
   * scheduler or a worker starts.
   */
  z.object({ kind: z.literal("catchUp"), queuedBefore: z.string().datetime() }),
  /** Apply the raw archive's retention (age, total size) to this machine's archive folder. */
  z.object({ kind: z.literal("pruneArchive") }),
  /**
   * Draw the screenshots of the raw pages of the posts a crawl run flagged (crawler/evidence), for
   * their evidence packages: after the run, so the crawl never waits for Chromium.
   */
  z.object({ kind: z.literal("evidenceShots"), crawlRunId: z.number().int().positive() }),
  /**
   * The periodic incident check (crawler/incidents/alerts.ts incidentsTick): heat of live incidents
   * (it decays when nothing happens), alerts and updates due, and messages whose quiet hours ended.
   */
  z.object({ kind: z.literal("incidents") }),
  /**
   * Make the daily or weekly report (日报/周报) whose last day is `date` (Asia/Shanghai) and e-mail it
   * to the recipients of the report settings (lib/report-schedule.ts). Asked for by the scheduler
   * at the configured times (./reports.ts).
   */
  z.object({
    kind: z.literal("report"),
    period: z.enum(["day", "week"]),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  }),
]);

/** A job with a row in the Job table. */
export type JobSpec = z.infer<typeof jobSpecSchema>;
/** Every kind of job with a row. */
export type JobKind = JobSpec["kind"];

/** Every kind of job with a row, in the order `jobs list --kind` names them. */
export const JOB_KINDS = [
  "discover",
  "train",
  "rescore",
  "learn",
  "notify",
  "notifyRun",
  "catchUp",
  "pruneArchive",
  "evidenceShots",
  "incidents",
  "report",
] as const satisfies readonly JobKind[];
// Compile-time: every kind of the union is listed above.
const allKinds: [Exclude<JobKind, (typeof JOB_KINDS)[number]>] extends [never] ? true : false = true;
void allKinds;
/** Every kind of background work. */
export type AnyJobKind = JobKind | "crawl";

/** What the queues carry: a crawl, or a reference to a Job row. */
export type QueueItem = CrawlJob | { jobId: number; kind: JobKind };

/** True for a crawl; the other items name a Job row. */
export function isCrawl(item: QueueItem): item is CrawlJob {
  return "accountId" in item;
}

/** The key the queues deduplicate on: one account crawled at a time, one run of each Job row. */
export function queueKey(item: QueueItem): string {
  return isCrawl(item) ? `account:${item.accountId}` : `job:${item.jobId}`;
}

/**
 * The key a job's row is known by: at most one queued or running job per key (a partial unique
 * index). Training, re-scoring and learning of one topic share a key: they write the same model
 * and flags. A review while one of them is queued finds it and adds nothing: a queued learn job
 * reads the samples when it starts, and a running one looks again before it ends.
 */
export function jobKey(spec: JobSpec): string {
  switch (spec.kind) {
    case "discover":
      return `discover:${spec.runId}`;
    case "train":
    case "rescore":
    case "learn":
      return `topic:${spec.topicId}`;
    case "notify":
      return spec.notificationIds?.length === 1 ? `notify:${spec.notificationIds[0]}` : `notify:${spec.notificationIds?.join(",") ?? "pending"}`;
    case "notifyRun":
      return `notify:run:${spec.crawlRunId}`;
    case "catchUp":
      // One catch-up at a time: a second would classify the same posts.
      return "classify:pending";
    case "pruneArchive":
      return "archive:prune";
    case "evidenceShots":
      return `evidence:run:${spec.crawlRunId}`;
    case "incidents":
      return "incidents:tick";
    case "report":
      return `report:${spec.period}:${spec.date}`;
  }
}

/** Progress of a running job, written on its row: English for the CLI, a step code for the dashboard. */
export interface JobProgress {
  message: string;
  /** A message key the dashboard says in the reader's language, with `values`. */
  step?: string;
  values?: Record<string, string | number>;
  done?: number;
  total?: number;
}

/** A job's outcome: `step` is a result code when done, an error code when failed (may be absent). */
export interface JobOutcome {
  message: string;
  step?: string;
  values?: Record<string, string | number>;
}

/** The states of a Job row. */
export type JobStatus = "queued" | "running" | "done" | "failed" | "cancelled";

/** A Job row as the dashboard and the CLI read it (JSON columns parsed). */
export interface JobView {
  id: number;
  kind: JobKind;
  key: string;
  spec: JobSpec;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  progress: JobProgress | null;
  result: JobOutcome | null;
  error: string | null;
  /** The dashboard user who asked; null when the CLI or the scheduler did. */
  requestedBy: number | null;
  /** The process running it (host:pid:random, or a PostgreSQL worker's id), while it runs and after. */
  owner: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}
