/**
 * Kill-safe classification: a post stored but not classified — the process killed between the
 * store's commit and the classifier, or the classifier failed — is classified by the account's
 * next crawl, or by the start-up catch-up of `campuswatch start`, so no post is left unscored.
 *
 * The kill is exact: CAMPUSWATCH_TEST_EXIT_AFTER_STORE=1 makes the CLI SIGKILL itself right after
 * the first page that created posts is committed (crawler/worker/index.ts), i.e. before the classifier.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts } from "../../../crawler/classify";
import { crawlFixture, type CrawlFixture } from "./support";
import { testDbKind } from "../../support/pg";

const root = path.resolve(import.meta.dirname, "../../..");

let f: CrawlFixture | undefined;
let dataDir = "";
afterEach(async () => {
  await f?.close();
  f = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = "";
});

/** Run the CLI against the fixture's database; resolves with the exit code, the signal and the output. */
function cli(args: string[], env: Record<string, string> = {}, until?: { pattern: RegExp; then: NodeJS.Signals }) {
  const child = spawn(process.execPath, [path.join(root, "bin/campuswatch.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: f!.t.url, CAMPUSWATCH_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let signalled = false;
  const onData = (d: Buffer) => {
    out += d.toString("utf8");
    if (until && !signalled && until.pattern.test(out)) {
      signalled = true;
      child.kill(until.then);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  // A pattern that never comes must fail the test, not leave a scheduler running.
  const guard = until ? setTimeout(() => child.kill("SIGKILL"), 60_000) : undefined;
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, out });
    });
  });
}

/**
 * A Discuz! board (the CLI crawls with the wall clock, so the site's clock follows it), two enabled
 * topics and a disabled one, and a pinned thread — the first one the crawl stores — whose head
 * post and one reply contain the exam topic's sensitive word.
 */
async function setUp(seed: number) {
  f = await crawlFixture({ seed, now: new Date(), accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 12, repliesPerPost: [1, 5] });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-kill-classify-"));
  const db = f.t.db;
  const exam = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "期末"]), sensitiveWords: JSON.stringify(["作弊"]) } });
  const canteen = await db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["食堂"]) } });
  await db.topic.create({ data: { name: "停用", keywords: JSON.stringify(["图书馆"]), enabled: false } });
  // Pinned: listed first, so it is in the page the killed crawl stores.
  const hot = f.site.addPost("discuz-1", { title: "有人考试作弊被抓", text: "听说昨天有人在考场作弊，被老师当场抓住了。", pinned: true });
  f.site.addReply(hot.id, { text: "作弊的后果很严重，千万别做。", at: f.site.clock.now() });
  const topics = [
    { id: exam.id, words: ["考试", "期末", "作弊"] },
    { id: canteen.id, words: ["食堂"] },
  ];
  return { accountId: f.ids.get("discuz-1")!, topics };
}

/**
 * Every stored post has one Classification per enabled topic, exactly the expected flags, and
 * nothing is queued. Returns the counts, for tests to check that flags were expected at all.
 */
async function expectAllClassified(topics: { id: number; words: string[] }[]) {
  const db = f!.t.db;
  const posts = await db.post.findMany({ select: { id: true, title: true, text: true } });
  expect(posts.length).toBeGreaterThan(0);
  const classifications = await db.classification.findMany({ select: { postId: true, topicId: true } });
  const byPost = new Map<number, number[]>();
  for (const c of classifications)
    byPost.set(
      c.postId,
      [...(byPost.get(c.postId) ?? []), c.topicId].sort((a, b) => a - b),
    );
  const topicIds = topics.map((t) => t.id).sort((a, b) => a - b);
  for (const p of posts) expect(byPost.get(p.id), `classifications of post ${p.id}`).toEqual(topicIds);
  expect(classifications).toHaveLength(posts.length * topics.length);

  // Untrained topics flag on their keywords and sensitive words.
  const expected = posts.flatMap((p) => topics.filter((t) => t.words.some((w) => `${p.title}\n${p.text}`.includes(w))).map((t) => `${p.id}:${t.id}`)).sort();
  const flags = await db.flag.findMany({ select: { postId: true, topicId: true, reasons: true } });
  expect(flags.map((x) => `${x.postId}:${x.topicId}`).sort()).toEqual(expected);
  // The sensitive word is given as a reason wherever it occurs.
  const sensitive = flags.filter((x) => x.reasons.includes('"kind":"sensitive"')).length;
  expect(sensitive).toBe(posts.filter((p) => `${p.title}\n${p.text}`.includes("作弊")).length);
  expect(await db.unclassifiedPost.count()).toBe(0);
  return { posts: posts.length, flags: flags.length, sensitive };
}

