/**
 * `campuswatch db copy`: moving an installation from SQLite to PostgreSQL. The source is a real
 * SQLite database filled by `seed:large` (every kind of row: posts and replies, versions,
 * classifications, flags and reviews, runs, notifications, discovery runs) plus a few rows of the
 * tables the seed leaves empty; the target is an empty PostgreSQL test database. Every row of every
 * table arrives as it was, the day roll-ups that PostgreSQL's triggers build match SQLite's, search
 * finds the same posts, and new rows get new ids.
 *
 * Runs in the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql), which has a server to copy into.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { copySqliteToPostgres } from "../../lib/db-copy";
import { findPostIds } from "../../server/posts";
import { createTestDb, type TestDb } from "../support/db";
import { testDbKind } from "../support/pg";

const root = path.resolve(import.meta.dirname, "../..");
const onPostgres = testDbKind() === "postgresql";
if (!onPostgres) console.log("skipping db copy tests: they need the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql)");

const run = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, BCRYPT_COST: "4", ...env }, maxBuffer: 16 << 20 }, (e, out, err) =>
      resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }),
    ),
  );

/** Prisma model delegates by table, with the key that orders their rows. */
const MODELS = [
  ["User", "user", "id"],
  ["Account", "account", "id"],
  ["SeedSet", "seedSet", "id"],
  ["SeedUrl", "seedUrl", "id"],
  ["Topic", "topic", "id"],
  ["TopicSample", "topicSample", "id"],
  ["Post", "post", "id"],
  ["PostVersion", "postVersion", "id"],
  ["HistoryMark", "historyMark", "id"],
  ["Classification", "classification", "id"],
  ["Flag", "flag", "id"],
  ["Review", "review", "id"],
  ["CrawlRun", "crawlRun", "id"],
  ["Notification", "notification", "id"],
  ["DiscoveryRun", "discoveryRun", "id"],
  ["FrontierUrl", "frontierUrl", "id"],
  ["HarvestPoint", "harvestPoint", "id"],
  ["CandidateAccount", "candidateAccount", "id"],
  ["HostPoliteness", "hostPoliteness", "host"],
  ["SetupToken", "setupToken", "id"],
  ["SignInThrottle", "signInThrottle", "key"],
  ["UnclassifiedPost", "unclassifiedPost", "postId"],
  ["Job", "job", "id"],
  ["TopicEvaluation", "topicEvaluation", "id"],
  // Written by PostgreSQL's trigger as the posts are copied; the copied rows must agree with it.
  ["PostSource", "postSource", "postId"],
] as const;

type Delegate = { findMany(args: object): Promise<Record<string, unknown>[]>; count(): Promise<number> };
const delegate = (db: Db, name: string) => (db as unknown as Record<string, Delegate>)[name]!;

