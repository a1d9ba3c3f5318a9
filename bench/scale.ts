/**
 * `npm run bench:scale`: detection latency and cost of the real scheduler at the scale a
 * university runs (./scale-run.ts says how each figure is measured).
 *
 *   npm run bench:scale [-- --accounts 1000 --hosts 50 --interval 300 --minutes 30 --delay-ms 1000
 *                           --concurrency 32 --posts-per-hour 1 --replies-per-hour 4 --bursts 3
 *                           --burst-posts 10 --seed 1 --adaptive 60:3600 --history-days 7 --json]
 *
 * `--adaptive MIN:MAX` sets every account adaptive (crawler/adaptive-interval.ts) between MIN and
 * MAX seconds; without it each account runs on the fixed `--interval`. Compare the two at the same
 * request budget by reading "requests / account / hour" beside the latency.
 *
 * Targets (issue 35, SQLite, one process): p95 latency ≤ interval + 60 s, 0 failed runs, RSS growth
 * under 10 % over 30 minutes. The whole run takes the first round of runs, `--minutes`, and up to
 * one interval and a minute of drain.
 */
import { parseArgs } from "node:util";
import { runScaleBench, type ScaleFigures } from "./scale-run";

const { values } = parseArgs({
  options: {
    accounts: { type: "string", default: "1000" },
    hosts: { type: "string", default: "50" },
    interval: { type: "string", default: "300" },
    minutes: { type: "string", default: "30" },
    "delay-ms": { type: "string", default: "1000" },
    concurrency: { type: "string", default: "32" },
    "posts-per-hour": { type: "string", default: "1" },
    "replies-per-hour": { type: "string", default: "4" },
    bursts: { type: "string", default: "3" },
    "burst-posts": { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    adaptive: { type: "string" },
    "history-days": { type: "string", default: "7" },
    json: { type: "boolean", default: false },
  },
});

/** `--adaptive MIN:MAX` in seconds, or null without it. */
function adaptiveBounds(v: string | undefined): { minS: number; maxS: number } | null {
  if (v === undefined) return null;
  const m = /^(\d+):(\d+)$/.exec(v);
  if (!m || Number(m[1]) < 30 || Number(m[2]) <= Number(m[1])) {
    console.error(`--adaptive: expected MIN:MAX in seconds with 30 ≤ MIN < MAX, got ${JSON.stringify(v)}`);
    process.exit(2);
  }
  return { minS: Number(m[1]), maxS: Number(m[2]) };
}

/** A positive number option, or exit with its name. */
function num(name: keyof typeof values, min = 0): number {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < min) {
    console.error(`--${name}: expected a number ≥ ${min}, got ${JSON.stringify(values[name])}`);
    process.exit(2);
  }
  return v;
}

const figures: ScaleFigures = await runScaleBench({
  accounts: num("accounts", 1),
  hosts: num("hosts", 1),
  intervalS: num("interval", 1),
  minutes: num("minutes", 0.1),
  delayMs: num("delay-ms"),
  concurrency: num("concurrency", 1),
  postsPerHour: num("posts-per-hour"),
  repliesPerHour: num("replies-per-hour"),
  bursts: num("bursts"),
  burstPosts: num("burst-posts"),
  seed: num("seed"),
  adaptive: adaptiveBounds(values.adaptive),
  historyDays: num("history-days"),
  log: values.json ? () => {} : (line) => console.log(`· ${line}`),
});

if (values.json) {
  console.log(JSON.stringify(figures));
} else {
  const f = figures;
  const s = (x: number | null) => (x === null ? "—" : `${x.toFixed(1)} s`);
  const rows: [string, string][] = [
    [
      "scale",
      `${f.accounts} accounts on ${f.hosts} hosts, every ${f.intervalS} s, ${f.delayMs} ms between requests to a host, concurrency ${f.concurrency}, ${f.db}`,
    ],
    [
      "intervals",
      f.adaptive ? `adaptive between ${f.adaptive.minS} s and ${f.adaptive.maxS} s, ${f.historyDays} days of history` : `fixed, every ${f.intervalS} s`,
    ],
    ["arrivals", `${f.arrivals.posts} posts + ${f.arrivals.replies} replies in ${f.minutes} min; ${f.arrivals.detected} detected, ${f.arrivals.missed} missed`],
    ["detection latency", `p50 ${s(f.latency.p50S)}, p95 ${s(f.latency.p95S)}, max ${s(f.latency.maxS)} (target p95 ≤ ${f.intervalS + 60} s)`],
    [
      "runs per account",
      `${f.runs.perAccountMean.toFixed(2)} (min ${f.runs.perAccountMin}) of ${f.runs.expectedPerAccount.toFixed(2)} expected; ${f.runs.ok} ok, ${f.runs.partial} partial`,
    ],
    [
      "skipped ticks",
      `${f.skippedTicks.total}${Object.entries(f.skippedTicks.reasons)
        .map(([r, n]) => `\n    ${n} × ${r}`)
        .join("")}`,
    ],
    ["failed runs", String(f.failedRuns)],
    ["requests / account / hour", `list ${f.requestsPerAccountHour.list.toFixed(2)}, item ${f.requestsPerAccountHour.item.toFixed(2)}`],
    [
      "bytes / account / hour",
      `conditional ${(f.bytes.conditional / 1024).toFixed(1)} KiB, unconditional ${(f.bytes.unconditional / 1024).toFixed(1)} KiB (${f.bytes.notModifiedRuns} runs ended on a 304)`,
    ],
    ["scheduler CPU", `${f.cpuPercent.toFixed(1)} % of one core`],
    [
      "scheduler RSS",
      `${f.rss.startMB.toFixed(0)} MB → ${f.rss.endMB.toFixed(0)} MB (${f.rss.growthPercent >= 0 ? "+" : ""}${f.rss.growthPercent.toFixed(1)} %)`,
    ],
  ];
  for (const [k, v] of rows) console.log(`${k.padEnd(28)}${v}`);
}
process.exit(0);
