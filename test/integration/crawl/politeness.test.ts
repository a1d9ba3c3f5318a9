/**
 * Politeness, measured by the server: accounts crawled in parallel on one host never have two
 * requests in flight there, and requests never start closer together than the host delay.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import { crawlAccount } from "../../../crawler/worker";
import { createInProcessQueue } from "../../../crawler/queue/in-process";
import { crawlFixture, type CrawlFixture } from "./support";

const DELAY_MS = 40;

describe("politeness across parallel account workers", () => {
  let f: CrawlFixture | undefined;
  afterAll(async () => f?.close());

  it("one request in flight per host, starts at least the delay apart", async () => {
    const scheduler = new HostScheduler();
    f = await crawlFixture(
      { seed: 41, accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 1 }, postsPerAccount: 6, repliesPerPost: [0, 3], weiboDates: "rfc" },
      { createFetcher: (a, onRequest) => createFetcher({ mode: a.fetchMode, scheduler, hostDelayMs: DELAY_MS, onRequest, log: () => undefined }) },
    );
    const fx = f;
    const queue = createInProcessQueue(async (job) => void (await crawlAccount(fx.services, job.accountId, "cli")), { concurrency: 4 });
    for (const id of fx.ids.values()) queue.enqueue({ accountId: id, trigger: "cli" });
    await queue.onIdle();

    const log = fx.site.requests();
    expect(log.length).toBeGreaterThan(20);
    // All four accounts ran, and they all live on the one host.
    expect(new Set(log.map((r) => r.accountKey).filter(Boolean)).size).toBe(4);
    expect(log.every((r) => r.inFlightBefore === 0)).toBe(true);
    const sorted = [...log].sort((a, b) => a.startedMs - b.startedMs);
    for (let i = 1; i < sorted.length; i++) {
      const gap = sorted[i]!.startedMs - sorted[i - 1]!.endedMs!;
      // 2 ms of slack for timer granularity between the client's and the server's clocks.
      expect(gap, `${sorted[i - 1]!.url} → ${sorted[i]!.url}`).toBeGreaterThanOrEqual(DELAY_MS - 2);
    }
    expect(await fx.t.db.post.count()).toBe([...fx.ids.keys()].reduce((n, k) => n + fx.expected(k).size, 0));
  });
});
