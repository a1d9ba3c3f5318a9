/**
 * Running a job with a row: claim it, keep a heartbeat on it, write its progress, write the
 * outcome. Whoever runs jobs (the in-process queue on SQLite, a pg-boss worker on PostgreSQL, the
 * CLI running its own job: `runHere`) goes through {@link createJobRunner}, so every kind is claimed,
 * watched and finished the same way.
 *
 * A process killed mid-job leaves its row "running" with a heartbeat that stops moving.
 * {@link reapDeadJobs} (run by every scheduler and worker) queues such a job again, or, after its
 * last attempt, fails it saying which process stopped and when.
 */
import os from "node:os";
import crypto from "node:crypto";
import type { Db } from "../../lib/db";
import { failDiscoveryRunRow } from "../discover";
import { reasonOf } from "../runs";
import { afterJobFinished, jobHandlers, type JobContext, type JobHandlers } from "./handlers";
import { parseSpecOrNull, requestJob, toJobView } from "./requests";
import type { JobOutcome, JobProgress, JobSpec, JobView } from "./types";

/** Options of {@link createJobRunner}. */
export interface JobRunnerOptions {
  db: Db;
  /** Who runs: written on claimed rows. @default "host:pid:random" */
  owner?: string;
  /** How often a running job's heartbeat is written. @default 5000 */
  heartbeatMs?: number;
  /** Least time between two progress writes of one job. @default 500 */
  progressEveryMs?: number;
  /** @default the product's handlers */
  handlers?: JobHandlers;
  /** Aborted when the process stops: running handlers stop at their next safe point. */
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** The work of one job, when it is not its kind's product handler (see {@link RunHereOptions}). */
export type JobWork = (ctx: JobContext) => Promise<JobOutcome>;

/** Options of `runHere` ({@link JobRunner}). */
export interface RunHereOptions {
  /** The dashboard user who asked (null: the CLI). */
  requestedBy?: number | null;
  /**
   * Do this instead of the kind's handler (claiming, heartbeats, progress and the outcome are the
   * same). The CLI's jobs have inputs only its process holds (a file of samples), and print as they go.
   */
  handler?: JobWork;
}

/** What `runHere` did: refused (another job of the key is queued or running), or ran the job. */
export type RunHereResult = { refused: JobView } | { refused?: undefined; job: JobView; error?: Error };

/** Runs jobs with rows; knows which of them it is running now. */
export interface JobRunner {
  readonly owner: string;
  /**
   * Claim and run one job. Resolves with the finished job, or null when the job was not there to
   * claim (another worker has it, it was cancelled, it is already done). Never rejects for the
   * job's own failure: that is written on the row.
   */
  run(jobId: number): Promise<JobView | null>;
  /**
   * Run a job whose row this runner already holds (asked for with `claimedBy: runner.owner`).
   * `error` is what the work threw, when it failed (also written on the row); `job` is null when
   * the row is not this runner's.
   */
  runClaimed(jobId: number, work?: JobWork): Promise<{ job: JobView | null; error?: Error }>;
  /**
   * Ask for a job and run it in this process at once: what the CLI does. When a job of the same
   * key is queued or running (a dashboard's training of the topic, another terminal's), nothing is
   * added and that job is returned as `refused`: the caller says so rather than waiting. The row
   * allows one attempt: a CLI job whose process dies is failed by the reaper with the reason, not
   * run again by a worker that has neither its inputs nor its terminal.
   */
  runHere(spec: JobSpec, options?: RunHereOptions): Promise<RunHereResult>;
  /** Ids of the jobs this runner is running now (the reaper leaves them alone). */
  active(): ReadonlySet<number>;
}

type AfterFinish = (db: Db, spec: JobSpec, outcome: JobOutcome) => Promise<unknown>;

/** A name for this process on job rows: host, pid and a random part (pids are reused). */
export function processOwner(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
}

/** Create a runner. */
export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const { db } = opts;
  const owner = opts.owner ?? processOwner();
  const heartbeatMs = opts.heartbeatMs ?? 5000;
  const progressEveryMs = opts.progressEveryMs ?? 500;
  const handlers = opts.handlers ?? jobHandlers;
  const log = opts.log ?? (() => undefined);
  const active = new Set<number>();

