/**
 * `npm run bench:crawl-vs-crawlee`: the project's crawl against Crawlee's CheerioCrawler on the same
 * local copy of the platforms — blog, Discuz! (UTF-8 and GBK), Tieba, Weibo: 11 accounts on 6 hosts
 * (several accounts per host, several hosts), politeness delay 0, concurrency 8.
 *
 * Each round runs both, in alternating order:
 * - the project as a user runs it: `node bin/campuswatch.mjs crawl once` on a fresh copy of a
 *   prepared SQLite database holding the accounts and one topic (so every post is stored,
 *   deduplicated, archived and classified); start-up included; CAMPUSWATCH_PROFILE=1 makes it
 *   print its time split (crawler/profile.ts);
 * - CheerioCrawler in its own process (./crawl-vs-crawlee-child.mjs), fetching exactly the list
 *   and item pages the project fetched (taken from the sites' request log of an untimed warm-up
 *   crawl), at the same concurrency, storing nothing; its time is `crawler.run()` alone.
 * Both are measured on their pages of kind list or item (robots.txt and the like are not counted)
 * and their peak RSS by /usr/bin/time. The ratio is the median over rounds of project pages/s ÷
 * Crawlee pages/s, each round's two runs back to back, so machine load hits both alike.
 *
 *   npm run bench:crawl-vs-crawlee [-- --rounds 3 --posts 120 --concurrency 8 --topic keywords|trained --verbose --cpu-prof DIR --keep DIR]
 *
 * `--baseline DIR` compares two versions of the project instead: DIR is another checkout with its
 * dependencies installed (`git worktree add DIR <commit>`, then `npm ci` in it). Each round runs its
 * `crawl once` and this checkout's, in alternating order, on the same sites and on databases
 * migrated by each checkout's own migrations, and prints each one's pages/s and CPU per page
 * and their ratio. Crawlee is not run then. Changes of a few percent are lost in this machine's
 * noise between rounds of the Crawlee comparison; back to back, they show. `--baseline .` with
 * `--baseline-node-flags "..."` compares node flags on this checkout alone.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { migrateDatabase } from "../lib/migrate";
import { createDb } from "../lib/db";
import { createAccount } from "../server/accounts";
import { startLocalPlatforms, type LocalPlatforms } from "../test/support/platforms";
import { CAMPUS_SAMPLES } from "../test/unit/classify/fixtures";
import { trainTopic } from "../crawler/classify";
import { CLI_ACTOR } from "../lib/audit";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    posts: { type: "string", default: "120" },
    concurrency: { type: "string", default: "8" },
    /** Print the project's output too. */
    verbose: { type: "boolean", default: false },
    /** Write a CPU profile of every project run (`node --cpu-prof`) into this folder. */
    "cpu-prof": { type: "string" },
    /**
     * The prepared database's topic: "keywords" (keywords and sensitive words, untrained: posts are
     * matched on their cleaned text and jieba is never loaded) or "trained" (the same topic with a
     * naive Bayes model trained on the test fixtures' campus samples: every post is segmented).
     */
    topic: { type: "string", default: "keywords" },
    /** Keep each round's database and data folder (archive) in this folder, for a closer look. */
    keep: { type: "string" },
    /** More flags for the project's node process, e.g. "--trace-gc" (with --verbose to see its output). */
    "node-flags": { type: "string", default: "" },
    /** Flags for the baseline's node process instead of --node-flags (compare flags on one checkout: --baseline . ). */
    "baseline-node-flags": { type: "string" },
    /** Environment variables for the project's runs, "NAME=value NAME=value" (e.g. CAMPUSWATCH_PARSE_THREADS=2). */
    env: { type: "string", default: "" },
    /** The same for the baseline's runs instead of --env. */
    "baseline-env": { type: "string" },
    /** Another checkout of the project to compare with, instead of Crawlee (see above). */
    baseline: { type: "string" },
  },
});
const baselineRoot = values.baseline ? path.resolve(values.baseline) : null;
if (baselineRoot && !fs.existsSync(path.join(baselineRoot, "bin", "campuswatch.mjs")))
  throw new Error(`--baseline ${baselineRoot} is not a checkout of the project`);
