/**
 * Asking for background work and reading how it goes: what the dashboard and the CLI do. Asking
 * only inserts a Job row ("queued"), so it answers at once; the scheduler hands the row to a
 * worker (./dispatch.ts), which writes progress and the outcome on it (./runner.ts).
 */
import type { Db } from "../../lib/db";
import { jobKey, jobSpecSchema, type JobKind, type JobOutcome, type JobProgress, type JobSpec, type JobStatus, type JobView } from "./types";

/** Options of {@link requestJob}. */
export interface RequestOptions {
  /** The dashboard user who asked (null: the CLI or the scheduler). */
  requestedBy?: number | null;
  /** Attempts before a job whose process keeps dying is failed. @default 3 */
  maxAttempts?: number;
  /**
   * Create the row already claimed ("running", attempt 1) by this runner owner: the CLI runs its
   * job in its own process (`runHere` of crawler/jobs/runner.ts), so no scheduler or worker may take it
   * between the insert and the claim.
   */
  claimedBy?: string;
}

/** What {@link requestJob} did: queued a new job, or found one of the same key already queued or running. */
export interface RequestResult {
  job: JobView;
  created: boolean;
}

const ACTIVE: JobStatus[] = ["queued", "running"];

/**
 * Ask for a job. When a job with the same key is already queued or running (a second "Train"
 * press, two administrators at once), that job is returned instead and nothing is added: a
 * partial unique index on the key makes this hold even for two requests at the same instant.
 */
export async function requestJob(db: Db, spec: JobSpec, options: RequestOptions = {}): Promise<RequestResult> {
  const parsed = jobSpecSchema.parse(spec);
  const key = jobKey(parsed);
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await db.job.findFirst({ where: { key, status: { in: ACTIVE } }, orderBy: { id: "desc" } });
    if (existing) return { job: toJobView(existing), created: false };
    try {
      const now = new Date();
      const claimed = options.claimedBy ? { status: "running", owner: options.claimedBy, heartbeatAt: now, startedAt: now, attempts: 1 } : {};
      const row = await db.job.create({
        data: {
          kind: parsed.kind,
          key,
          payload: JSON.stringify(parsed),
          requestedBy: options.requestedBy ?? null,
          maxAttempts: options.maxAttempts ?? 3,
          ...claimed,
        },
      });
      return { job: toJobView(row), created: true };
    } catch (e) {
      // Another request for the same key won the race (unique index "Job_active_key"): read it.
      if (!isUniqueViolation(e)) throw e;
    }
  }
  throw new Error(`could not queue the ${parsed.kind} job (${key}): the key kept changing hands`);
}

/** One job by id, or null. */
export async function getJob(db: Db, id: number): Promise<JobView | null> {
  const row = await db.job.findUnique({ where: { id } });
  return row ? toJobView(row) : null;
}

/** The newest job of a key (any state), or null: what the dashboard shows as "the topic's job". */
export async function latestJob(db: Db, key: string, kinds?: readonly JobKind[]): Promise<JobView | null> {
  const row = await db.job.findFirst({ where: { key, ...(kinds ? { kind: { in: [...kinds] } } : {}) }, orderBy: { id: "desc" } });
  return row ? toJobView(row) : null;
}

/** The queued or running job of a key, or null. */
export async function activeJob(db: Db, key: string): Promise<JobView | null> {
  const row = await db.job.findFirst({ where: { key, status: { in: ACTIVE } }, orderBy: { id: "desc" } });
  return row ? toJobView(row) : null;
}

/**
 * Withdraw the queued (not yet claimed) job of a key, saying why. A job already running is left
 * to stop by its own means (discovery reads its run's status between pages). Returns how many
 * were withdrawn (0 or 1).
 */
export async function cancelQueuedJob(db: Db, key: string, reason: string): Promise<number> {
  const r = await db.job.updateMany({
    where: { key, status: "queued" },
    data: { status: "cancelled", error: reason.slice(0, 500), finishedAt: new Date() },
  });
  return r.count;
}

/** Recent jobs, newest first (the CLI's `jobs list`). */
export async function listJobs(db: Db, { take = 50, kind, status }: { take?: number; kind?: JobKind; status?: JobStatus } = {}): Promise<JobView[]> {
  const rows = await db.job.findMany({ where: { ...(kind ? { kind } : {}), ...(status ? { status } : {}) }, orderBy: { id: "desc" }, take });
  return rows.map(toJobView);
}

type JobRow = NonNullable<Awaited<ReturnType<Db["job"]["findUnique"]>>>;

/** A row as the readers want it: JSON columns parsed, a payload that no longer parses kept visible. */
export function toJobView(row: JobRow): JobView {
  const spec = parseSpec(row.payload, row.kind);
  return {
    id: row.id,
    kind: spec.kind,
    key: row.key,
    spec,
    status: row.status as JobStatus,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    progress: parseObject<JobProgress>(row.progress),
    result: parseObject<JobOutcome>(row.result),
    error: row.error,
    requestedBy: row.requestedBy,
    owner: row.owner,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** The stored payload as a spec; null when it does not parse (the runner then fails the job saying so). */
export function parseSpecOrNull(payload: string): JobSpec | null {
  try {
    const r = jobSpecSchema.safeParse(JSON.parse(payload));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

function parseSpec(payload: string, kind: string): JobSpec {
  // A row written by another version may not parse; it is still shown, as its kind alone.
  return parseSpecOrNull(payload) ?? ({ kind } as JobSpec);
}

function parseObject<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" ? (v as T) : null;
  } catch {
    return null;
  }
}

/** Prisma's unique-constraint error, on both databases (P2002, or the driver adapter's raw error). */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  return err?.code === "P2002" || /unique constraint|UNIQUE constraint failed|duplicate key value/i.test(err?.message ?? "");
}