  const mine = (id: number) => ({ id, owner, status: "running" });

  async function run(jobId: number): Promise<JobView | null> {
    const now = new Date();
    const claimed = await db.job.updateMany({
      where: { id: jobId, status: "queued" },
      data: { status: "running", owner, heartbeatAt: now, startedAt: now, attempts: { increment: 1 }, progress: null },
    });
    if (claimed.count === 0) return null;
    return (await execute(jobId)).job;
  }

  async function runClaimed(jobId: number, work?: JobWork): Promise<{ job: JobView | null; error?: Error }> {
    if ((await db.job.count({ where: mine(jobId) })) === 0) return { job: null };
    return execute(jobId, work);
  }

  async function runHere(spec: JobSpec, options: RunHereOptions = {}): Promise<RunHereResult> {
    const { job, created } = await requestJob(db, spec, { requestedBy: options.requestedBy ?? null, maxAttempts: 1, claimedBy: owner });
    if (!created) return { refused: job };
    const r = await runClaimed(job.id, options.handler);
    // The row was ours a moment ago: gone only when deleted with its topic meanwhile.
    return { job: r.job ?? job, error: r.error };
  }

  /** Run a claimed job: heartbeat, progress, the outcome on the row, the kind's follow-up. */
  async function execute(jobId: number, work?: JobWork): Promise<{ job: JobView | null; error?: Error }> {
    active.add(jobId);
    const lost = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, lost.signal]) : lost.signal;
    // Writes of one job go one after another, so a late progress write never lands after the outcome.
    let writes: Promise<unknown> = Promise.resolve();
    const write = (data: Parameters<Db["job"]["updateMany"]>[0]["data"]) =>
      (writes = writes
        .then(() => db.job.updateMany({ where: mine(jobId), data }))
        .then((r) => {
          // Not ours any more: declared dead by a reaper while this process was stalled, and
          // queued again. Stop rather than race the new attempt.
          if (r.count === 0 && !lost.signal.aborted) lost.abort(new Error("the job was taken from this process"));
        })
        .catch((e: unknown) => log(`job ${jobId}: could not write its state: ${reasonOf(e)}`)));
    const beat = setInterval(() => void write({ heartbeatAt: new Date() }), heartbeatMs);
    let pending: JobProgress | null = null;
    let lastProgressAt = 0;
    let progressTimer: NodeJS.Timeout | undefined;
    const flushProgress = () => {
      progressTimer = undefined;
      if (!pending) return;
      lastProgressAt = Date.now();
      void write({ progress: JSON.stringify(pending), heartbeatAt: new Date() });
      pending = null;
    };
    const progress = (p: JobProgress) => {
      pending = { message: p.message, step: p.step, values: p.values, done: p.done, total: p.total };
      const wait = lastProgressAt + progressEveryMs - Date.now();
      if (wait <= 0) flushProgress();
      else progressTimer ??= setTimeout(flushProgress, wait);
    };
    try {
      const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
      const spec = parseSpecOrNull(row.payload);
      let outcome: Outcome;
      if (!spec) {
        outcome = {
          status: "failed",
          result: { message: "the job's parameters do not parse", step: "badPayload" },
          error: "the job's parameters do not parse",
        };
      } else {
        const ctx: JobContext = { db, signal, progress, log: (m) => log(`job ${jobId} (${spec.kind}): ${m}`), attempt: row.attempts };
        const handler = handlers[spec.kind] as (c: JobContext, s: JobSpec) => Promise<JobOutcome>;
        outcome = await runWork(work ? () => work(ctx) : () => handler(ctx, spec));
      }
      clearTimeout(progressTimer);
      flushProgress();
      // A success keeps the reason an earlier attempt stopped (the row's history); a failure says its own.
      await write({
        status: outcome.status,
        result: JSON.stringify(outcome.result),
        ...(outcome.error ? { error: outcome.error } : {}),
        finishedAt: new Date(),
      });
      await writes;
      // What the kind does once its row says finished (./handlers.ts afterJobFinished).
      const after = spec && outcome.status === "done" ? (afterJobFinished[spec.kind] as AfterFinish | undefined) : undefined;
      if (after) await after(db, spec!, outcome.result).catch((e: unknown) => log(`job ${jobId}: its follow-up failed: ${reasonOf(e)}`));
      const done = await db.job.findUnique({ where: { id: jobId } });
      log(`job ${jobId} ${outcome.status}: ${outcome.result.message}`);
      return { job: done ? toJobView(done) : null, ...(outcome.status === "failed" ? { error: outcome.thrown } : {}) };
    } finally {
      clearInterval(beat);
      clearTimeout(progressTimer);
      active.delete(jobId);
    }
  }

  return { owner, run, runClaimed, runHere, active: () => active };
}

