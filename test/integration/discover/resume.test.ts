/**
 * Pause and resume: a discovery stopped after 300 pages and resumed reaches the same pages, in
 * the same order, as an uninterrupted run with the same seeds and strategy. Stopped the way the
 * dashboard stops it (status set to "paused" in the database, seen by the loop between pages),
 * with a flush interval that does not divide 300, so the stop point is not a batch boundary.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiscoveryRun, runDiscovery, STRATEGIES, type StrategyName } from "../../../crawler/discover";
import { createFetcher, HostScheduler, type PoliteFetcher } from "../../../crawler/fetch";
import type { Db } from "../../../lib/db";
import { createTestDb, type TestDb } from "../../support/db";
import type { SyntheticWeb } from "../../support/synthetic-web";
import { createTestTopic, startTestWeb } from "./support";

const MAX_PAGES = 380;
const STOP_AT = 300;

let web: SyntheticWeb;
let testDb: TestDb;
let db: Db;
let topicId: number;
let fetcher: PoliteFetcher;

beforeAll(async () => {
  web = await startTestWeb({ articlesPerLabel: 300 });
  testDb = await createTestDb();
  db = testDb.db;
  topicId = (await createTestTopic(db)).id;
  fetcher = createFetcher({ mode: "http", scheduler: new HostScheduler(), hostDelayMs: 0, retries: 0, log: () => undefined });
});
afterAll(async () => {
  await fetcher?.close();
  await web?.close();
  await testDb?.cleanup();
});

async function newRun(strategy: StrategyName) {
  return createDiscoveryRun(db, {
    topic: topicId,
    seeds: { urls: [web.homeUrl(0), web.homeUrl(1)] },
    strategy,
    maxPages: MAX_PAGES,
    options: { hostDelayMs: 0 },
  });
}

async function crawledUrls(runId: number): Promise<string[]> {
  const rows = await db.frontierUrl.findMany({ where: { runId, relevant: { not: null } }, select: { url: true }, orderBy: { url: "asc" } });
  return rows.map((r) => r.url);
}

describe("a discovery stopped after 300 pages and resumed", () => {
  test.each(STRATEGIES)("%s: reaches the same pages as an uninterrupted run", { timeout: 120_000 }, async (strategy) => {
    const whole = await newRun(strategy);
    const wholeOrder: string[] = [];
    const uninterrupted = await runDiscovery(db, whole.id, { fetcher, onPage: (e) => void wholeOrder.push(e.url) });
    expect(uninterrupted.crawled).toBe(MAX_PAGES);

    const split = await newRun(strategy);
    const splitOrder: string[] = [];
    const first = await runDiscovery(db, split.id, {
      fetcher,
      flushEvery: 7,
      onPage: async (e) => {
        splitOrder.push(e.url);
        // What the dashboard's Pause button does.
        if (e.crawled === STOP_AT) await db.discoveryRun.update({ where: { id: split.id }, data: { status: "paused" } });
      },
    });
    expect(first).toMatchObject({ status: "paused", reason: "paused", crawled: STOP_AT });
    expect(await db.harvestPoint.count({ where: { runId: split.id } })).toBe(STOP_AT);
    expect(await db.discoveryRun.findUnique({ where: { id: split.id }, select: { crawled: true, status: true } })).toEqual({
      crawled: STOP_AT,
      status: "paused",
    });

    const second = await runDiscovery(db, split.id, { fetcher, flushEvery: 7, onPage: (e) => void splitOrder.push(e.url) });
    expect(second).toMatchObject({ status: "done", reason: "max-pages", crawled: MAX_PAGES, relevant: uninterrupted.relevant });

    expect(splitOrder).toEqual(wholeOrder);
    expect(await crawledUrls(split.id)).toEqual(await crawledUrls(whole.id));
    // The two stored frontiers agree URL for URL, state for state.
    const frontier = async (runId: number) =>
      (await db.frontierUrl.findMany({ where: { runId }, select: { url: true, state: true, priority: true, seq: true }, orderBy: { seq: "asc" } })).map(
        (r) => `${r.seq} ${r.state} ${r.priority} ${r.url}`,
      );
    expect(await frontier(split.id)).toEqual(await frontier(whole.id));
    const curve = async (runId: number) => (await db.harvestPoint.findMany({ where: { runId }, orderBy: { crawled: "asc" } })).map((p) => p.relevant);
    expect(await curve(split.id)).toEqual(await curve(whole.id));
  });

  test("a run cannot be started twice, and --force takes over a run left 'running'", async () => {
    const run = await newRun("bfs");
    await db.discoveryRun.update({ where: { id: run.id }, data: { status: "running" } });
    await expect(runDiscovery(db, run.id, { fetcher })).rejects.toThrow(/already running/);
    const s = await runDiscovery(db, run.id, { fetcher, force: true, stopAfter: 5 });
    expect(s).toMatchObject({ status: "paused", reason: "stop-after", crawled: 5 });
  });
});
