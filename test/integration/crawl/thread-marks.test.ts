/**
 * createThreadMarks (the first marks of a listing page's finished threads) through Prisma and as
 * prepared statements on SQLite: the same rows. A mark that exists meanwhile is written as
 * finishThreadMark writes it: its time only moves forward, its resume state changes only when one
 * is given, and a mark with nothing to change is left alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { advanceMark, createThreadMarks, finishThreadMark, readMarks, readResumes, setResume } from "../../../crawler/store/marks";
import { createTestDb, prismaOnly, type TestDb } from "../../support/db";

const dbs: TestDb[] = [];
afterEach(async () => {
  for (const t of dbs.splice(0)) await t.cleanup();
});

const at = (h: number) => new Date(Date.UTC(2026, 10, 30, h, 0, 0, 123));

async function run(driver: "prisma" | "sqlite") {
  const t = await createTestDb();
  dbs.push(t);
  const db = driver === "prisma" ? prismaOnly(t.db) : t.db;
  const a = (await t.db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/a", name: "a" } })).id;
  // Marks written meanwhile (another run of the account).
  await finishThreadMark(t.db, a, "older", at(1), null);
  await finishThreadMark(t.db, a, "newer-resume", at(9), { last: 2 });
  await finishThreadMark(t.db, a, "newer", at(9), { last: 4 });
  const untouched = await t.db.historyMark.findUnique({ where: { accountId_scope: { accountId: a, scope: "newer" } } });
  await createThreadMarks(db, a, [
    { scope: "t1", newestAt: at(5), resume: null },
    { scope: "t2", newestAt: at(6), resume: { last: 3 } },
    { scope: "older", newestAt: at(5), resume: null },
    { scope: "newer-resume", newestAt: at(5), resume: { last: 7 } },
    { scope: "newer", newestAt: at(5), resume: null },
  ]);
  const rows = await t.db.historyMark.findMany({ where: { accountId: a }, orderBy: { scope: "asc" } });
  const newer = rows.find((r) => r.scope === "newer")!;
  expect(newer.updatedAt).toEqual(untouched!.updatedAt);
  return rows.map(({ id: _id, updatedAt: _u, accountId: _a, ...r }) => r);
}

describe("createThreadMarks", () => {
  it("writes the same marks through Prisma and on SQLite, existing ones as finishThreadMark would", async () => {
    const viaPrisma = await run("prisma");
    const viaSqlite = await run("sqlite");
    expect(viaSqlite).toEqual(viaPrisma);
    expect(viaSqlite).toEqual([
      { scope: "newer", newestAt: at(9), resume: '{"last":4}' },
      { scope: "newer-resume", newestAt: at(9), resume: '{"last":7}' },
      { scope: "older", newestAt: at(5), resume: null },
      { scope: "t1", newestAt: at(5), resume: null },
      { scope: "t2", newestAt: at(6), resume: '{"last":3}' },
    ]);
  });
});

/** The account's marks moved and read through one driver: what the reads return, and the rows left. */
async function moveAndRead(driver: "prisma" | "sqlite") {
  const t = await createTestDb();
  dbs.push(t);
  const db = driver === "prisma" ? prismaOnly(t.db) : t.db;
  const a = (await t.db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/a", name: "a" } })).id;
  const b = (await t.db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/b", name: "b" } })).id;
  await advanceMark(db, a, "", at(5));
  await advanceMark(db, a, "", at(3)); // never back
  await advanceMark(db, a, "t1", at(2));
  await advanceMark(db, a, "t1", at(4));
  await setResume(t.db, a, "t1", { page: 3 }, at(4));
  await advanceMark(db, a, "t1", at(6)); // the time moves, the resume state stays
  await finishThreadMark(t.db, a, "t2", at(1), { last: 2 });
  // A mark written in SQLite's own date form (by something else) reads as the same instant.
  await t.db.$executeRawUnsafe(
    `INSERT INTO "HistoryMark" ("accountId", "scope", "newestAt", "resume", "updatedAt") VALUES (${a}, 't3', '2026-11-30 08:00:00', 'not json', '2026-11-30 08:00:00')`,
  );
  await advanceMark(db, b, "", at(8)); // another account's
  const marks = [...(await readMarks(db, a))].sort(([x], [y]) => x.localeCompare(y));
  const resumes = [...(await readResumes(db, a))].sort(([x], [y]) => x.localeCompare(y));
  const rows = await t.db.historyMark.findMany({ where: { accountId: a }, orderBy: { scope: "asc" } });
  return { marks, resumes, rows: rows.map(({ id: _id, updatedAt: _u, accountId: _a, ...r }) => r) };
}

describe("advanceMark, readMarks, readResumes", () => {
  it("move and read the same marks through Prisma and on SQLite", async () => {
    const viaPrisma = await moveAndRead("prisma");
    const viaSqlite = await moveAndRead("sqlite");
    expect(viaSqlite).toEqual(viaPrisma);
    expect(viaSqlite.marks).toEqual([
      ["", at(5)],
      ["t1", at(6)],
      ["t2", at(1)],
      ["t3", new Date(Date.UTC(2026, 10, 30, 8))],
    ]);
    // An unreadable resume state reads as unknown.
    expect(viaSqlite.resumes).toEqual([
      ["t1", { page: 3 }],
      ["t2", { last: 2 }],
    ]);
  });
});
