/**
 * The plain-HTTP and Chromium paths give the same posts on the same local sites.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedBrowser, createFetcher, HostScheduler } from "../../../crawler/fetch";
import { crawlAccount } from "../../../crawler/worker";
import { createAccount } from "../../../server/accounts";
import { createTestDb, type TestDb } from "../../support/db";
import { crawlFixture, type CrawlFixture } from "./support";
import { CLI_ACTOR } from "../../../lib/audit";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = fs.existsSync(chromium);
if (!haveChromium) console.warn(`skipping browser-mode crawl tests: no Chromium at ${chromium} (apt-get install chromium)`);

describe.skipIf(!haveChromium)("fetch modes", () => {
  let f: CrawlFixture;
  let browserDb: TestDb;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 21,
      accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2 },
      postsPerAccount: 5,
      repliesPerPost: [0, 2],
      weiboDates: "rfc",
    });
    browserDb = await createTestDb();
  });
  afterAll(async () => {
    await closeSharedBrowser();
    await browserDb?.cleanup();
    await f?.close();
  });

  it.each(["weibo-1", "tieba-1", "discuz-1", "blog-1", "blog-2"])("%s: http and browser modes store the same posts", async (key) => {
    await f.crawl(key);
    const viaHttp = await f.stored(key);

    const account = await createAccount(browserDb.db, { url: f.site.entryUrl(key), fetchMode: "browser" }, CLI_ACTOR);
    const scheduler = new HostScheduler();
    const run = await crawlAccount(
      {
        db: browserDb.db,
        createFetcher: (a, onRequest) => createFetcher({ mode: a.fetchMode, scheduler, hostDelayMs: 0, onRequest, log: () => undefined }),
        now: () => f.site.clock.now(),
        archiveDir: null,
      },
      account.id,
    );
    expect(run.errors).toEqual([]);
    expect(run.browserPages).toBeGreaterThan(0);
    const rows = await browserDb.db.post.findMany({ where: { accountId: account.id }, include: { parent: { select: { platformId: true } } } });
    const viaBrowser = new Map(rows.map((r) => [r.platformId, r]));
    expect([...viaBrowser.keys()].sort()).toEqual([...viaHttp.keys()].sort());
    for (const [id, h] of viaHttp) {
      const b = viaBrowser.get(id)!;
      expect(b.text, id).toBe(h.text);
      expect(b.title, id).toBe(h.title);
      expect(b.publishedAt.toISOString(), id).toBe(h.publishedAt.toISOString());
      expect(b.parent?.platformId ?? null, id).toBe(h.parentPlatformId);
    }
  });
});
