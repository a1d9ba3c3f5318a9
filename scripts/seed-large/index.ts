/**
 * Fill a database with a year of campus monitoring data for the dashboard benchmark:
 * 1,000,000 posts and replies (by default) across 24 accounts on the four platforms, every post
 * classified against three topics, flags (most older ones reviewed), earlier versions, crawl runs
 * every two hours per account, notifications and three discovery runs with harvest curves.
 *
 *   npm run seed:large -- [--db file:./data/large.db] [--posts 1000000] [--days 365] [--force]
 *   npm run seed:large -- --db postgresql://…/large      # an empty PostgreSQL database
 *
 * Rows are written straight through better-sqlite3 in the exact formats the Prisma driver
 * adapter uses (ISO-8601 text dates, 0/1 booleans), so the triggers of the post_search migration
 * (full-text index, daily roll-up) run exactly as they do for crawled posts.
 *
 * The parts: seed-large/campus.ts (the invented accounts, topics and texts), seed-large/posts.ts
 * (posts, replies, classifications, flags and reviews), seed-large/activity.ts (crawl runs,
 * notifications, discovery runs); seed-large/context.ts holds the random stream they share.
 */
import fs from "node:fs";
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { migrateDatabase } from "../../lib/migrate";
import os from "node:os";
import path from "node:path";
import { databaseKind, redactUrl, sqlitePath } from "../../lib/config";
import { copySqliteToPostgres } from "../../lib/db-copy";
import { hashPassword } from "../../lib/auth/password";
import { DEFAULT_THRESHOLDS } from "../../crawler/classify/relevance-rule";
import { writeCrawlRuns, writeNotificationsAndDiscovery } from "./activity";
import { ACCOUNTS, TOPICS } from "./campus";
import { createRandom, iso, type SeedContext } from "./context";
import { writePosts } from "./posts";
import { flushSearchIndexSync } from "../../lib/search-index";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "file:./data/large.db" },
    posts: { type: "string", default: "1000000" },
    days: { type: "string", default: "365" },
    seed: { type: "string", default: "20261130" },
    force: { type: "boolean", default: false },
  },
});

const TOTAL = Number(args.posts);
const DAYS = Number(args.days);
if (!Number.isInteger(TOTAL) || TOTAL < 1000) throw new Error("--posts must be an integer >= 1000");
if (!Number.isInteger(DAYS) || DAYS < 1) throw new Error("--days must be a positive integer");

const url = args.db;
// PostgreSQL: seed a temporary SQLite file the same way, then copy it over (`campuswatch db copy`),
// so both databases get exactly the same data for the same seed.
const pgTarget = databaseKind(url) === "postgresql" ? url : undefined;
const file = pgTarget ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-seed-")), "large.db") : sqlitePath(url);
if (!pgTarget && fs.existsSync(file)) {
  if (!args.force) {
    console.error(`${file} exists; pass --force to replace it`);
    process.exit(1);
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(file + suffix, { force: true });
}

// Deterministic randomness: one stream for the whole seed (see seed-large/context.ts).
const random = createRandom(Number(args.seed));

// ---- database -------------------------------------------------------------------------------------
console.log(`migrating ${file} …`);
await migrateDatabase(`file:${file}`);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = OFF");
db.pragma("cache_size = -400000");
db.pragma("temp_store = MEMORY");

const now = Date.now();
// Day boundaries at Asia/Shanghai midnight; the last day is today.
const start = Math.floor((now + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000 - (DAYS - 1) * 86_400_000;

// Users: an admin and a reviewer whose reviews appear on old flags.
const password = crypto.randomBytes(9).toString("base64url");
const hash = await hashPassword(password);
const insUser = db.prepare(`INSERT INTO "User"(username, passwordHash, role, createdAt) VALUES (?, ?, ?, ?)`);
insUser.run("admin", hash, "admin", iso(start));
const reviewerId = Number(insUser.run("reviewer", hash, "reviewer", iso(start)).lastInsertRowid);

const insAccount = db.prepare(
  `INSERT INTO "Account"(platform, entryUrl, name, cron, enabled, status, lastRunAt, nextRunAt, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, 'idle', ?, ?, ?, ?)`,
);
const accountIds = ACCOUNTS.map((a) =>
  Number(insAccount.run(a.platform, a.entryUrl, a.name, a.cron, iso(now - 3_600_000), iso(now + 600_000), iso(start), iso(now)).lastInsertRowid),
);

const insTopic = db.prepare(
  `INSERT INTO "Topic"(name, description, enabled, keywords, userDict, sensitiveWords, relevantLabels, nbThreshold, cosineThreshold, modelVersion, trainedAt, evaluation, webhookUrl, createdAt, updatedAt)
   VALUES (?, ?, 1, ?, '[]', ?, '["on-topic"]', ${DEFAULT_THRESHOLDS.nbThreshold}, ${DEFAULT_THRESHOLDS.cosineThreshold}, 1, ?, ?, ?, ?, ?)`,
);
const topicIds = TOPICS.map((t, i) =>
  Number(
    insTopic.run(
      t.name,
      t.description,
      JSON.stringify(t.keywords),
      JSON.stringify(t.sensitive),
      iso(start + 86_400_000),
      JSON.stringify({ accuracy: 0.93 - i * 0.02, precision: 0.9 - i * 0.03, recall: 0.88, f1: 0.89 - i * 0.02, samples: 1200, testSamples: 240 }),
      i === 0 ? "https://hooks.example.edu.cn/campuswatch/exam" : null,
      iso(start),
      iso(now),
    ).lastInsertRowid,
  ),
);

const ctx: SeedContext = { db, random, now, start, days: DAYS, accountIds, topicIds, reviewerId };
const tStart = Date.now();
const counts = writePosts(ctx, TOTAL, tStart);

// Crawl runs: every two hours per account, a few with errors and blocks.
console.log("crawl runs …");
const runs = writeCrawlRuns(ctx);
// Notifications for the topic with a webhook, and discovery runs with harvest curves.
writeNotificationsAndDiscovery(ctx);

// The posts were queued for the full-text index by its triggers: index them all in one statement
// (lib/search-index.ts), as the crawler does after each run.
console.log("search index …");
db.transaction(() => flushSearchIndexSync(db))();
db.pragma("wal_checkpoint(TRUNCATE)");
db.close();
const size = fs.statSync(file).size;
console.log(
  `done in ${((Date.now() - tStart) / 1000).toFixed(0)} s: ${counts.posts.toLocaleString("en")} posts, ${counts.replies.toLocaleString("en")} replies, ` +
    `${counts.flags.toLocaleString("en")} flags (${counts.reviews.toLocaleString("en")} reviewed), ${counts.versions.toLocaleString("en")} edited, ` +
    `${runs.toLocaleString("en")} crawl runs; ${(size / 1e9).toFixed(2)} GB at ${file}`,
);
if (pgTarget) {
  // The target must be empty (the copy refuses otherwise); --force does not drop PostgreSQL data.
  console.log(`copying into ${redactUrl(pgTarget)} …`);
  const t = Date.now();
  await copySqliteToPostgres(`file:${file}`, pgTarget, { log: (l) => console.log(`  ${l}`) });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  console.log(`copied in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}
console.log(`users: admin / reviewer, password ${password}`);
