/**
 * What the dashboard does with discovery: asks for a run (a job a worker takes: crawler/jobs/),
 * pauses it through the run's status, resumes it; the queries behind its pages.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiscoveryRun, runDiscovery } from "../../../crawler/discover";
import { createJobRunner } from "../../../crawler/jobs";
import type { Db } from "../../../lib/db";
import {
  comparisonGroups,
  dropReasons,
  getDiscoveryRun,
  harvestCurves,
  isStale,
  listDiscoveryRuns,
  nextInFrontier,
  recentPages,
  requestDiscoveryRun,
  requestPause,
} from "../../../server/discovery";
import { createTestDb, type TestDb } from "../../support/db";
import type { SyntheticWeb } from "../../support/synthetic-web";
import { createTestTopic, startTestWeb } from "./support";

let web: SyntheticWeb;
let testDb: TestDb;
let db: Db;
let topicId: number;

beforeAll(async () => {
  web = await startTestWeb({ articlesPerLabel: 120 });
  testDb = await createTestDb();
  db = testDb.db;
  topicId = (await createTestTopic(db)).id;
});
afterAll(async () => {
  await web?.close();
  await testDb?.cleanup();
});

// The synthetic web's other loopback hosts are not seeds: the run trusts them explicitly, or
// its address policy would refuse them as internal.
const newRun = (strategy: "bfs" | "best-first" | "focused", maxPages: number) =>
  createDiscoveryRun(db, {
    topic: topicId,
    seeds: { urls: [web.homeUrl(1), web.homeUrl(2)] },
    strategy,
    maxPages,
    options: { hostDelayMs: 0, trustedHosts: [...web.origins.sites, web.origins.farm].filter(Boolean) },
  });

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
}

/** An accepted request: no refusal, and the discovery job it queued. */
function expectQueued(r: Awaited<ReturnType<typeof requestDiscoveryRun>>): void {
  expect(r.refused).toBeUndefined();
  expect(r.job).toMatchObject({ kind: "discover", status: "queued" });
}

describe("runs asked for from the dashboard (jobs)", () => {
  const runner = () => createJobRunner({ db, heartbeatMs: 50 });
  const jobOf = async (runId: number) => db.job.findFirstOrThrow({ where: { key: `discover:${runId}` }, orderBy: { id: "desc" } });

  test("asking only queues: the run waits 'queued' with one job, a second ask finds it", async () => {
    const run = await newRun("bfs", 10);
    expectQueued(await requestDiscoveryRun(db, run.id, null));
    expect((await db.discoveryRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("queued");
    expect(await requestDiscoveryRun(db, run.id, null)).toMatchObject({ refused: "alreadyRunning", job: { kind: "discover" } });
    expect(await db.job.count({ where: { key: `discover:${run.id}` } })).toBe(1);
    const done = await runner().run((await jobOf(run.id)).id);
    expect(done).toMatchObject({ status: "done", result: { step: "discovered", values: { status: "done", crawled: 10 } } });
    expect(await db.discoveryRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, crawled: true } })).toEqual({
      status: "done",
      crawled: 10,
    });
  });

  test("pause through the status while a worker runs it, resume to the end", async () => {
    const run = await newRun("focused", 150);
    await requestDiscoveryRun(db, run.id, null);
    const r = runner();
    const running = r.run((await jobOf(run.id)).id);
    await until(async () => (await db.discoveryRun.findUnique({ where: { id: run.id } }))?.status === "running");
    expect(await requestPause(db, run.id)).toBe(true);
    const first = await running;
    expect(first).toMatchObject({ status: "done", result: { values: { status: "paused" } } });
    const paused = await db.discoveryRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(paused.status).toBe("paused");
    expect(paused.crawled).toBeLessThan(150);
    expect(await requestPause(db, run.id)).toBe(false);

    expectQueued(await requestDiscoveryRun(db, run.id, null));
    expect(await r.run((await jobOf(run.id)).id)).toMatchObject({ status: "done", result: { values: { status: "done", crawled: 150 } } });
  });

  test("paused before a worker took it: the job is withdrawn and the run stays paused", async () => {
    const run = await newRun("bfs", 10);
    await requestDiscoveryRun(db, run.id, null);
    expect(await requestPause(db, run.id)).toBe(true);
    const job = await jobOf(run.id);
    expect(job).toMatchObject({ status: "cancelled" });
    expect(await runner().run(job.id)).toBeNull();
    expect(await db.discoveryRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, crawled: true } })).toEqual({
      status: "paused",
      crawled: 0,
    });
  });

  test("a run another process is crawling is refused; a stale one is taken over", async () => {
    const run = await newRun("bfs", 10);
    await db.discoveryRun.update({ where: { id: run.id }, data: { status: "running" } });
    expect(await requestDiscoveryRun(db, run.id, null)).toEqual({ refused: "otherProcess" });
    expect(await db.job.count({ where: { key: `discover:${run.id}` } })).toBe(0);
    // Stale: nothing written for longer than STALE_AFTER_MS.
    await db.discoveryRun.update({ where: { id: run.id }, data: { updatedAt: new Date(Date.now() - 10 * 60_000) } });
    expectQueued(await requestDiscoveryRun(db, run.id, null));
    const job = await jobOf(run.id);
    expect(JSON.parse(job.payload)).toMatchObject({ kind: "discover", force: true });
    expect(await runner().run(job.id)).toMatchObject({ status: "done", result: { values: { status: "done", crawled: 10 } } });
  });
});

describe("dashboard queries", () => {
  test("runs, one run, curves side by side, frontier, recent pages and drop reasons", async () => {
    const ids: number[] = [];
    for (const strategy of ["bfs", "best-first", "focused"] as const) {
      const run = await newRun(strategy, 60);
      await runDiscovery(db, run.id);
      ids.push(run.id);
    }
    const list = await listDiscoveryRuns(db);
    expect(list.map((r) => r.id)).toEqual(expect.arrayContaining(ids));
    const detail = await getDiscoveryRun(db, ids[2]!);
    expect(detail).toMatchObject({ strategy: "focused", crawled: 60, topic: { name: "体育" } });
    expect(detail!.frontier.done + detail!.frontier.irrelevant + detail!.frontier.todo).toBe(await db.frontierUrl.count({ where: { runId: ids[2]! } }));

    const groups = await comparisonGroups(db);
    const mine = groups.find((g) => g.topicId === topicId);
    expect(mine?.runIds).toEqual(ids); // latest run per strategy, in the order bfs, best-first, focused
    const curves = await harvestCurves(db, ids);
    expect(curves.map((c) => c.key)).toEqual([`#${ids[0]} bfs`, `#${ids[1]} best-first`, `#${ids[2]} focused`]);
    expect(curves.every((c) => c.points.length === 60)).toBe(true);

    const next = await nextInFrontier(db, ids[2]!);
    expect(next.map((n) => n.priority)).toEqual([...next.map((n) => n.priority)].sort((a, b) => b - a));
    expect((await recentPages(db, ids[2]!)).length).toBe(20);
    const reasons = await dropReasons(db, ids[2]!);
    expect(reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(["block rule: anchor-length"]));
    expect(isStale({ status: "running", updatedAt: new Date(Date.now() - 10 * 60_000) })).toBe(true);
    expect(isStale({ status: "paused", updatedAt: new Date(0) })).toBe(false);
  });
});
