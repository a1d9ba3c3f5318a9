/**
 * The CrawlRun lifecycle, the one module that writes CrawlRun rows: a run starts ("running", with
 * the robots.txt policy it runs under), finishes (ok / partial / failed with its counters, errors,
 * warnings and note), or is recorded as skipped; runs a killed process left "running" are closed.
 * Failures around a crawl rather than inside it (the worker records those itself) are written here
 * too: a crawl that threw something unexpected, a job that could not even be queued, a
 * notification service that rejected after the run — so the dashboard shows why, not only the
 * process log. The dashboard's reads stay in server/runs.ts.
 */
import type { Db } from "../lib/db";
import { storesOf } from "../lib/store";
import { updateAccountRows } from "./account-rows";
import { STRUCTURE_FIELD } from "./types";
import { CRAWL_STORE, one } from "./store/driver";
import type { AccountChange, CrawlOp, RunChange } from "./store/ops";

/** What started a crawl (CrawlRun.trigger). */
export type RunTrigger = "schedule" | "manual" | "cli";

/** Counters of one crawl run (mirrors the CrawlRun columns). */
export interface RunSummary {
  runId: number;
  accountId: number;
  status: "ok" | "partial" | "failed" | "skipped";
  pagesList: number;
  pagesItem: number;
  pagesOther: number;
  browserPages: number;
  bytes: number;
  newPosts: number;
  changedPosts: number;
  unchangedPosts: number;
  blocks: number;
  errors: RunError[];
  /** Fields that could not be read while their items were still stored (AdapterContext.warn). */
  warnings: RunWarning[];
  /** Posts and replies newly noticed gone from the platform (marked deleted, kept). */
  deletedPosts: number;
  /** Posts marked deleted earlier that were served again (the mark cleared, a version added). */
  restoredPosts: number;
  /** Threads left unfinished by the page budget (resumed next run): the run is "partial". */
  unfinishedThreads: number;
  /** What the run did not finish or noticed, one line each (written to CrawlRun.note). */
  notes: string[];
  durationMs: number;
}
export interface RunWarning {
  at: string;
  url: string;
  field: string;
  raw: string;
  reason: string;
}
export interface RunError {
  at: string;
  url?: string;
  kind: string;
  reason: string;
}

/** A one-line reason for anything thrown. */
export function reasonOf(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return typeof e === "string" ? e : (JSON.stringify(e) ?? String(e));
}

function runError(kind: string, e: unknown): RunError {
  return { at: new Date().toISOString(), kind: e instanceof Error && e.name !== "Error" ? e.name : kind, reason: reasonOf(e) };
}

/**
 * Close the account's runs still marked "running" as failed ("interrupted"). One account never
 * has two runs at once (the queues see to that), so such a run belongs to a process that died
 * mid-run; the crawl calls this before it starts its own. Returns how many were closed.
 */
export async function closeDeadRuns(db: Db, accountId: number, at: Date): Promise<number> {
  // This, startRun, finishRun and setAccountState run for every account crawled: on SQLite as
  // prepared statements (lib/store), as the page store does, sparing Prisma's compile of each
  // query (about 1.5 ms of the crawl's busy thread; issue 17).
  return storesOf(db).run(() => one<number>({ op: "closeRuns", accountId, finishedAt: at, note: DEAD_RUN_NOTE }), CRAWL_STORE, { transaction: false });
}

/**
 * Change one row by id, as Prisma's update does: a row that is gone is an error (the store's
 * update reports how many rows it changed; this rule is not written again in each implementation).
 */
function* updateExisting(op: Extract<CrawlOp, { op: "updateRun" | "updateAccount" }>, what: string): Generator<CrawlOp, void, unknown> {
  if ((yield op) === 0) throw new Error(`no ${what} with id ${op.id}`);
}

const DEAD_RUN_NOTE = "interrupted: the crawling process ended mid-run";

/** What a run starts with. */
export interface RunStart {
  accountId: number;
  trigger: RunTrigger;
  startedAt: Date;
  /** The robots.txt policy, fixed for the run; for "ignore", who chose it and when. */
  robotsPolicy: "obey" | "ignore";
  robotsPolicySetBy?: string | null;
  robotsPolicySetAt?: Date | null;
}

