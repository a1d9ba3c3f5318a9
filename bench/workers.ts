/**
 * `npm run bench:workers`: posts/s for 1, 2 and 4 `campuswatch worker` processes on one machine,
 * against a local copy of the platforms with politeness delay 0, on a local PostgreSQL.
 *
 * For each worker count: a fresh database, 16 accounts (4 per platform, each on its own local
 * site, so hosts are independent as in reality), the workers started and registered, then every
 * account queued at once; timed from the enqueue until the queue is empty. Every stored post is
 * classified against one topic (the whole pipeline).
 *
 *   npm run bench:workers [-- --workers 1,2,4 --concurrency 2 --accounts-per-platform 4 --posts 60 --latency-ms 0]
 *
 * With --latency-ms 0 the crawl is CPU-bound (parsing, storing, classifying), so workers scale
 * with free cores; a latency like a real network's shows how workers overlap waiting.
 *
 * PostgreSQL: CAMPUSWATCH_BENCH_PG_URL (a server URL; databases are created on it), else the
 * throwaway local server of scripts/pg-local.sh is started.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase } from "../lib/migrate";
import { createDb, type Db } from "../lib/db";
import { createAccount } from "../server/accounts";
import { createPgBossQueue, startBoss } from "../crawler/queue/pg-boss";
import { startLocalPlatforms, type LocalPlatforms } from "../test/support/platforms";
import { pgAdmin } from "../test/support/pg";
import { CLI_ACTOR } from "../lib/audit";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    workers: { type: "string", default: "1,2,4" },
    concurrency: { type: "string", default: "2" },
    "accounts-per-platform": { type: "string", default: "4" },
    posts: { type: "string", default: "60" },
    /** Added to every response, like a real network's round trip (0: CPU-bound). */
    "latency-ms": { type: "string", default: "0" },
  },
});
const workerCounts = values.workers.split(",").map(Number);
const concurrency = Number(values.concurrency);
const perPlatform = Number(values["accounts-per-platform"]);
const postsPerAccount = Number(values.posts);
const latencyMs = Number(values["latency-ms"]);

const serverUrl = process.env.CAMPUSWATCH_BENCH_PG_URL ?? execFileSync("bash", [path.join(root, "scripts/pg-local.sh"), "start"], { encoding: "utf8" }).trim();
const dbUrl = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
const admin = (sql: string) => pgAdmin((c) => c.query(sql), serverUrl);

const platforms = ["weibo", "tieba", "discuz", "blog"] as const;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runOnce(workers: number) {
  const name = `cw_bench_workers_${workers}`;
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = dbUrl(name);
  await migrateDatabase(url);
  const db: Db = createDb(url);
  const sites: LocalPlatforms[] = [];
  // The sites' clock is the wall clock: workers crawl with it.
  const now = new Date();
  for (let k = 0; k < perPlatform; k++) {
    for (const p of platforms) {
      sites.push(
        await startLocalPlatforms({
          seed: 42 + sites.length,
          now,
          accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0, [p]: 1 },
          postsPerAccount,
          repliesPerPost: [0, 12],
          weiboDates: "rfc",
        }),
      );
    }
  }
  if (latencyMs > 0) for (const site of sites) site.fault(() => true, { type: "slow", delayMs: latencyMs });
  const ids: number[] = [];
  for (const site of sites) for (const a of site.accounts) ids.push((await createAccount(db, { url: site.entryUrl(a.key), fetchMode: "http" }, CLI_ACTOR)).id);
  await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "作弊", "期末"]), sensitiveWords: JSON.stringify(["作弊", "代考"]) } });

  const boss = await startBoss(url, { name: "campuswatch bench" });
  const procs: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) {
    procs.push(
      spawn(process.execPath, [path.join(root, "bin/campuswatch.mjs"), "worker", "--concurrency", String(concurrency), "--host-delay-ms", "0"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, CAMPUSWATCH_DATA_DIR: path.join(os.tmpdir(), `${name}-data`) },
        stdio: ["ignore", "ignore", "inherit"],
      }),
    );
  }
  await waitFor("workers to register", async () => (await db.crawlWorker.count({ where: { status: "running" } })) === workers);

  const queue = createPgBossQueue(boss);
  const t0 = performance.now();
  for (const id of ids) await queue.enqueue({ accountId: id, trigger: "manual" });
  await queue.onIdle();
  const seconds = (performance.now() - t0) / 1000;

  const posts = await db.post.count();
  // Posts and replies the sites show (what a complete crawl stores).
  const expected = sites.reduce(
    (n, s) => n + s.accounts.reduce((m, a) => m + s.model.visiblePosts(a).reduce((k, p) => k + 1 + s.model.visibleReplies(p).length, 0), 0),
    0,
  );
  const pages = sites.flatMap((s) => s.requests()).filter((r) => r.kind !== "other").length;
  const failed = await db.crawlRun.count({ where: { status: { not: "ok" } } });

  for (const p of procs) p.kill("SIGTERM");
  await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once("exit", r)))));
  await boss.stop({ graceful: false, wait: true });
  await db.$disconnect();
  await Promise.all(sites.map((s) => s.close()));
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  return { workers, seconds, posts, expected, pages, failed };
}

console.log(
  `bench:workers — ${perPlatform * 4} accounts (${perPlatform} per platform, one local site each), ${postsPerAccount} posts each with 0–12 replies, ` +
    `delay 0, ${latencyMs} ms response latency, ${concurrency} jobs per worker, PostgreSQL ${serverUrl.replace(/\/[^/]*$/, "")}, ${os.cpus().length} CPUs`,
);
const rows = [];
for (const n of workerCounts) {
  const r = await runOnce(n);
  rows.push(r);
  console.log(
    `${n} worker${n > 1 ? "s" : " "}: ${r.posts} posts+replies in ${r.seconds.toFixed(1)} s → ${(r.posts / r.seconds).toFixed(1)} posts/s, ` +
      `${(r.pages / r.seconds).toFixed(1)} pages/s${r.posts === r.expected ? "" : ` (EXPECTED ${r.expected})`}${r.failed ? `, ${r.failed} runs not ok` : ""}`,
  );
}
const base = rows[0]!;
console.log(
  `speed-up over ${base.workers} worker: ${rows.map((r) => `${r.workers}→${(r.posts / r.seconds / (base.posts / base.seconds)).toFixed(2)}×`).join(", ")}`,
);
process.exit(0);