const rounds = Number(values.rounds);
const postsPerAccount = Number(values.posts);
const concurrency = Number(values.concurrency);
const root = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-vs-crawlee-"));

// 6 hosts, 11 accounts: two accounts on each host but the last, and each platform on more than one host
// where it has a twin (two Discuz! boards, one served as GBK).
type Layout = { seed: number; accounts: Partial<Record<"weibo" | "tieba" | "discuz" | "blog", number>>; gbk?: boolean };
const layout: Layout[] = [
  { seed: 101, accounts: { blog: 2 } },
  { seed: 102, accounts: { discuz: 2 } },
  { seed: 103, accounts: { discuz: 2 }, gbk: true },
  { seed: 104, accounts: { tieba: 2 } },
  { seed: 105, accounts: { weibo: 2 } },
  { seed: 106, accounts: { weibo: 1 } },
];
const sites: LocalPlatforms[] = [];
for (const l of layout) {
  const site = await startLocalPlatforms({
    seed: l.seed,
    accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0, ...l.accounts },
    postsPerAccount,
    repliesPerPost: [0, 12],
    weiboDates: "rfc",
  });
  if (l.gbk) for (const a of site.accounts) site.setEncoding(a.key, "gbk");
  sites.push(site);
}

// The prepared database: the accounts (HTTP, delay 0 through the CLI flag) and one topic. With
// --baseline, a second one migrated by the baseline's own migrations (its triggers and indexes).
if (values.topic !== "keywords" && values.topic !== "trained") throw new Error(`--topic must be keywords or trained, not ${values.topic}`);
let accountCount = 0;
async function prepare(file: string, migrate: (url: string) => Promise<unknown>): Promise<void> {
  const url = `file:${file}`;
  await migrate(url);
  const db = createDb(url);
  accountCount = 0;
  for (const site of sites)
    for (const a of site.accounts) {
      await createAccount(db, { url: site.entryUrl(a.key), fetchMode: "http" }, CLI_ACTOR);
      accountCount++;
    }
  const topic = await db.topic.create({
    data: {
      name: "考试",
      keywords: JSON.stringify(["考试", "作弊", "期末"]),
      sensitiveWords: JSON.stringify(["作弊", "代考"]),
      relevantLabels: JSON.stringify(["考试"]),
    },
  });
  if (values.topic === "trained") await trainTopic(db, topic.id, CAMPUS_SAMPLES);
  await db.$disconnect();
}
const template = path.join(dir, "template.db");
await prepare(template, migrateDatabase);
const baselineTemplate = path.join(dir, "baseline-template.db");
if (baselineRoot)
  await prepare(baselineTemplate, async (url) => {
    const r = await run(
      [process.execPath, path.join(baselineRoot, "bin", "campuswatch.mjs"), "db", "migrate"],
      { ...process.env, DATABASE_URL: url },
      baselineRoot,
    );
    if (r.code !== 0) throw new Error(`the baseline's db migrate exited with ${r.code}:\n${r.out}\n${r.err}`);
  });

const marks = () => sites.map((s) => s.lastSeq());
/** The list and item requests the sites answered since `from` (robots.txt and shells are "other"). */
const pagesSince = (from: number[]) => sites.flatMap((s, i) => s.requests({ afterSeq: from[i]! })).filter((r) => r.kind !== "other");

/**
 * A child process under /usr/bin/time -v: its output, wall seconds, CPU seconds (user + system),
 * peak RSS in MiB, and the CPU seconds this process (the local sites) spent meanwhile: with both on
 * the machine's cores, the sum says how near the crawl is to using all of them.
 */
function run(
  cmd: string[],
  env: NodeJS.ProcessEnv,
  cwd = root,
): Promise<{ code: number | null; out: string; err: string; seconds: number; cpuSeconds: number; rssMiB: number; sitesCpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const child = spawn("/usr/bin/time", ["-v", ...cmd], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - t0) / 1000;
      const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN);
      const cpu = (name: string) => Number(new RegExp(`${name} time \\(seconds\\): ([0-9.]+)`).exec(err)?.[1] ?? NaN);
      const sites = process.cpuUsage(cpu0);
      resolve({ code, out, err, seconds, cpuSeconds: cpu("User") + cpu("System"), rssMiB: kb / 1024, sitesCpuSeconds: (sites.user + sites.system) / 1e6 });
    });
  });
}