/** Record a run as started ("running"); returns its id. */
export async function startRun(db: Db, start: RunStart): Promise<number> {
  const { accountId, trigger, startedAt, robotsPolicy } = start;
  const ignored = robotsPolicy === "ignore";
  const row = {
    accountId,
    trigger,
    status: "running",
    startedAt,
    robotsPolicy,
    robotsPolicySetBy: ignored ? (start.robotsPolicySetBy ?? null) : null,
    robotsPolicySetAt: ignored ? (start.robotsPolicySetAt ?? null) : null,
  };
  return storesOf(db).run(() => one<number>({ op: "insertRun", row }), CRAWL_STORE, { transaction: false });
}

/** How many of a run's warnings its row keeps. */
const KEPT_WARNINGS = 200;

/**
 * The warnings a run's row keeps: the first 200, except that an unrecognised page
 * ({@link STRUCTURE_FIELD}) is always among them — the next run looks for it (see
 * {@link unrecognisedTwice}) and the account page names its URL.
 */
function keptWarnings(all: readonly RunWarning[]): RunWarning[] {
  const first = all.slice(0, KEPT_WARNINGS);
  const later = all
    .slice(KEPT_WARNINGS)
    .filter((w) => w.field === STRUCTURE_FIELD)
    .slice(0, 10);
  return later.length ? [...first.slice(0, KEPT_WARNINGS - later.length), ...later] : first;
}

/**
 * The first unrecognised page of this run ({@link STRUCTURE_FIELD} warning) when the account's
 * run before it had one too: two runs in a row read nothing from a page they recognised, so the
 * account is marked "unrecognised" (页面结构无法识别). One such run alone is not enough: a page
 * served half-written once, or a maintenance page, is not a changed template. Reads the earlier
 * run only when this one has such a warning (the usual run costs no query).
 */
export async function unrecognisedTwice(db: Db, s: RunSummary, accountId: number): Promise<RunWarning | null> {
  const now = s.warnings.find((w) => w.field === STRUCTURE_FIELD);
  if (!now) return null;
  const before = await db.crawlRun.findFirst({
    where: { accountId, id: { lt: s.runId }, status: { not: "skipped" } },
    orderBy: { id: "desc" },
    select: { warnings: true },
  });
  let earlier: unknown;
  try {
    earlier = JSON.parse(before?.warnings ?? "[]");
  } catch {
    return null;
  }
  return Array.isArray(earlier) && earlier.some((w) => (w as Partial<RunWarning> | null)?.field === STRUCTURE_FIELD) ? now : null;
}

/** Record how a run ended: its status and counters, the first 200 errors and warnings, and its note. */
export async function finishRun(db: Db, s: RunSummary, finishedAt: Date): Promise<void> {
  const data: RunChange = {
    status: s.status,
    finishedAt,
    pagesList: s.pagesList,
    pagesItem: s.pagesItem,
    pagesOther: s.pagesOther,
    browserPages: s.browserPages,
    bytes: s.bytes,
    newPosts: s.newPosts,
    changedPosts: s.changedPosts,
    unchangedPosts: s.unchangedPosts,
    blocks: s.blocks,
    errorCount: s.errors.length,
    errors: JSON.stringify(s.errors.slice(0, 200)),
    warningCount: s.warnings.length,
    warnings: JSON.stringify(keptWarnings(s.warnings)),
    note: runNote(s),
  };
  await storesOf(db).run(() => updateExisting({ op: "updateRun", id: s.runId, data }, "crawl run"), CRAWL_STORE, { transaction: false });
}

/** What a run leaves on its account: the status, and when it ran and its last error once it ended. */
export interface AccountRunState {
  status: string;
  lastRunAt?: Date;
  lastError?: string | null;
  /** Account.listValidators (crawler/fetch/conditional.ts), JSON. */
  listValidators?: string;
}

/** Write a run's {@link AccountRunState} on its account (the account must exist, as for Prisma's update). */
export async function setAccountState(db: Db, accountId: number, state: AccountRunState): Promise<void> {
  // The account's @updatedAt, stamped here for both implementations (Prisma's own stamp is not relied on).
  const data: AccountChange = { ...state, updatedAt: new Date() };
  await storesOf(db).run(() => updateExisting({ op: "updateAccount", id: accountId, data }, "account"), CRAWL_STORE, { transaction: false });
}

