/**
 * Discovery against the local synthetic web (texts written for the tests): strategies compared,
 * politeness, same-site, sensitive words, revisits with conditional GET, work/pause windows,
 * candidates and their adoption, the keyword fallback of an untrained topic.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createDiscoveryRun,
  harvestReport,
  loadTopicJudge,
  revisitDiscovery,
  runDiscovery,
  type Clock,
  type NewDiscoveryRun,
  type StrategyName,
} from "../../../crawler/discover";
import { createFetcher, HostScheduler, type PoliteFetcher } from "../../../crawler/fetch";
import type { Fetcher } from "../../../crawler/types";
import type { Db } from "../../../lib/db";
import { adoptCandidate } from "../../../server/discovery";
import { createTestDb, type TestDb } from "../../support/db";
import type { SyntheticWeb } from "../../support/synthetic-web";
import { createTestTopic, KEYWORDS, startTestWeb, TARGET } from "./support";
import { CLI_ACTOR } from "../../../lib/audit";

let web: SyntheticWeb;
let testDb: TestDb;
let db: Db;
let topicId: number;
let fetcher: PoliteFetcher;

beforeAll(async () => {
  web = await startTestWeb({ articlesPerLabel: 120 });
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

function start(strategy: StrategyName, maxPages: number, extra: Partial<NewDiscoveryRun> = {}) {
  return createDiscoveryRun(db, {
    topic: topicId,
    seeds: { urls: [web.homeUrl(0), web.homeUrl(1)] },
    strategy,
    maxPages,
    ...extra,
    options: { hostDelayMs: 0, ...extra.options },
  });
}

describe("strategies on the synthetic web", () => {
  test("focused harvests more than best-first and bfs, by the classifier and by the generator's labels", async () => {
    // Seeds on the two sites whose speciality is not the topic: the topic has to be found.
    const rates: Record<string, { classifier: number; labels: number }> = {};
    for (const strategy of ["bfs", "best-first", "focused"] as const) {
      const run = await createDiscoveryRun(db, {
        topic: topicId,
        seeds: { urls: [web.homeUrl(1), web.homeUrl(2)] },
        strategy,
        maxPages: 150,
        options: { hostDelayMs: 0 },
      });
      let labelled = 0;
      const s = await runDiscovery(db, run.id, { fetcher, onPage: (e) => void (web.labelOf(e.url) === TARGET && labelled++) });
      expect(s.crawled).toBe(150);
      rates[strategy] = { classifier: s.harvestRate, labels: labelled / s.crawled };
    }
    const { bfs, "best-first": best, focused } = rates as Record<StrategyName, { classifier: number; labels: number }>;
    for (const measure of ["classifier", "labels"] as const) {
      expect(focused[measure], measure).toBeGreaterThan(best[measure]);
      expect(focused[measure], measure).toBeGreaterThanOrEqual(2 * bfs[measure]);
    }
  });

  test("every crawled page leaves a harvest point, and the report reads them at fixed page counts", async () => {
    const run = await start("focused", 120);
    const s = await runDiscovery(db, run.id, { fetcher });
    const points = await db.harvestPoint.findMany({ where: { runId: run.id }, orderBy: { crawled: "asc" } });
    expect(points.map((p) => p.crawled)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(points.at(-1)?.relevant).toBe(s.relevant);
    const report = harvestReport(points);
    expect(report.map((r) => r.pages)).toEqual([100, 120]);
    expect(report[1]?.rate).toBeCloseTo(s.harvestRate, 10);
  });

  test("focused records page types and why links were dropped; home pages are hubs, articles topic pages", async () => {
    const run = await start("focused", 60);
    await runDiscovery(db, run.id, { fetcher });
    const rows = await db.frontierUrl.findMany({ where: { runId: run.id } });
    const home = rows.find((r) => r.url === web.homeUrl(0));
    expect(home).toMatchObject({ pageType: "hub", state: "done", layer: 0 });
    const articles = rows.filter((r) => r.relevant !== null && web.labelOf(r.url) === TARGET && !r.url.endsWith("/"));
    expect(articles.length).toBeGreaterThan(20);
    expect(articles.every((r) => r.pageType === "topic")).toBe(true);
    const reasons = rows.filter((r) => r.state === "irrelevant" && r.relevant === null).map((r) => r.reason ?? "");
    // The menus fail the anchor-length rule, the off-topic "热门推荐" boxes a rule or the block classifier.
    expect(reasons.some((r) => /rule anchor-length/.test(r))).toBe(true);
    expect(reasons.some((r) => /rule title-words|classifier/.test(r))).toBe(true);
    // Every URL is in exactly one state.
    expect(new Set(rows.map((r) => r.url)).size).toBe(rows.length);
    expect(rows.every((r) => ["todo", "irrelevant", "done"].includes(r.state))).toBe(true);
  });

  test("links whose text holds a sensitive word are dropped by every strategy", async () => {
    const run = await start("bfs", 80);
    await runDiscovery(db, run.id, { fetcher });
    const dropped = await db.frontierUrl.findMany({ where: { runId: run.id, reason: { contains: "sensitive word" } } });
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((r) => r.state === "irrelevant" && r.fetchedAt === null && /"博彩"/.test(r.reason ?? ""))).toBe(true);
  });

  test("same-site keeps the crawl on the seeds' sites", async () => {
    const before = web.requests.length;
    const run = await createDiscoveryRun(db, {
      topic: topicId,
      seeds: { urls: [web.homeUrl(2)] },
      strategy: "bfs",
      maxPages: 60,
      options: { hostDelayMs: 0, sameSite: true },
    });
    await runDiscovery(db, run.id, { fetcher });
    const hosts = new Set(web.requests.slice(before).map((r) => r.host));
    expect([...hosts]).toEqual([2]);
    expect(await db.frontierUrl.count({ where: { runId: run.id, reason: "off the seeds' sites" } })).toBeGreaterThan(0);
  });

  test("candidate accounts come from sites with enough relevant pages, and adopting one registers it once", async () => {
    const run = await start("focused", 100, { options: { candidateMinPages: 3 } });
    await runDiscovery(db, run.id, { fetcher });
    const candidates = await db.candidateAccount.findMany({ where: { runId: run.id }, orderBy: { relevantPages: "desc" } });
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.every((c) => c.relevantPages >= 3 && c.platform === "blog" && c.url.endsWith("/"))).toBe(true);
    const first = candidates[0]!;
    const adopted = await adoptCandidate(db, first.id, CLI_ACTOR);
    expect(adopted.created).toBe(true);
    expect(await db.account.findUnique({ where: { id: adopted.accountId } })).toMatchObject({ entryUrl: first.url, platform: "blog" });
    expect(await adoptCandidate(db, first.id, CLI_ACTOR)).toEqual({ accountId: adopted.accountId, created: false });
  });

  test("an untrained topic falls back to keyword cosine", async () => {
    const bare = await db.topic.create({ data: { name: "体育-keywords", keywords: JSON.stringify(KEYWORDS) } });
    expect((await loadTopicJudge(db, bare.id)).judge.kind).toBe("keywords");
    const run = await createDiscoveryRun(db, {
      topic: bare.id,
      seeds: { urls: [web.homeUrl(0)] },
      strategy: "focused",
      maxPages: 40,
      options: { hostDelayMs: 0 },
    });
    const s = await runDiscovery(db, run.id, { fetcher });
    expect(s.crawled).toBeGreaterThan(0);
    expect(s.relevant).toBeGreaterThan(0);
  });

  test("unreachable seeds and links are irrelevant and not counted as crawled pages", async () => {
    const dead = "http://127.0.0.1:9/nothing-listens-here";
    const run = await createDiscoveryRun(db, {
      topic: topicId,
      seeds: { urls: [dead, `${web.homeUrl(0)}no-such-page.html`] },
      strategy: "bfs",
      maxPages: 10,
      options: { hostDelayMs: 0 },
    });
    const s = await runDiscovery(db, run.id, { fetcher });
    expect(s).toMatchObject({ crawled: 0, reason: "exhausted", status: "done" });
    const rows = await db.frontierUrl.findMany({ where: { runId: run.id } });
    expect(rows.every((r) => r.state === "irrelevant" && /^unreachable/.test(r.reason ?? ""))).toBe(true);
  });
});

describe("revisits", () => {
  test("conditional GET answers 304 for unchanged pages; a changed article is processed again", async () => {
    const run = await start("bfs", 40);
    await runDiscovery(db, run.id, { fetcher });
    const crawled = await db.frontierUrl.findMany({ where: { runId: run.id, relevant: { not: null } } });

    const first = await revisitDiscovery(db, run.id, { fetcher });
    expect(first).toMatchObject({ checked: crawled.length, notModified: crawled.length, changed: 0, unchanged: 0, failed: 0 });

    // Edit a crawled 体育 article so that it reads like finance.
    const articleId = web.model.articles.find((a) => a.label === TARGET && crawled.some((c) => c.url === web.articleUrl(a.id)))!.id;
    const before = crawled.find((c) => c.url === web.articleUrl(articleId))!;
    expect(before.relevant).toBe(true);
    web.editArticle(articleId, "央行宣布下调存款准备金率零点五个百分点。股市今日震荡走高，沪指收涨百分之一。债券市场收益率下行，投资者避险情绪升温。");

    const second = await revisitDiscovery(db, run.id, { fetcher });
    const articles = crawled.filter((c) => web.model.articles.some((a) => web.articleUrl(a.id) === c.url)).length;
    // Articles keep their ETag except the edited one; hubs get a new ETag (the web changed) but
    // show the same titles, so their checkpoint (MD5 + length) is unchanged.
    expect(second).toMatchObject({ checked: crawled.length, changed: 1, notModified: articles - 1, unchanged: crawled.length - articles });
    const after = await db.frontierUrl.findUnique({ where: { runId_url: { runId: run.id, url: before.url } } });
    expect(after?.relevant).toBe(false);
    expect(after?.checksum).not.toBe(before.checksum);
    expect(after?.etag).not.toBe(before.etag);
  });
});

describe("politeness", () => {
  let polite: SyntheticWeb;
  beforeAll(async () => {
    polite = await startTestWeb({ articlesPerLabel: 40 }, { robotsTxt: (site) => (site.index === 0 ? "User-agent: *\nDisallow: /sitemap.html\n" : null) });
  });
  afterAll(async () => polite?.close());

  test("robots.txt is obeyed and no host ever sees two requests at once", async () => {
    const run = await createDiscoveryRun(db, {
      topic: topicId,
      seeds: { urls: [polite.homeUrl(0), polite.homeUrl(1)] },
      strategy: "bfs",
      maxPages: 120,
      options: { hostDelayMs: 1 },
    });
    const own = createFetcher({ mode: "http", scheduler: new HostScheduler(), hostDelayMs: 1, retries: 0, log: () => undefined });
    try {
      await runDiscovery(db, run.id, { fetcher: own });
    } finally {
      await own.close();
    }
    expect(polite.requests.filter((r) => r.host === 0 && r.path === "/sitemap.html")).toEqual([]);
    expect(polite.requests.some((r) => r.host === 1 && r.path === "/sitemap.html")).toBe(true);
    const refused = await db.frontierUrl.findUnique({ where: { runId_url: { runId: run.id, url: `${polite.homeUrl(0)}sitemap.html` } } });
    expect(refused).toMatchObject({ state: "irrelevant", reason: expect.stringMatching(/robots\.txt/) });
    expect(polite.maxInFlight()).toBe(0);
  });

  test("work and pause windows: the loop pauses after each work window, on the run's clock", async () => {
    let now = 0;
    const sleeps: { at: number; ms: number }[] = [];
    let crawled = 0;
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push({ at: crawled, ms });
        now += ms;
      },
    };
    // Every fetch takes 100 ms on this clock.
    const slow: Fetcher = { get: async (url, o) => ((now += 100), fetcher.get(url, o)) };
    const run = await createDiscoveryRun(db, {
      topic: topicId,
      seeds: { urls: [polite.homeUrl(1)] },
      strategy: "bfs",
      maxPages: 35,
      options: { hostDelayMs: 0, workMs: 1_000, pauseMs: 5_000 },
    });
    const s = await runDiscovery(db, run.id, { fetcher: slow, clock, onPage: (e) => void (crawled = e.crawled) });
    expect(s.crawled).toBe(35);
    const pausedAt = [...new Set(sleeps.map((x) => x.at))];
    expect(pausedAt).toEqual([10, 20, 30]);
    for (const at of pausedAt) expect(sleeps.filter((x) => x.at === at).reduce((t, x) => t + x.ms, 0)).toBe(5_000);
  });
});