/**
 * Bring the CLI's ahead-of-time build (dist/, scripts/build-cli.mjs) up to date before a timed run,
 * as `npm ci` leaves it for a user: a source edited meanwhile (other work on this checkout) would
 * otherwise make the timed run rebuild it first. Without that script, the CLI runs as it comes.
 */
async function freshBuild(checkout = root): Promise<void> {
  const script = path.join(checkout, "scripts", "build-cli.mjs");
  if (!fs.existsSync(script)) return;
  try {
    const m = (await import(pathToFileURL(script).href)) as { cliBuildEntry?: () => unknown; buildCli?: (o: { quiet: boolean }) => Promise<unknown> };
    if (m.cliBuildEntry && m.buildCli && !m.cliBuildEntry()) await m.buildCli({ quiet: true });
  } catch {
    // The CLI rebuilds or falls back to its sources by itself.
  }
}

type ProjectRun = {
  pages: number;
  seconds: number;
  cpuSeconds: number;
  sitesCpuSeconds: number;
  rssMiB: number;
  profile: Record<string, number>;
  urls: string[];
};
/** "A=1 B=2" as an environment. */
const envOf = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );

async function project(n: number | string, checkout = root, nodeFlags = values["node-flags"], extraEnv = values.env): Promise<ProjectRun> {
  const file = path.join(dir, `round-${n}.db`);
  fs.copyFileSync(checkout === root ? template : baselineTemplate, file);
  const dataDir = path.join(dir, `data-${n}`);
  await freshBuild(checkout);
  const from = marks();
  const env = {
    ...process.env,
    DATABASE_URL: `file:${file}`,
    CAMPUSWATCH_DATA_DIR: dataDir,
    CAMPUSWATCH_PROFILE: "1",
    NODE_ENV: "production" as const,
    ...envOf(extraEnv),
  };
  const prof = [...(values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(values["cpu-prof"])] : []), ...nodeFlags.split(/\s+/).filter(Boolean)];
  const r = await run(
    [process.execPath, ...prof, "bin/campuswatch.mjs", "crawl", "once", "--quiet", "--host-delay-ms", "0", "--concurrency", String(concurrency)],
    env,
    checkout,
  );
  if (r.code !== 0) throw new Error(`crawl once exited with ${r.code}:\n${r.out}\n${r.err}`);
  if (values.verbose) process.stderr.write(r.out + r.err);
  const pages = pagesSince(from);
  const line = r.err.split("\n").find((l) => l.startsWith('{"campuswatchProfile"'));
  const profile = line ? (JSON.parse(line) as { campuswatchProfile: Record<string, number> }).campuswatchProfile : {};
  if (values.keep) {
    fs.mkdirSync(values.keep, { recursive: true });
    fs.cpSync(file, path.join(values.keep, `round-${n}.db`));
    fs.cpSync(dataDir, path.join(values.keep, `data-${n}`), { recursive: true });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const f of fs.readdirSync(dir)) if (f.startsWith(`round-${n}.db`)) fs.rmSync(path.join(dir, f), { force: true });
  return {
    pages: pages.length,
    seconds: r.seconds,
    cpuSeconds: r.cpuSeconds,
    sitesCpuSeconds: r.sitesCpuSeconds,
    rssMiB: r.rssMiB,
    profile,
    urls: pages.map((p) => p.origin + p.url),
  };
}

