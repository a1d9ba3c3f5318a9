/**
 * What the dashboard does with discovery: runs in the background of the server process, paused
 * through the run's status, resumed; the queries behind its pages.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiscoveryRun, isRunningHere, runDiscovery, settled, startInBackground, started } from "../../../crawler/discover";
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
  requestPause,
} from "../../../lib/queries/discovery";
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

describe("background runs", () => {
  test("started() resolves once the run is claimed, so a page shown then sees it running", async () => {
    const run = await newRun("bfs", 10);
    expect(startInBackground(db, run.id)).toBe(true);
    await started(run.id);
    expect((await db.discoveryRun.findUniqueOrThrow({ where: { id: run.id } })).status).toMatch(/^(running|done)$/);
    await settled(run.id);
    // Not running here: nothing to wait for.
    await started(run.id);
  });

  test("start in the background, pause through the status, resume to the end", async () => {
    const run = await newRun("focused", 150);
    expect(startInBackground(db, run.id)).toBe(true);
    expect(startInBackground(db, run.id)).toBe(false);
    expect(isRunningHere(run.id)).toBe(true);
    await until(async () => (await db.discoveryRun.findUnique({ where: { id: run.id } }))?.status === "running");
    expect(await requestPause(db, run.id)).toBe(true);
    const paused = await settled(run.id);
    expect(paused).toMatchObject({ status: "paused", reason: "paused" });
    expect(paused?.crawled).toBeLessThan(150);
    expect(isRunningHere(run.id)).toBe(false);
    expect(await requestPause(db, run.id)).toBe(false);

    expect(startInBackground(db, run.id)).toBe(true);
    expect(await settled(run.id)).toMatchObject({ status: "done", reason: "max-pages", crawled: 150 });
  });

  test("a run another process is crawling is not started twice, and the background promise does not reject", async () => {
    const run = await newRun("bfs", 10);
    await db.discoveryRun.update({ where: { id: run.id }, data: { status: "running" } });
    expect(startInBackground(db, run.id)).toBe(true);
    expect(await settled(run.id)).toBeNull();
    expect(await db.discoveryRun.findUnique({ where: { id: run.id }, select: { status: true, crawled: true } })).toEqual({ status: "running", crawled: 0 });
    // Taking over a stale run is explicit.
    expect(startInBackground(db, run.id, { force: true })).toBe(true);
    expect(await settled(run.id)).toMatchObject({ status: "done", crawled: 10 });
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