describe.runIf(onPostgres)("campuswatch db copy (SQLite → PostgreSQL)", () => {
  let dir = "";
  let sourceUrl = "";
  let source: Db;
  let target: TestDb;
  let copyOut = "";

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-copy-"));
    sourceUrl = `file:${path.join(dir, "campuswatch.db")}`;
    const seeded = await run([path.join(root, "bin/tsx.mjs"), "scripts/seed-large/index.ts", "--db", sourceUrl, "--posts", "2000", "--days", "30"]);
    expect(seeded.code, seeded.err).toBe(0);
    source = createDb(sourceUrl);
    // Rows of the tables the seed leaves empty.
    const account = await source.account.findFirstOrThrow({ orderBy: { id: "asc" } });
    const run0 = await source.discoveryRun.findFirstOrThrow({ orderBy: { id: "asc" } });
    await source.historyMark.create({ data: { accountId: account.id, newestAt: new Date("2026-11-01T02:03:04.567Z") } });
    await source.frontierUrl.createMany({
      data: [
        { runId: run0.id, url: "http://a.example/1", state: "done", priority: 0.9, layer: 0, seq: 1, anchor: "考试", relevance: 0.8, relevant: true },
        { runId: run0.id, url: "http://a.example/2", state: "todo", priority: 0.4, layer: 1, seq: 2, anchor: "" },
      ],
    });
    await source.candidateAccount.create({ data: { runId: run0.id, url: "https://weibo.com/u/1234567890", platform: "weibo", name: "某某", score: 0.7 } });
    await source.hostPoliteness.create({ data: { host: "a.example:80", lastEndAt: new Date("2026-11-02T00:00:00Z") } });
    await source.setupToken.create({ data: { tokenHash: "a".repeat(64), usedAt: new Date("2026-11-03T00:00:00Z") } });
    await source.signInThrottle.create({ data: { key: "user:alice", points: 3, expire: new Date("2026-11-03T00:15:00Z") } });
    const post = await source.post.findFirstOrThrow({ orderBy: { id: "desc" } });
    await source.unclassifiedPost.create({ data: { postId: post.id } });
    const topic = await source.topic.findFirstOrThrow({ orderBy: { id: "asc" } });
    await source.job.create({
      data: {
        kind: "train",
        key: `topic:${topic.id}`,
        payload: JSON.stringify({ kind: "train", topicId: topic.id }),
        status: "done",
        attempts: 2,
        error: "attempt 1 of 3 stopped: the process running it (h:1:abc) stopped answering 31 s ago",
        result: JSON.stringify({ message: "model v2 trained", step: "trained" }),
        finishedAt: new Date("2026-11-03T00:20:00Z"),
      },
    });
    await source.topicEvaluation.create({
      data: { topicId: topic.id, version: 2, trainSize: 120, reviewSamples: 20, heldOut: 4, precision: 0.75, recall: 1, f1: 0.857, threshold: 0.5 },
    });
    // A date as SQLite's CURRENT_TIMESTAMP writes it (UTC, no zone), copied by a process in
    // another time zone: it must not move.
    const raw = new Database(new URL(sourceUrl.replace(/^file:/, "file://")).pathname);
    raw.prepare(`UPDATE "Notification" SET "createdAt" = '2026-11-02 03:04:05' WHERE "id" = (SELECT min("id") FROM "Notification")`).run();
    raw.close();
    target = await createTestDb();
    const copied = await run([path.join(root, "bin/campuswatch.mjs"), "db", "copy", "--from", sourceUrl, "--to", target.url], { TZ: "Asia/Shanghai" });
    expect(copied.code, copied.err).toBe(0);
    copyOut = copied.out;
  }, 120_000);
  afterAll(async () => {
    await source?.$disconnect();
    await target?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("copies every row of every table as it was", async () => {
    expect(copyOut).toMatch(/^ {2}Post: 2,000 rows in [\d.]+ s$/m);
    // Every table of the schema: those compared below, and the ones empty in this seed (CrawlWorker
    // and WorkerJob, PostgreSQL-only; incidents, audit entries and API tokens, seeded elsewhere).
    const tables = (fs.readFileSync(path.resolve(__dirname, "../../prisma/schema.prisma"), "utf8").match(/^model \w+ \{/gm) ?? []).length;
    expect(tables).toBeGreaterThan(MODELS.length);
    expect(copyOut).toMatch(new RegExp(`^copied [\\d,]+ rows in ${tables} tables in [\\d.]+ s; set DATABASE_URL`, "m"));
    let tablesWithRows = 0;
    for (const [table, model, key] of MODELS) {
      const read = (db: Db) => delegate(db, model).findMany({ orderBy: { [key]: "asc" } });
      const [a, b] = await Promise.all([read(source), read(target.db)]);
      expect(b.length, table).toBe(a.length);
      expect(b, table).toEqual(a);
      if (a.length > 0) tablesWithRows++;
    }
    expect(tablesWithRows).toBe(MODELS.length);
    const first = await target.db.notification.findFirstOrThrow({ orderBy: { id: "asc" } });
    expect(first.createdAt.toISOString()).toBe("2026-11-02T03:04:05.000Z");
    // Replies point at their threads (filled in a second pass).
    expect(await target.db.post.count({ where: { parentId: { not: null } } })).toBeGreaterThan(500);
  });

  it("the day roll-ups built by PostgreSQL's triggers match SQLite's", async () => {
    const sqlite = new Database(new URL(sourceUrl.replace(/^file:/, "file://")).pathname, { readonly: true });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      for (const [table, cols] of [
        ["post_day_stats", ["day", "accountId", "kind", "n"]],
        ["flag_day_stats", ["day", "accountId", "topicId", "status", "n"]],
        ["run_day_stats", ["day", "accountId", "runs", "errors", "blocks"]],
      ] as const) {
        const sql = `SELECT ${cols.map((c) => `"${c}"`).join(", ")} FROM ${table} WHERE ${cols.includes("n" as never) ? `"n" <> 0` : `"runs" <> 0`} ORDER BY ${cols
          .slice(0, -1)
          .map((c) => `"${c}"`)
          .join(", ")}`;
        const norm = (rows: Record<string, unknown>[]) =>
          rows.map((r) => cols.map((c) => (typeof r[c] === "string" && !/^\d+$/.test(r[c]) ? r[c] : Number(r[c]))));
        const a = norm(sqlite.prepare(sql).all() as Record<string, unknown>[]);
        const b = norm((await client.query<Record<string, unknown>>(sql)).rows);
        expect(a.length, table).toBeGreaterThan(0);
        expect(b, table).toEqual(a);
      }
    } finally {
      sqlite.close();
      await client.end();
    }
  });

  it("search finds the same posts on both databases", async () => {
    const probe = await source.post.findFirstOrThrow({ where: { kind: "post" }, orderBy: { id: "asc" } });
    const word = probe.text.replace(/\s+/g, "").slice(2, 6);
    const [a, b] = await Promise.all([
      findPostIds(source, { flagged: false, q: word }, { take: 50 }),
      findPostIds(target.db, { flagged: false, q: word }, { take: 50 }),
    ]);
    expect(a.page.length).toBeGreaterThan(0);
    expect(b.page.map((p) => p.id)).toEqual(a.page.map((p) => p.id));
  });

  it("new rows get new ids after the copied ones", async () => {
    const max = await target.db.post.aggregate({ _max: { id: true } });
    const account = await target.db.account.findFirstOrThrow();
    const p = await target.db.post.create({
      data: { accountId: account.id, platformId: "copy-test", url: "u", publishedAt: new Date(), text: "新帖", sha1: "x" },
    });
    expect(p.id).toBe(max._max.id! + 1);
  });

  it("refuses a target that has data, a missing source and URLs of the wrong kind, and changes nothing", async () => {
    const before = await target.db.post.count();
    await expect(copySqliteToPostgres(sourceUrl, target.url)).rejects.toThrow(/target database is not empty \(table \w+ has rows\)/);
    expect(await target.db.post.count()).toBe(before);
    await expect(copySqliteToPostgres(`file:${path.join(dir, "missing.db")}`, target.url)).rejects.toThrow(/unable to open|does not exist|SQLITE_CANTOPEN/i);
    expect(fs.existsSync(path.join(dir, "missing.db"))).toBe(false);
    const behind = path.join(dir, "behind.db");
    const stale = new Database(behind);
    stale.exec(
      `CREATE TABLE "_prisma_migrations" (migration_name TEXT, finished_at TEXT, rolled_back_at TEXT); INSERT INTO "_prisma_migrations" VALUES ('20261129000000_init', '2026-11-29', NULL)`,
    );
    stale.close();
    await expect(copySqliteToPostgres(`file:${behind}`, target.url)).rejects.toThrow(
      /not up to date \(\d+ migrations missing\): run `DATABASE_URL=file:.*campuswatch db migrate` first/,
    );
    const foreign = path.join(dir, "foreign.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE t (x)");
    other.close();
    await expect(copySqliteToPostgres(`file:${foreign}`, target.url)).rejects.toThrow(/is not a CampusWatch database/);
    await expect(copySqliteToPostgres(target.url, sourceUrl)).rejects.toThrow(/--from must be a SQLite file: URL/);
    await expect(copySqliteToPostgres(sourceUrl, sourceUrl)).rejects.toThrow(/--to must be a postgresql:\/\/ URL/);
    const cli = await run([path.join(root, "bin/campuswatch.mjs"), "db", "copy", "--from", sourceUrl, "--to", target.url]);
    expect(cli.code).toBe(1);
    expect(cli.err.trim()).toMatch(/^campuswatch: the target database is not empty/);
  });
});
