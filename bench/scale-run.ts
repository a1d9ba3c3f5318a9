/**
 * The engine of `npm run bench:scale` (./scale.ts): the real scheduler (`campuswatch start`,
 * a child process, so its CPU and memory are its own) against the project's local platform
 * servers, with N accounts spread over H loopback hosts, each host polite at one request per
 * `delayMs`, new posts and replies arriving as the run goes (a Poisson stream with a few bursts).
 *
 * What it measures, and how:
 * - **Detection latency**: the bench adds every new post and reply itself and notes the wall time;
 *   latency = the stored row's `firstSeenAt` − that time. It never reads the platform's date
 *   display (minutes on Tieba and Discuz!), so the figure is exact. Items added in the last
 *   interval are given one interval and a minute to be found before the scheduler is stopped; an
 *   item never stored is counted as missed.
 * - **Runs** per account against `elapsed / interval`, skipped ticks grouped by their note, and
 *   failed runs, from the crawl-run table.
 * - **Requests** per account per hour (list and item) from the servers' own request logs.
 * - **Bytes**: half of the hosts send ETag/Last-Modified and answer 304 (conditional), half do not
 *   (unconditional); bytes fetched (the runs' counters) per account per hour for each half.
 * - **CPU %** (user + system of the scheduler process, all its threads, over wall time) and its
 *   **RSS** at the start of the measured window (after the first round of runs) and at the end.
 *
 * No timed assertions live here: this prints figures. test/integration/bench-scale.test.ts runs it
 * small to keep it working.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI_ACTOR } from "../lib/audit";
import { createDb, type Db } from "../lib/db";
import { migrateDatabase } from "../lib/migrate";
import { changeAccountSettings, createAccount } from "../server/accounts";
import { createRng, startLocalPlatforms, type LocalPlatforms, type LocalPost, type LocalReply, type Rng } from "../test/support/platforms";

const root = path.resolve(import.meta.dirname, "..");

/** What one bench run is asked to do. */
export interface ScaleOptions {
  accounts: number;
  hosts: number;
  /** Every account's interval, in seconds (a cron of minutes when it divides 60 s, else of seconds). */
  intervalS: number;
  /** Measured minutes of arrivals (the drain after it is not counted in them). */
  minutes: number;
  /** Minimum gap between two requests to one host. */
  delayMs: number;
  /** Accounts crawled at once by the scheduler. */
  concurrency: number;
  /** New posts per account per hour, on average. */
  postsPerHour: number;
  /** New replies per account per hour, on average (to recent threads). */
  repliesPerHour: number;
  /** Bursts: one account gets `burstPosts` posts and three replies each within ten minutes. */
  bursts: number;
  burstPosts: number;
  seed: number;
  /** Adaptive intervals for every account (crawler/adaptive-interval.ts), with these bounds in seconds; null: the fixed cron. */
  adaptive: { minS: number; maxS: number } | null;
  /** Days of history each account has before the bench, at its own rate (what the adaptive rule learns from). */
  historyDays: number;
  /** Progress lines go here. */
  log: (line: string) => void;
}

/** The figures a run prints (`--json` prints this object). */
export interface ScaleFigures {
  accounts: number;
  hosts: number;
  intervalS: number;
  minutes: number;
  delayMs: number;
  concurrency: number;
  db: "sqlite";
  adaptive: { minS: number; maxS: number } | null;
  historyDays: number;
  arrivals: { posts: number; replies: number; detected: number; missed: number };
  latency: { p50S: number | null; p95S: number | null; maxS: number | null };
  runs: { perAccountMean: number; perAccountMin: number; expectedPerAccount: number; ok: number; partial: number };
  skippedTicks: { total: number; reasons: Record<string, number> };
  failedRuns: number;
  requestsPerAccountHour: { list: number; item: number };
  /** Bytes fetched per account per hour on the hosts that send validators, and on those that do not. */
  bytes: { conditional: number; unconditional: number; notModifiedRuns: number };
  cpuPercent: number;
  rss: { startMB: number; endMB: number; growthPercent: number };
}

interface Arrival {
  accountKey: string;
  site: number;
  platformId: string;
  kind: "post" | "reply";
  addedMs: number;
}

/** The cron of an interval: minutes when it is a whole number of minutes, else seconds (six fields). */
export function intervalCron(seconds: number): string {
  if (seconds >= 60 && seconds % 60 === 0) return seconds === 60 ? "* * * * *" : `*/${seconds / 60} * * * *`;
  if (60 % seconds !== 0) throw new Error(`--interval ${seconds}: under a minute it must divide 60`);
  return `*/${seconds} * * * * *`;
}