/** CrawlRun.note: counts first, then the notes' lines (cut to keep the row small). */
function runNote(s: RunSummary): string {
  const head: string[] = [];
  if (s.unfinishedThreads) head.push(`${s.unfinishedThreads} thread(s) unfinished, resumed next run`);
  if (s.deletedPosts) head.push(`${s.deletedPosts} deleted`);
  if (s.restoredPosts) head.push(`${s.restoredPosts} restored`);
  const lines = [...(head.length ? [head.join("; ")] : []), ...s.notes];
  const text = lines.join("\n");
  return text.length > 4000 ? `${text.slice(0, 3999)}…` : text;
}

/**
 * Record a crawl that did not run (the account's previous run still going, another worker holding
 * it, the queue refusing the job) as a "skipped" run with the reason. Throws on a database error;
 * {@link recordSkippedRun} is the variant for error handlers.
 */
export async function createSkippedRun(db: Db, accountId: number, trigger: RunTrigger, note: string, at: Date = new Date()): Promise<void> {
  await db.crawlRun.create({ data: { accountId, trigger, status: "skipped", startedAt: at, finishedAt: at, note: note.slice(0, 1000) } });
}

/**
 * A crawl of `accountId` ended by an exception instead of a summary. The account's run still
 * marked "running" (the crawl's own, when it got that far) is closed as failed with the reason;
 * when there is none, a failed run is created to carry it. The account shows the error too.
 * Never throws: this is called from error handlers (the database may be what failed).
 */
export async function recordCrawlFailure(
  db: Db,
  accountId: number,
  trigger: RunTrigger,
  e: unknown,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const reason = reasonOf(e);
  const note = `crashed: ${reason}`.slice(0, 1000);
  const errors = JSON.stringify([runError("CrawlError", e)]);
  try {
    const now = new Date();
    const closed = await db.crawlRun.updateMany({
      where: { accountId, status: "running" },
      data: { status: "failed", finishedAt: now, note, errorCount: { increment: 1 }, errors },
    });
    if (closed.count === 0) {
      const exists = await db.account.count({ where: { id: accountId } });
      if (!exists) return;
      await db.crawlRun.create({ data: { accountId, trigger, status: "failed", startedAt: now, finishedAt: now, note, errorCount: 1, errors } });
    }
    await updateAccountRows(db, { where: { id: accountId }, data: { status: "error", lastError: note } });
  } catch (err) {
    log(`account ${accountId}: could not record the failure on a crawl run (${reasonOf(err)}); the failure was: ${reason}`);
  }
}

/**
 * A job for `accountId` could not be handed to the queue (the queue's database refused): recorded
 * as a skipped run with the reason, so the missed tick is visible. Never throws.
 */
export async function recordSkippedRun(
  db: Db,
  accountId: number,
  trigger: RunTrigger,
  note: string,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  try {
    const exists = await db.account.count({ where: { id: accountId } });
    if (exists) await createSkippedRun(db, accountId, trigger, note);
  } catch (err) {
    log(`account ${accountId}: could not record a skipped run (${reasonOf(err)}): ${note}`);
  }
}

/**
 * Add an error to a finished run's error list (a service that failed after the run was written,
 * such as notification delivery). The run's status is left as it was: the crawl itself went as
 * recorded. Never throws.
 */
export async function appendRunError(db: Db, runId: number, kind: string, e: unknown, log: (message: string) => void = () => undefined): Promise<void> {
  try {
    const run = await db.crawlRun.findUnique({ where: { id: runId }, select: { errors: true } });
    if (!run) return;
    let list: RunError[] = [];
    try {
      const parsed: unknown = JSON.parse(run.errors);
      if (Array.isArray(parsed)) list = parsed as RunError[];
    } catch {
      list = [];
    }
    list.push(runError(kind, e));
    await db.crawlRun.update({ where: { id: runId }, data: { errors: JSON.stringify(list.slice(-200)), errorCount: { increment: 1 } } });
  } catch (err) {
    log(`run ${runId}: could not record ${kind} (${reasonOf(err)}): ${reasonOf(e)}`);
  }
}
