/**
 * Per-host politeness shared through PostgreSQL: two PgHostScheduler instances stand for two
 * worker processes (each has its own connections, as separate processes do). Requests to one
 * host never overlap and keep the delay between them whichever instance makes them; a
 * Retry-After hold-off set by one holds the other back; other hosts are not delayed; a request
 * that throws still releases the host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgHostScheduler } from "../../../crawler/fetch/pg-politeness";
import { createTestDb, type TestDb } from "../../support/db";
import { testDbKind } from "../../support/pg";

const onPostgres = testDbKind() === "postgresql";
if (!onPostgres) console.log("skipping shared-politeness tests: they need the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql)");

describe.runIf(onPostgres)("PgHostScheduler", () => {
  let t: TestDb;
  let a: PgHostScheduler;
  let b: PgHostScheduler;
  beforeAll(async () => {
    t = await createTestDb();
    a = new PgHostScheduler(t.url);
    b = new PgHostScheduler(t.url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.cleanup();
  });

  it("one request at a time per host across instances, the delay kept between them", async () => {
    const spans: { who: string; start: number; end: number }[] = [];
    const task = (who: string) => async () => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 10));
      spans.push({ who, start, end: performance.now() });
    };
    const DELAY = 30;
    await Promise.all([
      ...Array.from({ length: 4 }, () => a.run("h1.test:80", DELAY, task("a"))),
      ...Array.from({ length: 4 }, () => b.run("h1.test:80", DELAY, task("b"))),
    ]);
    spans.sort((x, y) => x.start - y.start);
    expect(new Set(spans.map((s) => s.who))).toEqual(new Set(["a", "b"]));
    // The delay is timed from the database's clock after the task ends; 2 ms for rounding to
    // the column's millisecond precision and timer granularity.
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start - spans[i - 1]!.end).toBeGreaterThanOrEqual(DELAY - 2);
  });

  it("a hold-off set by one instance holds the other back; other hosts go on", async () => {
    a.holdOff("h2.test:80", 400);
    expect(a.holdOffRemaining("h2.test:80")).toBeGreaterThan(300);
    // Let the hold-off reach the database (holdOff is fire-and-forget for the caller).
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    const order: string[] = [];
    const other = b.run("h3.test:80", 0, async () => order.push("other"));
    const held = b.run("h2.test:80", 0, async () => {
      order.push("held");
      return performance.now() - t0;
    });
    await other;
    expect(await held).toBeGreaterThanOrEqual(340);
    expect(order).toEqual(["other", "held"]);
    // b learnt of the hold-off while waiting.
    expect(b.holdOffRemaining("h2.test:80")).toBe(0);
  });

  it("a request that throws releases the host for the next", async () => {
    await expect(a.run("h4.test:80", 0, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await b.run("h4.test:80", 0, async () => "next")).toBe("next");
  });
});
