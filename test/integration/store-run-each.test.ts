/**
 * lib/store runEach (clustering hands it a few posts at a time): the plans run in order, each sees
 * the writes of those before it, each is all or nothing, and a failure stops the run — the plans
 * before it are kept, its own writes and the plans after it are not. The same on both backends
 * (on SQLite the plans share one commit through the group commit).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { storesOf, type PlanDriver } from "../../lib/store";
import { createTestDb, prismaOnly, type TestDb } from "../support/db";

const dbs: TestDb[] = [];
afterEach(async () => {
  for (const t of dbs.splice(0)) await t.cleanup();
});

/** Queue rows: a table with no foreign keys, so plain integers will do. */
type Op = { op: "count" } | { op: "add"; postId: number };

const QUEUE: PlanDriver<Op> = {
  sqlite(sql, op) {
    if (op.op === "count") return (sql.prepare(`SELECT COUNT(*) AS "n" FROM "IncidentQueue"`).get() as { n: number }).n;
    sql.prepare(`INSERT INTO "IncidentQueue" ("postId", "queuedAt") VALUES (?, ?)`).run(op.postId, new Date(0).toISOString());
    return undefined;
  },
  async prisma(tx, op) {
    if (op.op === "count") return tx.incidentQueue.count();
    await tx.incidentQueue.create({ data: { postId: op.postId, queuedAt: new Date(0) } });
    return undefined;
  },
};

/** Add `postId` after reading how many rows there are; throw after the write when asked to. */
function* add(postId: number, fail = false): Generator<Op, number, unknown> {
  const before = Number(yield { op: "count" });
  yield { op: "add", postId };
  if (fail) throw new Error(`plan ${postId} failed`);
  return before;
}

async function rows(db: Db): Promise<number[]> {
  return (await db.incidentQueue.findMany({ orderBy: { postId: "asc" } })).map((r) => r.postId);
}

describe("lib/store runEach", () => {
  for (const backend of ["own connection", "prisma"] as const) {
    it(`runs plans in order, each seeing the ones before; a failure keeps those before it only (${backend})`, async () => {
      const t = await createTestDb();
      dbs.push(t);
      const db = backend === "prisma" ? prismaOnly(t.db) : t.db;
      const stores = storesOf(db);
      expect(
        await stores.runEach(
          [1, 2, 3].map((id) => () => add(id)),
          QUEUE,
        ),
      ).toEqual([0, 1, 2]);
      await expect(stores.runEach([() => add(4), () => add(5, true), () => add(6)], QUEUE)).rejects.toThrow("plan 5 failed");
      expect(await rows(t.db)).toEqual([1, 2, 3, 4]);
      expect(await stores.runEach([], QUEUE)).toEqual([]);
    });
  }
});
