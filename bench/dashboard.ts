/**
 * Dashboard benchmark: median server render time of the main pages on a large database, and how
 * long a person waits for each in a browser (Chromium, to the page's `load` event).
 *
 *   npm run seed:large                      # 1,000,000 posts over a year → data/large.db
 *   npm run build                           # or NEXT_DIST_DIR=.next-test npx next build
 *   npm run bench:dashboard -- [--db file:./data/large.db] [--runs 15] [--port 3211]
 *                                  [--browser-runs 11] [--browser-warmup 2] [--only charts]
 *
 * On PostgreSQL: `npm run seed:large -- --db postgresql://…/large` (or `campuswatch db copy` of a
 * seeded SQLite file), then `npm run bench:dashboard -- --db postgresql://…/large`.
 *
 * Starts `next start` on the production build (NEXT_DIST_DIR, default .next) against the database,
 * signs a session for its first admin, and times complete responses (the whole streamed HTML,
 * every Suspense section included) over loopback: a few warm-up requests per page, then `runs`
 * measured ones. Then Debian's Chromium loads every page (bench/dashboard-browser.ts), signed in
 * once with the same session. The target: a server median under 500 ms for the flagged list, a
 * filtered full-text search and the charts page, and a browser median under 500 ms for every page.
 * `--browser-runs 0` leaves the browser out; `--only <text>` times only pages whose URL has it.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { databaseKind, redactUrl, sqlitePath } from "../lib/config";
import { createDb } from "../lib/db";
import { toNumber, type SqlNumber } from "../server/sql";
import { browserLoadTimes } from "./dashboard-browser";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "file:./data/large.db" },
    runs: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    port: { type: "string", default: "3211" },
    "browser-runs": { type: "string", default: "11" },
    "browser-warmup": { type: "string", default: "2" },
    only: { type: "string" },
  },
});
const runs = Number(args.runs);
const warmup = Number(args.warmup);
const browserRuns = Number(args["browser-runs"]);
const browserWarmup = Number(args["browser-warmup"]);
const kind = databaseKind(args.db);
// The server gets an absolute path for SQLite, so its working directory does not matter.
const dbUrl = kind === "sqlite" ? `file:${sqlitePath(args.db)}` : args.db;
if (kind === "sqlite" && !fs.existsSync(sqlitePath(args.db))) {
  console.error(`no database at ${sqlitePath(args.db)}: run \`npm run seed:large\` first`);
  process.exit(1);
}
const distDir = process.env.NEXT_DIST_DIR || ".next";
if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`no production build in ${distDir}: run \`npm run build\` (or set NEXT_DIST_DIR to a built directory)`);
  process.exit(1);
}

// The session is signed with a secret the server is started with.
const secret = crypto.randomBytes(32).toString("hex");
process.env.CAMPUSWATCH_SECRET = secret;
const { signSession } = await import("../lib/auth/session");

const db = createDb(dbUrl);
const admin = await db.user.findFirst({
  where: { role: "admin", disabledAt: null },
  orderBy: { id: "asc" },
  select: { id: true, username: true, sessionVersion: true },
});
const posts = toNumber((await db.$queryRaw<{ n: SqlNumber }[]>`SELECT sum("n") AS "n" FROM "post_day_stats"`)[0]?.n);
const flags = await db.flag.count();
const [days] = await db.$queryRaw<{ first: string; last: string }[]>`SELECT min("day") AS "first", max("day") AS "last" FROM "post_day_stats" WHERE "n" > 0`;
await db.$disconnect();
if (!admin) {
  console.error("the database has no admin user; create one with `npx campuswatch users add --role admin`");
  process.exit(1);
}
const token = await signSession({ userId: Number(admin.id), username: admin.username, role: "admin", sessionVersion: admin.sessionVersion });

const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-"));
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
  env: { ...process.env, DATABASE_URL: dbUrl, CAMPUSWATCH_DATA_DIR: dataDir, CAMPUSWATCH_SECRET: secret, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "pipe"],
});
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));
const stop = () => {
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on("exit", stop);

async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    try {
      const r = await fetch(`${base}/sign-in`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start:\n${serverLog}`);
}

/** Time one complete response (headers + the whole streamed body). */
async function timeOnce(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(base + url, { headers: { cookie: `cw_session=${token}` }, redirect: "manual" });
  const body = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  if (!body.includes("</html>")) throw new Error(`${url}: incomplete document`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.9) - 1)]!;

