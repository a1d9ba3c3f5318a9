/**
 * lib/db.ts rawSqlite: writes asked for in the same turn of the event loop share one SQLite
 * transaction (group commit), yet each one succeeds or fails alone. On the real SQLite file
 * through Prisma's own connection; PostgreSQL has no raw connection (the suite's PostgreSQL run skips).
 */
import { describe, expect, it } from "vitest";
import { rawSqlite } from "../../lib/db";
import { testDbs } from "../support/db";

const openDb = testDbs();

async function open() {
  const t = await openDb();
  const raw = await rawSqlite(t.db);
  return { ...t, raw };
}

/** Insert an account row with this name, as a write; returns its id. */
const addAccount = (name: string) => (sql: import("better-sqlite3").Database) =>
  Number(
    sql
      .prepare(`INSERT INTO "Account" ("platform", "entryUrl", "name", "updatedAt") VALUES ('blog', ?, ?, ?)`)
      .run(`http://127.0.0.1:1/${name}`, name, new Date().toISOString()).lastInsertRowid,
  );

describe.runIf(process.env.CAMPUSWATCH_TEST_DB !== "postgresql")("group commit on the raw SQLite connection", () => {
  it("commits the writes of one turn together, each with its own result, in order", async () => {
    const { db, raw } = await open();
    const before = { ...raw!.stats };
    const ids = await Promise.all(["a", "b", "c"].map((n) => raw!.transaction(addAccount(n))));
    expect(raw!.stats.writes - before.writes).toBe(3);
    expect(raw!.stats.commits - before.commits).toBe(1);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    const rows = await db.account.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.name)).toEqual(["a", "b", "c"]);
    // Writes of later turns make transactions of their own.
    await raw!.transaction(addAccount("d"));
    await raw!.transaction(addAccount("e"));
    expect(raw!.stats.commits - before.commits).toBe(3);
  });

  it("rolls back only the write that throws: its caller gets the error, the others commit", async () => {
    const { db, raw } = await open();
    const results = await Promise.allSettled([
      raw!.transaction(addAccount("kept-1")),
      raw!.transaction((sql) => {
        addAccount("undone")(sql);
        throw new Error("refused halfway");
      }),
      // A constraint failure halfway through (the same entry URL twice in one write is fine; a NULL name is not).
      raw!.transaction((sql) => {
        addAccount("undone-too")(sql);
        sql.prepare(`INSERT INTO "Account" ("platform", "entryUrl", "name", "updatedAt") VALUES ('blog', 'x', NULL, 'x')`).run();
      }),
      raw!.transaction(addAccount("kept-2")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe("refused halfway");
    expect(((results[2] as PromiseRejectedResult).reason as Error).message).toMatch(/NOT NULL/);
    const names = (await db.account.findMany({ orderBy: { id: "asc" } })).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["kept-1", "kept-2"]));
    expect(names).not.toContain("undone");
    expect(names).not.toContain("undone-too");
  });

  it("a lone write that throws leaves nothing and the connection usable", async () => {
    const { db, raw } = await open();
    await expect(
      raw!.transaction((sql) => {
        addAccount("alone")(sql);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await db.account.count({ where: { name: "alone" } })).toBe(0);
    const id = await raw!.transaction(addAccount("after"));
    expect((await db.account.findUnique({ where: { id } }))?.name).toBe("after");
  });

  it("waits for an open Prisma transaction, and writes queued meanwhile join one group", async () => {
    const { db, raw } = await open();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const prismaTx = db.$transaction(async (tx) => {
      await tx.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/p", name: "prisma" } });
      await held;
    });
    // Let Prisma's transaction take the lock first.
    await new Promise((r) => setTimeout(r, 20));
    const before = { ...raw!.stats };
    const first = raw!.transaction(addAccount("w1"));
    await new Promise((r) => setImmediate(r));
    const second = raw!.transaction(addAccount("w2"));
    release();
    await prismaTx;
    await Promise.all([first, second]);
    expect(raw!.stats.commits - before.commits).toBe(1);
    const names = (await db.account.findMany({ orderBy: { id: "asc" } })).map((r) => r.name);
    expect(names.slice(-3)).toEqual(["prisma", "w1", "w2"]);
  });
});
