/**
 * The rest of a year of activity in the large seed: crawl runs every two hours per account (a few
 * with errors and blocks), webhook notifications for the topic that has one, and three discovery
 * runs with their harvest curves.
 */
import { ACCOUNTS } from "./campus";
import { iso, type SeedContext } from "./context";

/** Crawl runs every two hours per account, a few with errors and blocks; returns how many. */
export function writeCrawlRuns(ctx: SeedContext): number {
  const { db, now, start, accountIds } = ctx;
  const { rand, chance, between } = ctx.random;
  const insRun = db.prepare(
    `INSERT INTO "CrawlRun"(accountId, trigger, status, startedAt, finishedAt, pagesList, pagesItem, pagesOther, browserPages, bytes, newPosts, changedPosts, unchangedPosts, blocks, errorCount, errors, note)
     VALUES (?, 'schedule', ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, '')`,
  );
  let runs = 0;
  db.transaction(() => {
    for (let t = start; t < now; t += 2 * 3_600_000) {
      for (let ai = 0; ai < ACCOUNTS.length; ai++) {
        const at = t + Math.floor(rand() * 600_000);
        if (at > now) continue;
        const blocked = chance(ACCOUNTS[ai]!.platform === "weibo" ? 0.02 : 0.004);
        const errors = blocked ? 1 + Math.floor(rand() * 3) : chance(0.03) ? 1 : 0;
        const status = blocked ? (chance(0.5) ? "failed" : "partial") : errors ? "partial" : "ok";
        const pagesList = blocked ? 1 : 1 + Math.floor(rand() * 3);
        const pagesItem = Math.floor(rand() * 25);
        const duration = (pagesList + pagesItem) * between(1200, 2500);
        const errs = errors
          ? JSON.stringify(
              Array.from({ length: errors }, () => ({
                at: iso(at + duration / 2),
                url: ACCOUNTS[ai]!.entryUrl,
                kind: blocked ? "BlockedError" : "RetryableError",
                reason: blocked ? "HTTP 418: rate limited" : "timeout after 20000 ms",
              })),
            )
          : "[]";
        insRun.run(
          accountIds[ai],
          status,
          iso(at),
          iso(at + duration),
          pagesList,
          pagesItem,
          Math.floor(rand() * 2),
          (pagesList + pagesItem) * 42_000,
          Math.floor(rand() * 12),
          chance(0.1) ? 1 : 0,
          Math.floor(rand() * 30),
          blocked ? 1 : 0,
          errors,
          errs,
        );
        runs++;
      }
    }
  })();
  return runs;
}

/** Notifications of the first topic (the one with a webhook), and discovery runs with harvest curves. */
export function writeNotificationsAndDiscovery(ctx: SeedContext): void {
  const { db, now, start, topicIds } = ctx;
  const { chance } = ctx.random;
  db.exec(`INSERT INTO "Notification"(topicId, crawlRunId, channel, target, payload, status, attempts, lastError, createdAt, sentAt)
    SELECT ${topicIds[0]}, id, 'webhook', 'https://hooks.example.edu.cn/campuswatch/exam', '{"flags":[]}',
           CASE WHEN id % 17 = 0 THEN 'failed' ELSE 'sent' END, CASE WHEN id % 17 = 0 THEN 3 ELSE 1 END,
           CASE WHEN id % 17 = 0 THEN 'HTTP 502 Bad Gateway' ELSE NULL END, finishedAt,
           CASE WHEN id % 17 = 0 THEN NULL ELSE finishedAt END
    FROM "CrawlRun" WHERE id % 97 = 0`);
  const seedSet = Number(db.prepare(`INSERT INTO "SeedSet"(name, createdAt) VALUES ('高校论坛入口', ?)`).run(iso(start)).lastInsertRowid);
  const insSeed = db.prepare(`INSERT INTO "SeedUrl"(seedSetId, url) VALUES (?, ?)`);
  for (const origin of new Set(ACCOUNTS.map((a) => new URL(a.entryUrl).origin))) insSeed.run(seedSet, origin + "/");
  const insDisc = db.prepare(
    `INSERT INTO "DiscoveryRun"(topicId, seedSetId, strategy, status, maxPages, crawled, relevant, createdAt, updatedAt, finishedAt) VALUES (?, ?, ?, 'done', 1000, 1000, ?, ?, ?, ?)`,
  );
  const insHarvest = db.prepare(`INSERT INTO "HarvestPoint"(runId, crawled, relevant) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (const [strategy, quality] of [
      ["focused", 0.62],
      ["best-first", 0.45],
      ["bfs", 0.18],
    ] as const) {
      let rel = 0;
      const at = now - 20 * 86_400_000;
      const run = Number(insDisc.run(topicIds[0], seedSet, strategy, 0, iso(at), iso(at + 3_600_000), iso(at + 3_600_000)).lastInsertRowid);
      for (let c = 1; c <= 1000; c++) {
        const p = quality * (strategy === "bfs" ? 1 : 0.6 + 0.4 * Math.exp(-c / 400));
        if (chance(p)) rel++;
        insHarvest.run(run, c, rel);
      }
      db.prepare(`UPDATE "DiscoveryRun" SET relevant = ? WHERE id = ?`).run(rel, run);
    }
  })();
}