const ninetyDaysAgo = new Date(Date.now() + 8 * 3_600_000 - 90 * 86_400_000).toISOString().slice(0, 10);
const q = encodeURIComponent("作弊");
const ALL_PAGES: { name: string; url: string; target?: boolean }[] = [
  { name: "Flagged list (home)", url: "/", target: true },
  { name: "Filtered full-text search (posts: 作弊, Tieba, last 90 days)", url: `/posts?q=${q}&platform=tieba&from=${ninetyDaysAgo}`, target: true },
  { name: "Charts page (default: 90 days)", url: "/charts", target: true },
  { name: "Charts page, 1 year", url: "/charts?days=365" },
  { name: "Flagged list: unreviewed, topic 1, min score 0.8", url: "/?review=open&topic=1&minScore=0.8" },
  { name: "Flagged list: search 期末考试 (3+ characters)", url: `/?q=${encodeURIComponent("期末考试")}` },
  { name: "Posts list (all, newest)", url: "/posts" },
  // The other pages of the navigation: in the browser figures (every page under 500 ms) too.
  { name: "Accounts", url: "/accounts" },
  { name: "Crawl runs", url: "/runs" },
  { name: "Workers", url: "/workers" },
  { name: "Topics", url: "/topics" },
  { name: "Seed URL sets", url: "/seeds" },
  { name: "Discovery", url: "/discovery" },
];
const PAGES = args.only ? ALL_PAGES.filter((p) => p.url.includes(args.only!)) : ALL_PAGES;

await waitForServer();
console.log(`database: ${kind === "sqlite" ? sqlitePath(args.db) : redactUrl(args.db)} (${kind})`);
console.log(`          ${posts.toLocaleString("en-US")} posts and replies, ${flags.toLocaleString("en-US")} flags, ${days!.first} – ${days!.last}`);
console.log(`server:   next start (${distDir}), ${runs} timed requests per page after ${warmup} warm-up`);
if (browserRuns > 0)
  console.log(`browser:  Chromium to the load event, ${browserRuns} timed loads per page after ${browserWarmup} warm-up, one signed-in context`);
console.log("");

// A deeper page of the flagged list, reached the way a user does (its "Older" link).
const home = await (await fetch(`${base}/`, { headers: { cookie: `cw_session=${token}` } })).text();
const older = /href="(\/\?after=[^"]+)"/.exec(home)?.[1]?.replace(/&amp;/g, "&");
if (older && !args.only) PAGES.splice(1, 0, { name: "Flagged list, next page (keyset cursor)", url: older });
// An author's page, reached the way a user does (the first author name on the posts list).
const postsList = await (await fetch(`${base}/posts`, { headers: { cookie: `cw_session=${token}` } })).text();
const author = /href="(\/authors\/[^"?]+)"/.exec(postsList)?.[1];
if (author && !args.only) PAGES.push({ name: "An author's page (first author of the posts list)", url: author });

const results: { name: string; url: string; median: number; p90: number; target?: boolean; browser?: { median: number; p90: number; js: number } }[] = [];
for (const p of PAGES) {
  for (let i = 0; i < warmup; i++) await timeOnce(p.url);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeOnce(p.url));
  results.push({ name: p.name, url: p.url, median: median(times), p90: p90(times), target: p.target });
  console.log(`${p.target ? "*" : " "} ${p.name.padEnd(62)} median ${median(times).toFixed(0).padStart(5)} ms   p90 ${p90(times).toFixed(0).padStart(5)} ms`);
}

if (browserRuns > 0) {
  console.log(`\nIn the browser (Chromium, to the load event, alternating rounds; server median beside it):`);
  await browserLoadTimes(
    results.map((r) => r.url),
    {
      base,
      token,
      runs: browserRuns,
      warmup: browserWarmup,
      onPage: (b) => {
        const r = results.find((x) => x.url === b.url)!;
        r.browser = { median: median(b.times), p90: p90(b.times), js: b.scriptBytes };
        const drawn = b.drawn.length ? `, first chart drawn at ${median(b.drawn).toFixed(0)} ms` : "";
        console.log(
          `  ${r.name.padEnd(62)} median ${r.browser.median.toFixed(0).padStart(5)} ms   p90 ${r.browser.p90.toFixed(0).padStart(5)} ms   (server ${r.median.toFixed(0)} ms, JS ${(b.scriptBytes / 1024).toFixed(0)} KiB${drawn})`,
        );
      },
    },
  );
}
const failed = results.filter((r) => r.target && r.median >= 500);
const slowInBrowser = results.filter((r) => r.browser && r.browser.median >= 500);
console.log(`\n* target: server median under 500 ms — ${failed.length === 0 ? "met" : `NOT met for ${failed.map((f) => f.name).join(", ")}`}`);
if (browserRuns > 0) {
  console.log(
    `  target: browser median under 500 ms on every page — ${slowInBrowser.length === 0 ? "met" : `NOT met for ${slowInBrowser.map((f) => f.name).join(", ")}`}`,
  );
}
stop();
process.exit(failed.length === 0 && slowInBrowser.length === 0 ? 0 : 1);
