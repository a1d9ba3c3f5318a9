/**
 * The history time table (HistoryMark): the newest post time already crawled, per account ("")
 * or per thread, and where an unfinished or finished forum thread's reading stands.
 */
import type { Db, Prisma } from "../../lib/db";
import { storesOf } from "../../lib/store";
import { CRAWL_STORE, one } from "./driver";
import type { CrawlOp, StoredMark } from "./ops";
import { withUniqueRetry } from "./site";

/** Every mark of the account. */
function allMarks(db: Db, accountId: number): Promise<StoredMark[]> {
  return storesOf(db).run(() => one<StoredMark[]>({ op: "marks", accountId }), CRAWL_STORE, { transaction: false });
}

/**
 * The history time table: newest post time already crawled, per account ("") or per thread.
 * Read at the start of every account's crawl, like {@link readResumes}: on SQLite as a prepared
 * statement (lib/store), since a forum account holds a mark per thread it has read, and
 * Prisma compiles each query and builds every row it returns.
 */
export async function readMarks(db: Db, accountId: number): Promise<Map<string, Date>> {
  return new Map((await allMarks(db, accountId)).map((r) => [r.scope, r.newestAt]));
}

/**
 * Where a forum thread's reading stands, kept in HistoryMark.resume (JSON):
 * `{"page": N}` — unfinished: pages before N are stored, the next run continues at N;
 * `{"last": N}` — read to its end, which was page N: new replies land there, so the next run
 * starts at N instead of at page 1. Null (or unreadable): nothing known, the adapter finds out.
 */
export type ThreadResume = { page: number; last?: undefined } | { last: number; page?: undefined };

/** The threads' resume states by scope (platformId); threads without one are absent. */
export async function readResumes(db: Db, accountId: number): Promise<Map<string, ThreadResume>> {
  const out = new Map<string, ThreadResume>();
  for (const r of await allMarks(db, accountId)) {
    const parsed = parseResume(r.resume);
    if (parsed) out.set(r.scope, parsed);
  }
  return out;
}

function parseResume(text: string | null): ThreadResume | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as { page?: unknown; last?: unknown };
    if (typeof v.page === "number" && Number.isInteger(v.page) && v.page >= 1) return { page: v.page };
    if (typeof v.last === "number" && Number.isInteger(v.last) && v.last >= 1) return { last: v.last };
  } catch {
    // A mark written by something else: treat the thread as unknown.
  }
  return null;
}

/**
 * Record where a thread's reading stands (see {@link ThreadResume}), creating its mark if need
 * be. Unlike the time, this may move back (a thread that shrank, or an unfinished read).
 */
export async function setResume(db: Db, accountId: number, scope: string, resume: ThreadResume, newestAt: Date): Promise<void> {
  await writeMarks(db, accountId, [{ scope, newestAt, resume }], "resume");
}

/**
 * Forget where a thread's reading stands: a flow without page numbers (Weibo comments) that was
 * left to be read again (`{"page": 1}`) has now been read whole.
 */
export async function clearResume(db: Db, accountId: number, scope: string): Promise<void> {
  const at = new Date();
  await storesOf(db).run(function* (): Generator<CrawlOp, void, unknown> {
    const [stored] = (yield { op: "marksOf", accountId, scopes: [scope] }) as StoredMark[];
    if (stored && stored.resume !== null) yield { op: "updateMark", accountId, scope, change: { resume: null }, at };
  }, CRAWL_STORE);
}

/**
 * Move a history mark forward (never back). Call only after the pages that prove it are committed:
 * a crash before this call repeats pages on the next run instead of skipping them.
 */
export async function advanceMark(db: Db, accountId: number, scope: string, newestAt: Date): Promise<void> {
  await writeMarks(db, accountId, [{ scope, newestAt, resume: null }]);
}

/**
 * A thread read to its end: move its mark forward (never back) and record where its reading
 * stands, in one write — what {@link advanceMark} then {@link setResume} do, one statement fewer
 * per thread.
 */