/** Crawl with the CLI until its first store commit, where it kills itself; what it left behind. */
async function crawlAndDieAfterFirstStore(accountId: number) {
  const r = await cli(["crawl", "once", "--account", String(accountId), "--host-delay-ms", "0", "--quiet"], { CAMPUSWATCH_TEST_EXIT_AFTER_STORE: "1" });
  expect(r.signal, r.out).toBe("SIGKILL");
  const db = f!.t.db;
  const posts = await db.post.count();
  expect(posts).toBeGreaterThan(0);
  // The page's posts and their queue rows were committed together; the classifier never ran.
  expect(await db.unclassifiedPost.count()).toBe(posts);
  expect(await db.classification.count()).toBe(0);
  expect(await db.flag.count()).toBe(0);
  expect(await db.crawlRun.count({ where: { status: "running" } })).toBe(1);
  return posts;
}

describe("a crawl killed between storing and classifying", () => {
  it("leaves the posts queued, and the next crawl classifies them with the rest", async () => {
    const { accountId, topics } = await setUp(61);
    const killed = await crawlAndDieAfterFirstStore(accountId);

    const rerun = await cli(["crawl", "once", "--account", String(accountId), "--host-delay-ms", "0", "--quiet"]);
    expect(rerun.code, rerun.out).toBe(0);
    // The killed posts were stored already, so the re-crawl found them unchanged: only the
    // catch-up at the start of the crawl can have classified them.
    const run = await f!.t.db.crawlRun.findFirstOrThrow({ where: { status: { not: "failed" } }, orderBy: { id: "desc" } });
    expect(run.unchangedPosts).toBeGreaterThanOrEqual(killed);
    expect(JSON.parse(run.errors)).toEqual([]);
    expect(run.status).toBe("ok");
    const done = await expectAllClassified(topics);
    expect(done.sensitive).toBeGreaterThanOrEqual(2);
    expect((await f!.t.db.crawlRun.findMany({ orderBy: { id: "asc" } })).map((r) => r.status)).toEqual(["failed", "ok"]);
  });

  it("leaves the posts queued, and `campuswatch start` classifies them at start-up", async () => {
    const { accountId, topics } = await setUp(62);
    const killed = await crawlAndDieAfterFirstStore(accountId);
    // Nothing to crawl: only the start-up catch-up can classify them.
    await f!.t.db.account.update({ where: { id: accountId }, data: { enabled: false } });
    // The catch-up is a job the scheduler asks for: on SQLite `start` runs it in-process; on
    // PostgreSQL the scheduler only enqueues and a worker runs jobs, so `start` gets one worker.
    const workers = testDbKind() === "postgresql" ? ["--workers", "1"] : [];
    const r = await cli(["start", "--poll-ms", "60000", ...workers], {}, { pattern: /classified \d+ posts left unclassified/, then: "SIGTERM" });
    expect(r.out).toMatch(/classified \d+ posts left unclassified by an earlier run/);
    expect(r.code, r.out).toBe(0);
    const done = await expectAllClassified(topics);
    expect(done.posts).toBe(killed);
    expect(done.sensitive).toBeGreaterThanOrEqual(2);
  });
});

describe("a classifier that fails", () => {
  it("leaves the posts it did not classify queued, and the next crawl classifies them", async () => {
    let calls = 0;
    f = await crawlFixture(
      { seed: 63, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 12, repliesPerPost: [1, 5] },
      {
        classify: async (db, ids) => {
          // The first call fails (as a model that cannot be read or a database hiccup would).
          if (++calls === 1) throw new Error("classifier unavailable");
          return classifyPosts(db, ids);
        },
      },
    );
    const db = f.t.db;
    const exam = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "期末"]), sensitiveWords: JSON.stringify(["作弊"]) } });
    const canteen = await db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["食堂"]) } });
    const hot = f.site.addPost("discuz-1", { title: "有人考试作弊被抓", text: "听说昨天有人在考场作弊，被老师当场抓住了。" });
    f.site.addReply(hot.id, { text: "作弊的后果很严重，千万别做。", at: f.site.clock.now() });

    const first = await f.crawl("discuz-1");
    expect(first.status).toBe("partial");
    expect(first.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/^classification of \d+ posts failed: classifier unavailable$/)]);
    const left = await db.unclassifiedPost.findMany({ select: { postId: true } });
    expect(left.length).toBeGreaterThan(0);
    // Exactly the posts of the failed call are unscored; every other post was classified.
    expect(await db.classification.count({ where: { postId: { in: left.map((l) => l.postId) } } })).toBe(0);
    expect(await db.classification.count()).toBe(((await db.post.count()) - left.length) * 2);

    const second = await f.crawl("discuz-1");
    expect(second.errors).toEqual([]);
    expect(second.newPosts + second.changedPosts).toBe(0);
    const done = await expectAllClassified([
      { id: exam.id, words: ["考试", "期末", "作弊"] },
      { id: canteen.id, words: ["食堂"] },
    ]);
    expect(done.sensitive).toBeGreaterThanOrEqual(2);
  });
});
