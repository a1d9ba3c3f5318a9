/**
 * `npm run bench:crawl`: a full crawl of a local copy of the platforms with politeness delay 0 and
 * 8 accounts in parallel, then an incremental re-crawl with nothing new.
 * Every stored post is classified against one topic (the whole pipeline).
 * Prints pages/s, posts/s (posts and replies stored), peak RSS, and the re-crawl's request count.
 *
 *   npm run bench:crawl [-- --accounts-per-platform 4 --posts 100 --concurrency 8]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase } from "../lib/migrate";
import { createDb } from "../lib/db";
import { createAccount } from "../server/accounts";
import { createFetcher, HostScheduler } from "../crawler/fetch";
import { crawlAccount, type WorkerServices } from "../crawler/worker";
import { classifyPosts } from "../crawler/classify";
import { createInProcessQueue } from "../crawler/queue/in-process";
import { startLocalPlatforms, type LocalPlatforms } from "../test/support/platforms";
import { CLI_ACTOR } from "../lib/audit";

const { values } = parseArgs({
  options: {
    "accounts-per-platform": { type: "string", default: "4" },
    posts: { type: "string", default: "100" },
    concurrency: { type: "string", default: "8" },
    /** Another (empty, migrated or not) database, e.g. a postgresql:// URL. @default a temp SQLite file */
    "db-url": { type: "string" },
  },
});
const perPlatform = Number(values["accounts-per-platform"]);
const postsPerAccount = Number(values.posts);
const concurrency = Number(values.concurrency);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-crawl-"));
const url = values["db-url"] ?? `file:${path.join(dir, "bench.db")}`;
await migrateDatabase(url);
const db = createDb(url);
// One local site per account, so that accounts live on different hosts as they do in reality
// (per-host politeness would otherwise serialise the whole benchmark onto one host).
const platforms = ["weibo", "tieba", "discuz", "blog"] as const;
const sites: LocalPlatforms[] = [];
for (let k = 0; k < perPlatform; k++) {
  for (const p of platforms) {
    sites.push(
      await startLocalPlatforms({
        seed: 42 + sites.length,
        accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0, [p]: 1 },
        postsPerAccount,
        repliesPerPost: [0, 12],
        weiboDates: "rfc",
      }),
    );
  }
}
const ids: number[] = [];
for (const site of sites) for (const a of site.accounts) ids.push((await createAccount(db, { url: site.entryUrl(a.key), fetchMode: "http" }, CLI_ACTOR)).id);
const requests = () => sites.flatMap((s) => s.requests()).filter((r) => r.kind !== "other");

// One topic (keywords and sensitive words, as a fresh install has), so every stored post is
// also classified: the figures are for the whole pipeline, not storage alone.
await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "作弊", "期末"]), sensitiveWords: JSON.stringify(["作弊", "代考"]) } });
const scheduler = new HostScheduler();
const services: WorkerServices = {
  db,
  createFetcher: (account, onRequest) => createFetcher({ mode: account.fetchMode, scheduler, hostDelayMs: 0, onRequest, log: () => undefined }),
  classify: (database, postIds) => classifyPosts(database, postIds),
  now: () => sites[0]!.clock.now(),
  archiveDir: path.join(dir, "archive"),
};

async function crawlAll() {
  const queue = createInProcessQueue(async (job) => void (await crawlAccount(services, job.accountId, "cli")), { concurrency });
  for (const id of ids) queue.enqueue({ accountId: id, trigger: "cli" });
  await queue.onIdle();
}

const t0 = performance.now();
await crawlAll();
const seconds = (performance.now() - t0) / 1000;
const pages = requests().length;
const marks = sites.map((s) => s.lastSeq());
const posts = await db.post.count();
const replies = await db.post.count({ where: { kind: "reply" } });
const classified = await db.classification.count();
const flags = await db.flag.count();

const t1 = performance.now();
await crawlAll();
const reSeconds = (performance.now() - t1) / 1000;
const re = sites.flatMap((s, i) => s.requests({ afterSeq: marks[i]! })).filter((r) => r.kind !== "other");

const rows: [string, string][] = [
  ["accounts", `${ids.length} (${perPlatform} per platform, one host each), concurrency ${concurrency}, host delay 0`],
  ["first crawl", `${seconds.toFixed(2)} s`],
  ["pages fetched", `${pages}`],
  ["posts + replies stored", `${posts} (${replies} replies), ${classified} classified, ${flags} flagged`],
  ["pages/s", (pages / seconds).toFixed(1)],
  ["posts/s", (posts / seconds).toFixed(1)],
  ["peak RSS", `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`],
  [
    "re-crawl, nothing new",
    `${re.length} requests (${re.filter((r) => r.kind === "list").length} list, ${re.filter((r) => r.kind === "item").length} item) in ${reSeconds.toFixed(2)} s`,
  ],
];
const w = Math.max(...rows.map((r) => r[0].length));
for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);

await db.$disconnect();
for (const s of sites) await s.close();
fs.rmSync(dir, { recursive: true, force: true });