export async function finishThreadMark(db: Db, accountId: number, scope: string, newestAt: Date, resume: ThreadResume | null): Promise<void> {
  await writeMarks(db, accountId, [{ scope, newestAt, resume }]);
}

/** A thread's first mark, as {@link finishThreadMark} would write it for a thread without one. */
export interface NewThreadMark {
  scope: string;
  newestAt: Date;
  resume: ThreadResume | null;
}

/**
 * Write the first marks of threads read to their end, in one transaction: the marks of a list
 * page's new threads, written once the page's threads are done (one insert, not one per thread).
 * Should one exist meanwhile after all, each is written as {@link finishThreadMark} does.
 */
export async function createThreadMarks(db: Db, accountId: number, marks: readonly NewThreadMark[]): Promise<void> {
  // Once per listing page of every forum crawl: on SQLite as prepared statements (lib/store).
  if (marks.length > 0) await writeMarks(db, accountId, marks);
}

/**
 * Write marks in one transaction (see {@link planMarks}); a mark created meanwhile by another
 * writer is read and written again.
 */
function writeMarks(db: Db, accountId: number, marks: readonly NewThreadMark[], mode: MarkMode = "forward"): Promise<void> {
  const at = new Date();
  return withUniqueRetry(() => storesOf(db).run(() => planMarks(accountId, marks, mode, at), CRAWL_STORE));
}

/**
 * How an existing mark is written: "forward" (the crawl's progress: its time only moves forward,
 * a given resume state replaces the stored one) or "resume" (only the resume state is written,
 * and may move back; the time is the new mark's alone).
 */
type MarkMode = "forward" | "resume";

/**
 * The rule of the history table, written once for both stores: a mark that does not exist is
 * created; in "forward" mode one that exists moves its time forward only (never back) and takes
 * the resume state when one is given (a null resume leaves the stored one); in "resume" mode only
 * its resume state is written. Every write is stamped `at` (updatedAt).
 */
function* planMarks(accountId: number, marks: readonly NewThreadMark[], mode: MarkMode, at: Date): Generator<CrawlOp, void, unknown> {
  // One write per scope, as writing the marks one after another would leave it: the latest time, the last resume given.
  const wanted = new Map<string, { newestAt: Date; resume: string | null }>();
  for (const m of marks) {
    const had = wanted.get(m.scope);
    const resume = m.resume ? JSON.stringify(m.resume) : null;
    wanted.set(m.scope, {
      newestAt: had && had.newestAt.getTime() >= m.newestAt.getTime() ? had.newestAt : m.newestAt,
      resume: resume ?? had?.resume ?? null,
    });
  }
  const current = new Map(((yield { op: "marksOf", accountId, scopes: [...wanted.keys()] }) as StoredMark[]).map((m) => [m.scope, m]));
  const created: StoredMark[] = [];
  for (const [scope, m] of wanted) {
    const stored = current.get(scope);
    if (!stored) {
      created.push({ scope, newestAt: m.newestAt, resume: m.resume });
      continue;
    }
    const forward = mode === "forward" && stored.newestAt.getTime() < m.newestAt.getTime();
    if (!forward && m.resume === null) continue;
    yield {
      op: "updateMark",
      accountId,
      scope,
      change: { ...(forward ? { newestAt: m.newestAt } : {}), ...(m.resume !== null ? { resume: m.resume } : {}) },
      at,
    };
  }
  if (created.length > 0) yield { op: "insertMarks", accountId, marks: created, at };
}

/**
 * Delete every mark of the account: it starts over, its next crawl reading back as far as its
 * backfill allows (the account form's "start over" when its URL changes, server/accounts.ts).
 * A Prisma call on the caller's client or transaction, not a store op: it is written in the same
 * transaction as the URL change, so a refused change keeps the marks. Returns how many were deleted.
 */
export async function deleteAccountMarks(db: Db | Prisma.TransactionClient, accountId: number): Promise<number> {
  return (await db.historyMark.deleteMany({ where: { accountId } })).count;
}