type CrawleeRun = { pages: number; seconds: number; processSeconds: number; cpuSeconds: number; sitesCpuSeconds: number; rssMiB: number };
async function crawlee(urls: string[], n: number): Promise<CrawleeRun> {
  const storage = path.join(dir, `crawlee-${n}`);
  const list = path.join(dir, "urls.json");
  fs.writeFileSync(list, JSON.stringify(urls));
  const from = marks();
  const env = { ...process.env, CRAWLEE_STORAGE_DIR: storage, CRAWLEE_LOG_LEVEL: "ERROR", CRAWLEE_AVAILABLE_MEMORY_RATIO: "0.5" };
  const r = await run([process.execPath, "bench/crawl-vs-crawlee-child.mjs", list, String(concurrency)], env);
  fs.rmSync(storage, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`the Crawlee child exited with ${r.code}:\n${r.err}`);
  const own = JSON.parse(r.out.trim().split("\n").at(-1)!) as { pages: number; failed: number; seconds: number };
  if (own.failed > 0)
    throw new Error(
      `Crawlee failed ${own.failed} of ${urls.length} pages:\n${r.err
        .split("\n")
        .filter((l) => l.startsWith("failed: "))
        .join("\n")}`,
    );
  return {
    pages: pagesSince(from).length,
    seconds: own.seconds,
    processSeconds: r.seconds,
    cpuSeconds: r.cpuSeconds,
    sitesCpuSeconds: r.sitesCpuSeconds,
    rssMiB: r.rssMiB,
  };
}

