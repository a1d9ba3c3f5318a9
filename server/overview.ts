/** Read-only queries for the dashboard's headline figures and filter options. */
import type { Db } from "../lib/db";
import { shanghaiDay, shanghaiDayStart } from "../lib/time";
import { toNumber, type SqlNumber } from "./sql";
import { UNRECOGNISED } from "../lib/account-problems";

/** The Asia/Shanghai calendar day of an instant, "2026-11-30" (lib/time.ts; importers of this module keep their path). */
export { shanghaiDay };

/**
 * Headline counts for the home page, read from the daily roll-ups and small indexes so they cost
 * the same at a million posts as at a hundred.
 */
export async function headlineCounts(db: Db, now = new Date()) {
  const today = shanghaiDay(now);
  const [posts, postsToday, openFlags, flagsToday, reviewedToday, accounts, topics, running] = await Promise.all([
    db.$queryRaw<{ n: SqlNumber | null }[]>`SELECT sum("n") AS "n" FROM "post_day_stats"`,
    db.$queryRaw<{ n: SqlNumber | null }[]>`SELECT sum("n") AS "n" FROM "post_day_stats" WHERE "day" = ${today}`,
    db.flag.count({ where: { status: "open" } }),
    db.$queryRaw<{ n: SqlNumber | null }[]>`SELECT sum("n") AS "n" FROM "flag_day_stats" WHERE "day" = ${today}`,
    db.flag.count({ where: { status: { in: ["confirmed", "dismissed"] }, reviewedAt: { gte: shanghaiDayStart(today) } } }),
    db.account.groupBy({ by: ["enabled", "status"], _count: { _all: true } }),
    db.topic.count(),
    db.crawlRun.count({ where: { status: "running" } }),
  ]);
  let accountsTotal = 0;
  let accountsFailing = 0;
  let accountsEnabled = 0;
  for (const g of accounts) {
    accountsTotal += g._count._all;
    if (g.enabled) accountsEnabled += g._count._all;
    if (g.enabled && (g.status === "error" || g.status === "blocked" || g.status === "relogin" || g.status === UNRECOGNISED)) accountsFailing += g._count._all;
  }
  return {
    posts: toNumber(posts[0]?.n),
    postsToday: toNumber(postsToday[0]?.n),
    openFlags,
    flagsToday: toNumber(flagsToday[0]?.n),
    reviewedToday,
    accounts: accountsTotal,
    accountsEnabled,
    accountsFailing,
    topics,
    runningCrawls: running,
  };
}
export type HeadlineCounts = Awaited<ReturnType<typeof headlineCounts>>;

/** Topics and accounts for filter menus. */
export async function filterOptions(db: Db) {
  const [topics, accounts] = await Promise.all([
    db.topic.findMany({ select: { id: true, name: true, enabled: true }, orderBy: { name: "asc" } }),
    db.account.findMany({ select: { id: true, name: true, platform: true }, orderBy: [{ platform: "asc" }, { name: "asc" }] }),
  ]);
  return { topics, accounts };
}
export type FilterOptions = Awaited<ReturnType<typeof filterOptions>>;