/** How a job ended, as written on its row; `thrown` is what the work threw (for a caller in this process). */
interface Outcome {
  status: "done" | "failed";
  result: JobOutcome;
  error: string | null;
  thrown?: Error;
}

/** Run the work; a throw becomes a failed outcome (with the error's code when it has one). */
async function runWork(work: () => Promise<JobOutcome>): Promise<Outcome> {
  try {
    return { status: "done", result: await work(), error: null };
  } catch (e) {
    // A refusal with a code (TrainingError: "no samples with a relevant label", …) keeps it, so
    // the dashboard says it in the reader's language; anything else is shown in its own words.
    const coded = e as { code?: unknown; values?: unknown };
    const step = typeof coded.code === "string" ? coded.code : undefined;
    const values = step && coded.values && typeof coded.values === "object" ? (coded.values as Record<string, string | number>) : undefined;
    const message = reasonOf(e);
    return { status: "failed", result: { message, step, values }, error: message, thrown: e instanceof Error ? e : new Error(message) };
  }
}

/** Options of {@link reapDeadJobs}. */
export interface ReapOptions {
  /** A running job whose heartbeat is older than this is dead. */
  deadAfterMs: number;
  /** Jobs this process is running (alive, however late their heartbeat). */
  alive?: ReadonlySet<number>;
  now?: Date;
  log?: (message: string) => void;
}

/**
 * Find jobs whose process died (a heartbeat older than `deadAfterMs`) and queue them again, or
 * fail them after their last attempt, with the reason on the row. A discovery run its dead job
 * left "running" is failed with the same reason when the job is. Returns the ids queued again and
 * failed.
 */
export async function reapDeadJobs(db: Db, opts: ReapOptions): Promise<{ requeued: number[]; failed: number[] }> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - opts.deadAfterMs);
  const dead = await db.job.findMany({ where: { status: "running", heartbeatAt: { lt: cutoff } }, orderBy: { id: "asc" }, take: 100 });
  const out = { requeued: [] as number[], failed: [] as number[] };
  for (const j of dead) {
    if (opts.alive?.has(j.id)) continue;
    const silentS = Math.round((now.getTime() - (j.heartbeatAt ?? now).getTime()) / 1000);
    const reason = `attempt ${j.attempts} of ${j.maxAttempts} stopped: the process running it (${j.owner ?? "unknown"}) stopped answering ${silentS} s ago`;
    const again = j.attempts < j.maxAttempts;
    // Conditional on the heartbeat read: a job that beat meanwhile is alive after all.
    const r = await db.job.updateMany({
      where: { id: j.id, status: "running", heartbeatAt: j.heartbeatAt },
      data: again
        ? { status: "queued", owner: null, dispatchedAt: null, error: reason }
        : { status: "failed", error: reason, result: JSON.stringify({ message: reason, step: "died", values: { attempts: j.attempts } }), finishedAt: now },
    });
    if (r.count === 0) continue;
    (again ? out.requeued : out.failed).push(j.id);
    opts.log?.(`job ${j.id} (${j.kind}): ${reason}; ${again ? "queued again" : "failed"}`);
    if (!again && j.kind === "discover") {
      const spec = parseSpecOrNull(j.payload);
      if (spec?.kind === "discover") {
        await failDiscoveryRunRow(db, spec.runId, reason);
      }
    }
  }
  return out;
}