/** A Poisson draw (Knuth; the rates here are small). */
function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

/** The q-quantile of sorted values (nearest rank), or null for none. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** CPU seconds (user + system, every thread) and RSS in MB of a live process, from /proc. */
function procStats(pid: number): { cpuS: number; rssMB: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at index 2 (state).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuS: ticks / 100, rssMB: rssKb / 1024 };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run the bench once on a fresh SQLite database; resolves with its figures. */
export async function runScaleBench(o: ScaleOptions): Promise<ScaleFigures> {
  if (o.accounts < o.hosts) throw new Error("--accounts must be at least --hosts");
  if (o.hosts > 250 * 200) throw new Error("--hosts: at most 50,000");
  const cron = intervalCron(o.intervalS);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-scale-"));
  const url = `file:${path.join(dir, "scale.db")}`;
  await migrateDatabase(url);
  const db: Db = createDb(url);
  const rng = createRng(o.seed);
  const platforms = ["weibo", "tieba", "discuz", "blog"] as const;

  // H hosts, each its own loopback address with its own politeness; accounts dealt round-robin
  // over hosts and platforms. Even hosts send validators (conditional), odd ones do not.
  const sites: LocalPlatforms[] = [];
  let dealt = 0;
  for (let h = 0; h < o.hosts; h++) {
    const here = Math.floor(o.accounts / o.hosts) + (h < o.accounts % o.hosts ? 1 : 0);
    const mix: Record<(typeof platforms)[number], number> = { weibo: 0, tieba: 0, discuz: 0, blog: 0 };
    for (let k = 0; k < here; k++) mix[platforms[(dealt + k) % platforms.length]!]++;
    dealt += here;
    sites.push(
      await startLocalPlatforms({
        seed: o.seed * 1000 + h,
        now: new Date(),
        host: `127.0.${2 + Math.floor(h / 200)}.${1 + (h % 200)}`,
        accounts: mix,
        postsPerAccount: 1,
        repliesPerPost: [0, 4],
        spanDays: 3,
        weiboDates: "rfc",
        validators: h % 2 === 0 ? "both" : undefined,
      }),
    );
  }
  // Accounts post at different rates, as real ones do: a few busy boards, many quiet accounts.
  // Each account's weight is log-normal (σ 1.2, mean 1); arrivals pick accounts by weight, and its
  // history before the bench (what an adaptive interval learns from) is drawn at the same rate.
  const all = sites.flatMap((s, h) => s.accounts.map((a) => ({ h, key: a.key, weight: 0 })));
  for (const a of all) {
    const gauss = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    a.weight = Math.exp(1.2 * gauss - (1.2 * 1.2) / 2);
  }
  const cumulative: number[] = [];
  all.reduce((sum, a) => (cumulative.push(sum + a.weight), sum + a.weight), 0);
  const pickAccount = () => {
    const x = rng.next() * cumulative.at(-1)!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return all[lo]!;
  };
  const historyStart = Date.now();
  for (const a of all) {
    const site = sites[a.h]!;
    for (let i = poisson(rng, a.weight * o.postsPerHour * 24 * o.historyDays); i > 0; i--) {
      site.addPost(a.key, { at: new Date(historyStart - rng.int(60_000, o.historyDays * 86_400_000)) });
    }
  }
  // The sites' clocks follow the wall clock, as real sites' do.
  const tick = setInterval(() => {
    const now = new Date();
    for (const s of sites) s.clock.set(now);
  }, 250);

  const accountIds = new Map<string, number>(); // "site:key" → account id
  for (let h = 0; h < sites.length; h++) {
    const site = sites[h]!;
    for (const a of site.accounts) {
      const row = await createAccount(db, { url: site.entryUrl(a.key), fetchMode: "http", cron }, CLI_ACTOR);
      if (o.adaptive) await changeAccountSettings(db, row.id, { adaptive: true, minIntervalS: o.adaptive.minS, maxIntervalS: o.adaptive.maxS }, CLI_ACTOR);
      accountIds.set(`${h}:${a.key}`, row.id);
    }
  }
  o.log(`${o.accounts} accounts on ${o.hosts} hosts registered (cron ${JSON.stringify(cron)}), starting the scheduler`);

  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "bin/campuswatch.mjs"), "start", "--host-delay-ms", String(o.delayMs), "--concurrency", String(o.concurrency), "--poll-ms", "1000"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const stillRunning = () => {
    if (child.exitCode !== null) throw new Error(`the scheduler exited with ${String(child.exitCode)}: ${stderr}`);
  };
  // The scheduler never outlives the bench (an error, Ctrl-C or a kill of the bench).
  const killChild = () => child.exitCode === null && child.kill("SIGKILL");
  process.once("exit", killChild);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

  // The first round of runs reads each account's existing posts: the measured window starts after
  // it, when every account has finished one run.
  const roundDeadline = Date.now() + Math.max(10 * o.intervalS, 600) * 1000;
  for (;;) {
    stillRunning();
    const done = await db.crawlRun.groupBy({ by: ["accountId"], where: { status: { not: "running" } } });
    if (done.length >= o.accounts) break;
    if (Date.now() > roundDeadline) throw new Error(`only ${done.length} of ${o.accounts} accounts finished a first run`);
    await sleep(1000);
  }
  const startStats = procStats(child.pid!);
  const windowStart = Date.now();
  const windowStartDate = new Date(windowStart);
  o.log(`first round done; measuring ${o.minutes} min of arrivals (RSS ${startStats?.rssMB.toFixed(0)} MB)`);

  // Arrivals: each second, a Poisson number of posts and replies over all accounts, plus bursts
  // at seeded times in the window.
  const arrivals: Arrival[] = [];
  const recent = new Map<string, LocalPost[]>(); // "site:key" → posts added during the bench
  const add = (h: number, key: string, kind: "post" | "reply") => {
    const site = sites[h]!;
    let item: LocalPost | LocalReply;
    if (kind === "post") {
      const post = site.addPost(key, { at: site.clock.now() });
      const list = recent.get(`${h}:${key}`) ?? [];
      list.push(post);
      recent.set(`${h}:${key}`, list.slice(-5));
      item = post;
    } else {
      const own = recent.get(`${h}:${key}`) ?? [];
      const account = site.account(key);
      const candidates =
        own.length > 0
          ? own
          : site.model
              .visiblePosts(account)
              .filter((p) => !p.pinned)
              .slice(0, 5);
      if (candidates.length === 0) return;
      item = site.addReply(rng.pick(candidates).id, { at: site.clock.now() });
    }
    arrivals.push({ accountKey: key, site: h, platformId: site.platformIdOf(item), kind, addedMs: Date.now() });
  };
  const windowMs = o.minutes * 60_000;
  const burstAt = Array.from({ length: o.bursts }, () => windowStart + rng.int(0, Math.max(0, windowMs - 600_000)));
  const burstState: { at: number; h: number; key: string; left: number }[] = [];
  const perSecondPosts = (o.accounts * o.postsPerHour) / 3600;
  const perSecondReplies = (o.accounts * o.repliesPerHour) / 3600;
  let next = windowStart;
  while (Date.now() < windowStart + windowMs) {
    stillRunning();
    const now = Date.now();
    for (const s of sites) s.clock.set(new Date(now));
    for (let i = poisson(rng, perSecondPosts); i > 0; i--) {
      const a = pickAccount();
      add(a.h, a.key, "post");
    }
    for (let i = poisson(rng, perSecondReplies); i > 0; i--) {
      const a = pickAccount();
      add(a.h, a.key, "reply");
    }
    while (burstAt.length > 0 && burstAt[0]! <= now) {
      burstAt.shift();
      const a = rng.pick(all);
      burstState.push({ at: now, h: a.h, key: a.key, left: o.burstPosts * 4 });
      o.log(`burst on ${a.key} of host ${a.h}`);
    }
    for (const b of burstState) {
      // Spread over ten minutes: one item every 600 s / items, posts first then replies.
      const due = Math.floor(((now - b.at) / 600_000) * o.burstPosts * 4) + 1;
      while (b.left > 0 && o.burstPosts * 4 - b.left < due) {
        add(b.h, b.key, o.burstPosts * 4 - b.left < o.burstPosts ? "post" : "reply");
        b.left--;
      }
    }
    next += 1000;
    await sleep(Math.max(0, next - Date.now()));
  }
  const windowEnd = Date.now();
  o.log(`arrivals done (${arrivals.length}); letting the last ones be found`);

  // Drain: one interval and a minute for what arrived last, or until everything is stored.
  const drainEnd = windowEnd + (o.intervalS + 60) * 1000;
  const stored = async () => {
    const rows = await db.post.findMany({
      where: { firstSeenAt: { gte: windowStartDate } },
      select: { accountId: true, platformId: true, firstSeenAt: true },
    });
    return new Map(rows.map((r) => [`${r.accountId}:${r.platformId}`, r.firstSeenAt.getTime()]));
  };
  let seen = await stored();
  while (Date.now() < drainEnd) {
    const missing = arrivals.filter((a) => !seen.has(`${accountIds.get(`${a.site}:${a.accountKey}`)}:${a.platformId}`)).length;
    if (missing === 0) break;
    await sleep(5000);
    seen = await stored();
  }
  const endStats = procStats(child.pid!);
  const stopAt = Date.now();
  child.kill("SIGTERM");
  await exited;
  clearInterval(tick);

  const latencies: number[] = [];
  let missed = 0;
  for (const a of arrivals) {
    const firstSeen = seen.get(`${accountIds.get(`${a.site}:${a.accountKey}`)}:${a.platformId}`);
    if (firstSeen === undefined) missed++;
    else latencies.push(Math.max(0, firstSeen - a.addedMs) / 1000);
  }
  latencies.sort((x, y) => x - y);

  const runs = await db.crawlRun.findMany({
    where: { startedAt: { gte: windowStartDate } },
    select: { accountId: true, status: true, note: true, bytes: true },
  });
  const perAccount = new Map<number, number>();
  for (const id of accountIds.values()) perAccount.set(id, 0);
  const reasons: Record<string, number> = {};
  const hours = (stopAt - windowStart) / 3_600_000;
  const conditionalIds = new Set<number>();
  for (const [k, id] of accountIds) if (Number(k.split(":")[0]) % 2 === 0) conditionalIds.add(id);
  let bytesConditional = 0;
  let bytesUnconditional = 0;
  let notModifiedRuns = 0;
  for (const r of runs) {
    if (r.status === "skipped") {
      const reason = r.note.replace(/\d+/g, "N").slice(0, 120) || "(no note)";
      reasons[reason] = (reasons[reason] ?? 0) + 1;
      continue;
    }
    perAccount.set(r.accountId, (perAccount.get(r.accountId) ?? 0) + 1);
    if (conditionalIds.has(r.accountId)) bytesConditional += r.bytes;
    else bytesUnconditional += r.bytes;
    if (r.note.includes("HTTP 304")) notModifiedRuns++;
  }
  const counts = [...perAccount.values()];
  const requests = sites.flatMap((s) => s.requests()).filter((r) => r.startedMs >= windowStart && r.startedMs <= stopAt);
  const conditionalAccounts = conditionalIds.size;
  const unconditionalAccounts = o.accounts - conditionalAccounts;

  const figures: ScaleFigures = {
    accounts: o.accounts,
    hosts: o.hosts,
    intervalS: o.intervalS,
    minutes: o.minutes,
    delayMs: o.delayMs,
    concurrency: o.concurrency,
    db: "sqlite",
    adaptive: o.adaptive,
    historyDays: o.historyDays,
    arrivals: {
      posts: arrivals.filter((a) => a.kind === "post").length,
      replies: arrivals.filter((a) => a.kind === "reply").length,
      detected: latencies.length,
      missed,
    },
    latency: { p50S: quantile(latencies, 0.5), p95S: quantile(latencies, 0.95), maxS: latencies.at(-1) ?? null },
    runs: {
      perAccountMean: counts.reduce((x, y) => x + y, 0) / Math.max(1, counts.length),
      perAccountMin: Math.min(...counts),
      expectedPerAccount: (stopAt - windowStart) / 1000 / o.intervalS,
      ok: runs.filter((r) => r.status === "ok").length,
      partial: runs.filter((r) => r.status === "partial").length,
    },
    skippedTicks: { total: Object.values(reasons).reduce((x, y) => x + y, 0), reasons },
    failedRuns: runs.filter((r) => r.status === "failed").length,
    requestsPerAccountHour: {
      list: requests.filter((r) => r.kind === "list").length / o.accounts / hours,
      item: requests.filter((r) => r.kind === "item").length / o.accounts / hours,
    },
    bytes: {
      conditional: conditionalAccounts ? bytesConditional / conditionalAccounts / hours : 0,
      unconditional: unconditionalAccounts ? bytesUnconditional / unconditionalAccounts / hours : 0,
      notModifiedRuns,
    },
    cpuPercent: startStats && endStats ? (100 * (endStats.cpuS - startStats.cpuS)) / ((stopAt - windowStart) / 1000) : NaN,
    rss: {
      startMB: startStats?.rssMB ?? NaN,
      endMB: endStats?.rssMB ?? NaN,
      growthPercent: startStats && endStats ? (100 * (endStats.rssMB - startStats.rssMB)) / startStats.rssMB : NaN,
    },
  };
  await db.$disconnect();
  await Promise.all(sites.map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
  return figures;
}
