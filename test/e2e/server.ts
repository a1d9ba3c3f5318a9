/**
 * The web server of the browser tests (Playwright's webServer): a fresh database (SQLite, or a
 * PostgreSQL database on CAMPUSWATCH_TEST_PG_URL when CAMPUSWATCH_TEST_DB=postgresql; migrated,
 * with one admin and one reviewer and the topic "考试"), a local platform site, the scheduler
 * (polling every 500 ms, no politeness delay) and `next start` on the production build in
 * NEXT_DIST_DIR. It writes test-results/e2e-data/env.json for the specs:
 * `{ platformOrigin, accounts: { blog, weibo, tieba, discuz }, hostileBlog, threads, incidents }` (entry URLs to register;
 * `threads`: the ids seed-threads.ts wrote; `incidents`: test/support/incidents-seed.ts's sets "en", "zh" and "phone").
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_USERS } from "./users";
import { freshE2eDatabase } from "./database";

const port = process.env.E2E_PORT ?? "3107";
const dir = path.resolve("test-results/e2e-data");
const url = await freshE2eDatabase(dir, "cw_e2e");
// lib/db.ts reads DATABASE_URL when first imported: set it before importing anything that uses it.
process.env.DATABASE_URL = url;
process.env.CAMPUSWATCH_DATA_DIR = dir;
const { db } = await import("../../lib/db");
const { createUser } = await import("../../lib/users");
const { startLocalPlatforms } = await import("../support/platforms");
const { startScheduler } = await import("../../crawler/commands/crawl");

for (const u of Object.values(E2E_USERS)) await createUser(db, u);
const examTopic = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "作弊"]), sensitiveWords: JSON.stringify(["作弊"]) } });
// Threaded replies, deletions and run warnings for field-ready.spec.ts.
const { seedThreads } = await import("./seed-threads");
const threads = await seedThreads(db, examTopic.id);
// Posts with a sentiment for sentiment-rules.spec.ts.
await (await import("./seed-sentiment")).seedSentiment(db);
// Flags, versions and an incident of its own for the API spec.
const { seedApi } = await import("./seed-api");
const api = await seedApi(db, examTopic.id);
// Incidents for incidents.spec.ts: one set per locale, so the English and Chinese runs do not meet.
const { seedIncidents } = await import("../support/incidents-seed");
// A third set for phone.spec.ts (a reviewer's day at 390 px), low in heat so the other sets lead the list.
const incidents = {
  en: await seedIncidents(db, { tag: "en" }),
  zh: await seedIncidents(db, { tag: "zh" }),
  phone: await seedIncidents(db, { tag: "phone", heatBase: 0 }),
};

// Remote content in hostile posts points at loopback only: if the sanitizer ever failed, the
// request would stay on this machine (and the specs watch for it).
const site = await startLocalPlatforms({
  seed: 5,
  now: new Date(),
  accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2 },
  postsPerAccount: 12,
  repliesPerPost: [0, 3],
  weiboDates: "rfc",
});
// Like a real site, its relative dates follow the wall clock.
setInterval(() => site.clock.set(new Date()), 1000).unref();
site.addPost("blog-1", { title: "期末考试有人作弊被抓了", text: "听说昨天的高数期末考试有人作弊，被监考老师当场抓住。" });
site.addPost("blog-2", {
  title: "含有恶意代码的帖子",
  html:
    '<p>考试作弊的讨论</p><script>alert("xss-script")</script>' +
    '<img src="x" onerror="alert(\'xss-img\')">' +
    "<a href=\"javascript:alert('xss-link')\">点我</a>" +
    `<img src="${site.origin}/tracker.png">`,
});
// A seed set for the discovery spec: the local blogs' home pages.
await db.seedSet.create({
  data: { name: "本地博客", urls: { create: [{ url: site.entryUrl("blog-1") }, { url: site.entryUrl("blog-2") }] } },
});
fs.writeFileSync(
  path.join(dir, "env.json"),
  JSON.stringify({
    platformOrigin: site.origin,
    accounts: { blog: site.entryUrl("blog-1"), weibo: site.entryUrl("weibo-1"), tieba: site.entryUrl("tieba-1"), discuz: site.entryUrl("discuz-1") },
    hostileBlog: site.entryUrl("blog-2"),
    threads,
    api,
    incidents,
  }),
);

// On PostgreSQL the scheduler only enqueues; one worker in this process runs the jobs.
const scheduler = await startScheduler({ hostDelayMs: 0, pollMs: 500, workers: 1, log: () => undefined });

// The dashboard server `campuswatch serve` runs, with the test clock on (bin/test-clock.mjs): the
// throttle spec moves the server's time past the sign-in cool-off by writing this file.
fs.writeFileSync(path.join(dir, "clock-offset-ms"), "0");
// A small API rate limit, so the API spec reaches it in a few requests (lib/api-v1.ts).
process.env.CAMPUSWATCH_API_RATE_PER_MINUTE = "40";
const child = spawn(process.execPath, ["bin/dashboard-server.mjs", "--port", port, "--host", "127.0.0.1"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", CAMPUSWATCH_TEST_CLOCK_FILE: path.join(dir, "clock-offset-ms") },
});
const stop = () => {
  child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => {
  scheduler.scheduler.stop();
  // Exit with the server's code once the demo site is closed, or at once if closing it fails.
  void site.close().finally(() => process.exit(code ?? 0));
});
