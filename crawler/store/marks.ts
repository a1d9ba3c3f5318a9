/**
 * The history time table (HistoryMark): the newest post time already crawled, per account ("")
 * or per thread, and where an unfinished or finished forum thread's reading stands.
 */
import type BetterSqlite3 from "better-sqlite3";
import { rawSqlite, type Db } from "../../lib/db";
import { dateOf, prepared, sqlValue } from "../../lib/sqlite-statements";

/**
 * The history time table: newest post time already crawled, per account ("") or per thread.
 * Read at the start of every account's crawl, like {@link readResumes}: on SQLite as a prepared
 * statement (lib/db.ts rawSqlite), since a forum account holds a mark per thread it has read, and
 * Prisma compiles each query and builds every row it returns.
 */
export async function readMarks(db: Db, accountId: number): Promise<Map<string, Date>> {
  const raw = await rawSqlite(db);
  if (raw) {
    const rows = await raw.transaction(
      (sql) => prepared(sql, `SELECT "scope", "newestAt" FROM "HistoryMark" WHERE "accountId" = ?`).all(accountId) as { scope: string; newestAt: unknown }[],
    );
    return new Map(rows.map((r) => [r.scope, dateOf(r.newestAt)]));
  }
  const rows = await db.historyMark.findMany({ where: { accountId }, select: { scope: true, newestAt: true } });
  return new Map(rows.map((r) => [r.scope, r.newestAt]));
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
  const raw = await rawSqlite(db);
  const rows = raw
    ? await raw.transaction(
        (sql) =>
          prepared(sql, `SELECT "scope", "resume" FROM "HistoryMark" WHERE "accountId" = ? AND "resume" IS NOT NULL`).all(accountId) as {
            scope: string;
            resume: string | null;
          }[],
      )
    : await db.historyMark.findMany({ where: { accountId, resume: { not: null } }, select: { scope: true, resume: true } });
  const out = new Map<string, ThreadResume>();
  for (const r of rows) {
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
  const json = JSON.stringify(resume);
  await db.historyMark.upsert({
    where: { accountId_scope: { accountId, scope } },
    create: { accountId, scope, newestAt, resume: json },
    update: { resume: json },
  });
}

/**
 * Forget where a thread's reading stands: a flow without page numbers (Weibo comments) that was
 * left to be read again (`{"page": 1}`) has now been read whole.
 */
export async function clearResume(db: Db, accountId: number, scope: string): Promise<void> {
  await db.historyMark.updateMany({ where: { accountId, scope, resume: { not: null } }, data: { resume: null } });
}

/**
 * Move a history mark forward (never back). Call only after the pages that prove it are committed:
 * a crash before this call repeats pages on the next run instead of skipping them.
 */
export async function advanceMark(db: Db, accountId: number, scope: string, newestAt: Date): Promise<void> {
  // On SQLite one write, as a thread's first mark is written: created, or moved forward only.
  const raw = await rawSqlite(db);
  if (raw) return raw.transaction((sql) => createThreadMarksSqlite(sql, accountId, [{ scope, newestAt, resume: null }], new Date()));
  const current = await db.historyMark.findUnique({ where: { accountId_scope: { accountId, scope } } });
  if (current && current.newestAt >= newestAt) return;
  await db.historyMark.upsert({
    where: { accountId_scope: { accountId, scope } },
    create: { accountId, scope, newestAt },
    update: { newestAt },
  });
}

/**
 * A thread read to its end: move its mark forward (never back) and record where its reading
 * stands, in one write — what {@link advanceMark} then {@link setResume} do, one statement fewer
 * per thread.
 */
export async function finishThreadMark(db: Db, accountId: number, scope: string, newestAt: Date, resume: ThreadResume | null): Promise<void> {
  const current = await db.historyMark.findUnique({ where: { accountId_scope: { accountId, scope } }, select: { newestAt: true } });
  const forward = !current || current.newestAt < newestAt;
  const json = resume ? JSON.stringify(resume) : null;
  if (!forward && json === null) return;
  await db.historyMark.upsert({
    where: { accountId_scope: { accountId, scope } },
    create: { accountId, scope, newestAt, resume: json },
    update: { ...(forward ? { newestAt } : {}), ...(json !== null ? { resume: json } : {}) },
  });
}

/** A thread's first mark, as {@link finishThreadMark} would write it for a thread without one. */
export interface NewThreadMark {
  scope: string;
  newestAt: Date;
  resume: ThreadResume | null;
}

/**
 * Write the first marks of threads read to their end, in one statement: the marks of a list page's
 * new threads, written once the page's threads are done (one insert, not one per thread). Should
 * one exist meanwhile after all, each is written as {@link finishThreadMark} does.
 */
export async function createThreadMarks(db: Db, accountId: number, marks: readonly NewThreadMark[]): Promise<void> {
  if (marks.length === 0) return;
  // Once per listing page of every forum crawl: on SQLite as prepared statements (lib/db.ts rawSqlite).
  const raw = await rawSqlite(db);
  if (raw) return raw.transaction((sql) => createThreadMarksSqlite(sql, accountId, marks, new Date()));
  try {
    await db.historyMark.createMany({
      data: marks.map((m) => ({ accountId, scope: m.scope, newestAt: m.newestAt, resume: m.resume ? JSON.stringify(m.resume) : null })),
    });
  } catch {
    for (const m of marks) await finishThreadMark(db, accountId, m.scope, m.newestAt, m.resume);
  }
}

/**
 * {@link createThreadMarks} on SQLite, in one transaction: each mark inserted, or, where one exists
 * meanwhile, written as {@link finishThreadMark} writes it (time only forward, resume when given).
 */
function createThreadMarksSqlite(sql: BetterSqlite3.Database, accountId: number, marks: readonly NewThreadMark[], now: Date): void {
  const insert = prepared(
    sql,
    `INSERT INTO "HistoryMark" ("accountId", "scope", "newestAt", "resume", "updatedAt") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("accountId", "scope") DO NOTHING`,
  );
  // julianday: dates compared as instants, whatever text form an older row holds.
  const finish = prepared(
    sql,
    `UPDATE "HistoryMark" SET
       "newestAt" = CASE WHEN julianday("newestAt") < julianday(@newestAt) THEN @newestAt ELSE "newestAt" END,
       "resume" = coalesce(@resume, "resume"),
       "updatedAt" = @at
     WHERE "accountId" = @accountId AND "scope" = @scope AND (julianday("newestAt") < julianday(@newestAt) OR @resume IS NOT NULL)`,
  );
  const at = sqlValue(now);
  for (const m of marks) {
    const newestAt = sqlValue(m.newestAt);
    const resume = m.resume ? JSON.stringify(m.resume) : null;
    if (insert.run(accountId, m.scope, newestAt, resume, at).changes === 0) finish.run({ newestAt, resume, at, accountId, scope: m.scope });
  }
}