/** `campuswatch --help`, the CLI's bare start-up: median of 3 runs. */
async function helpSeconds(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push((await run([process.execPath, "bin/campuswatch.mjs", "--help"], process.env)).seconds);
  return median(times);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// Warm-up (untimed): the pages the project fetches are the pages Crawlee is given.
const warm = await project(0);
const urls = warm.urls;
console.error(`warm-up: ${accountCount} accounts on ${sites.length} hosts, ${urls.length} list + item pages`);

if (baselineRoot) {
  // Two versions of the project, back to back in alternating order; no Crawlee.
  const mine: ProjectRun[] = [];
  const base: ProjectRun[] = [];
  for (let n = 1; n <= rounds; n++) {
    if (n % 2 === 1) {
      base.push(await project(`b${n}`, baselineRoot, values["baseline-node-flags"] ?? values["node-flags"], values["baseline-env"] ?? values.env));
      mine.push(await project(n));
    } else {
      mine.push(await project(n));
      base.push(await project(`b${n}`, baselineRoot, values["baseline-node-flags"] ?? values["node-flags"], values["baseline-env"] ?? values.env));
    }
    const [p, b] = [mine.at(-1)!, base.at(-1)!];
    console.error(
      `round ${n}: this checkout ${(p.pages / p.seconds).toFixed(1)} pages/s (${p.cpuSeconds.toFixed(2)} s CPU, ${p.rssMiB.toFixed(0)} MiB), ` +
        `baseline ${(b.pages / b.seconds).toFixed(1)} pages/s (${b.cpuSeconds.toFixed(2)} s CPU, ${b.rssMiB.toFixed(0)} MiB)`,
    );
  }
  const speed = mine.map((p, i) => p.pages / p.seconds / (base[i]!.pages / base[i]!.seconds));
  const cpu = mine.map((p, i) => p.cpuSeconds / p.pages / (base[i]!.cpuSeconds / base[i]!.pages));
  console.log(`baseline                 ${baselineRoot}`);
  console.log(`pages per crawl          this checkout ${mine[0]!.pages}, baseline ${base[0]!.pages}`);
  console.log(`pages/s ratio (median)   ${median(speed).toFixed(3)} (${speed.map((r) => r.toFixed(3)).join(" / ")}): this checkout ÷ baseline`);
  console.log(`CPU per page (median)    ${median(cpu).toFixed(3)} (${cpu.map((r) => r.toFixed(3)).join(" / ")}): this checkout ÷ baseline`);
  for (const s of sites) await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const projectRuns: ProjectRun[] = [];
const crawleeRuns: CrawleeRun[] = [];
for (let n = 1; n <= rounds; n++) {
  // Alternate who goes first, so neither always runs on a warmer (or busier) machine.
  if (n % 2 === 1) {
    crawleeRuns.push(await crawlee(urls, n));
    projectRuns.push(await project(n));
  } else {
    projectRuns.push(await project(n));
    crawleeRuns.push(await crawlee(urls, n));
  }
  const p = projectRuns.at(-1)!;
  const c = crawleeRuns.at(-1)!;
  console.error(
    `round ${n}: project ${(p.pages / p.seconds).toFixed(1)} pages/s (${p.pages} in ${p.seconds.toFixed(2)} s, ${p.rssMiB.toFixed(0)} MiB, ` +
      `CPU ${p.cpuSeconds.toFixed(2)} s + sites ${p.sitesCpuSeconds.toFixed(2)} s), ` +
      `Crawlee ${(c.pages / c.seconds).toFixed(1)} pages/s (${c.pages} in ${c.seconds.toFixed(2)} s, ${c.rssMiB.toFixed(0)} MiB, ` +
      `CPU ${c.cpuSeconds.toFixed(2)} s + sites ${c.sitesCpuSeconds.toFixed(2)} s in ${c.processSeconds.toFixed(2)} s)`,
  );
}
const help = await helpSeconds();

const ratios = projectRuns.map((p, i) => p.pages / p.seconds / (crawleeRuns[i]!.pages / crawleeRuns[i]!.seconds));
const medianOf = (f: (i: number) => number) => median(projectRuns.map((_, i) => f(i)));
const split = (k: string) => medianOf((i) => projectRuns[i]!.profile[k] ?? NaN);
const accountMs = split("accountMs");
const share = (k: string) => `${(split(k) / 1000).toFixed(2)} s (${((split(k) / accountMs) * 100).toFixed(0)}%)`;
const rows: [string, string][] = [
  [
    "sites",
    `${accountCount} accounts on ${sites.length} hosts, ${postsPerAccount} posts each, concurrency ${concurrency}, host delay 0, ${rounds} rounds, topic ${values.topic}`,
  ],
  ["pages per crawl", `${projectRuns[0]!.pages} (list + item)`],
  ["project pages/s", projectRuns.map((p) => (p.pages / p.seconds).toFixed(1)).join(" / ") + " (crawl once, start-up included)"],
  ["Crawlee pages/s", crawleeRuns.map((c) => (c.pages / c.seconds).toFixed(1)).join(" / ") + " (crawler.run() only)"],
  ["ratio (median)", `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(" / ")})`],
  ["peak RSS project", `${medianOf((i) => projectRuns[i]!.rssMiB).toFixed(0)} MiB`],
  ["peak RSS Crawlee", `${median(crawleeRuns.map((c) => c.rssMiB)).toFixed(0)} MiB`],
  ["RSS ratio (median)", medianOf((i) => projectRuns[i]!.rssMiB / crawleeRuns[i]!.rssMiB).toFixed(2)],
  [
    "CPU per page (median)",
    `project ${medianOf((i) => (projectRuns[i]!.cpuSeconds * 1000) / projectRuns[i]!.pages).toFixed(2)} ms, ` +
      `Crawlee ${median(crawleeRuns.map((c) => (c.cpuSeconds * 1000) / c.pages)).toFixed(2)} ms (whole processes, user + system, all threads)`,
  ],
  ["start-up", `--help ${help.toFixed(2)} s; crawl once to its first account ${(split("startupMs") / 1000).toFixed(2)} s`],
  [
    "crawl once wall",
    `${(split("totalMs") / 1000).toFixed(2)} s (crawling ${(split("crawlWallMs") / 1000).toFixed(2)} s, after the last account ${(split("shutdownMs") / 1000).toFixed(2)} s), CPU ${(split("cpuMs") / 1000).toFixed(2)} s`,
  ],
  ["time split (Σ accounts)", `${(accountMs / 1000).toFixed(2)} s over ${concurrency} at once:`],
  ["  fetch", share("fetchMs")],
  ["  parse (adapters, walk)", share("parseMs")],
  ["  store", share("storeMs")],
  ["  classify (beside the walk)", share("classifyMs")],
  ["  archive", share("archiveMs")],
];
const w = Math.max(...rows.map((r) => r[0].length));
for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);

for (const s of sites) await s.close();
fs.rmSync(dir, { recursive: true, force: true });
