/**
 * Rows for the charts, read from the daily roll-ups of the post_search migration (a year is a few
 * thousand rows whatever the number of posts). Turning rows into series is lib/charts/series.ts.
 */
import { Prisma } from "@/generated/prisma/client";
import { dialectOf, type Db } from "../lib/db";
import { shanghaiDay, shanghaiDayStart } from "../lib/time";
import { addDays, dayList } from "../lib/charts/series";
import { DEFAULT_INCIDENT_STATES } from "./incidents";
import { shanghaiDaySql, toNumber, type SqlNumber } from "./sql";

export const CHART_RANGES = [7, 30, 90, 365] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
/** The ranges of an account's or a topic's charts (a year of one account's days says little). */
export const SCOPE_CHART_RANGES = [7, 30, 90] as const;

/** The range a page's `?days=` asks for when it is one of `ranges`, else `fallback`. */
export function chartRange(requested: string | undefined, ranges: readonly number[], fallback: number): number {
  const n = Number(requested);
  return ranges.includes(n) ? n : fallback;
}

/** The days of a range ending today (Asia/Shanghai). */
export function rangeDays(range: number, now = new Date()): string[] {
  return dayList(shanghaiDay(now), range);
}

/**
 * Whose rows a chart counts: everything (the charts page), one account's (its page) or one topic's
 * (its page). An account's posts are those it stored first (Post.accountId), as on the accounts list.
 */
export interface ChartScope {
  accountId?: number;
  topicId?: number;
}

/** `AND <alias>."accountId" = …` / `AND <alias>."topicId" = …` for the scope's set fields. */
function scopeWhere(scope: ChartScope, alias: { account?: string; topic?: string }): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (scope.accountId !== undefined && alias.account) parts.push(Prisma.sql`AND ${Prisma.raw(`${alias.account}."accountId"`)} = ${scope.accountId}`);
  if (scope.topicId !== undefined && alias.topic) parts.push(Prisma.sql`AND ${Prisma.raw(`${alias.topic}."topicId"`)} = ${scope.topicId}`);
  return parts.length ? Prisma.join(parts, " ") : Prisma.empty;
}

/**
 * Posts (and replies) per day (published, Asia/Shanghai) and platform. With a topic in the scope,
 * the posts judged on-topic for it (a relevant classification): a topic has no posts of its own,
 * and every post is classified against every topic. Those are counted from the classifications
 * (no roll-up holds topics); without a topic, from the post_day_stats roll-up.
 */
export async function postsPerDay(db: Db, fromDay: string, scope: ChartScope = {}) {
  const rows =
    scope.topicId === undefined
      ? await db.$queryRaw<{ day: string; key: string; n: SqlNumber }[]>`
    SELECT s."day", a."platform" AS "key", sum(s."n") AS "n" FROM "post_day_stats" s JOIN "Account" a ON a."id" = s."accountId"
    WHERE s."day" >= ${fromDay} ${scopeWhere(scope, { account: "s" })} GROUP BY 1, 2`
      : await db.$queryRaw<{ day: string; key: string; n: SqlNumber }[]>`
    SELECT ${shanghaiDaySql(dialectOf(db), Prisma.sql`p."publishedAt"`)} AS "day", a."platform" AS "key", count(*) AS "n"
    FROM "Classification" c JOIN "Post" p ON p."id" = c."postId" JOIN "Account" a ON a."id" = p."accountId"
    WHERE c."relevant" = TRUE AND p."publishedAt" >= ${shanghaiDayStart(fromDay)} ${scopeWhere(scope, { account: "p", topic: "c" })} GROUP BY 1, 2`;
  return rows.map((r) => ({ day: r.day, key: r.key, n: toNumber(r.n) }));
}

/**
 * Flags per day (of their post) and platform, or review status with `by: "status"` (an account's
 * or a topic's page: one platform, or the reviewers' outcome is what tells).
 */
export async function flagsPerDay(db: Db, fromDay: string, scope: ChartScope = {}, by: "platform" | "status" = "platform") {
  const key = by === "status" ? Prisma.sql`s."status"` : Prisma.sql`a."platform"`;
  const rows = await db.$queryRaw<{ day: string; key: string; n: SqlNumber }[]>`
    SELECT s."day", ${key} AS "key", sum(s."n") AS "n" FROM "flag_day_stats" s JOIN "Account" a ON a."id" = s."accountId"
    WHERE s."day" >= ${fromDay} ${scopeWhere(scope, { account: "s", topic: "s" })} GROUP BY 1, 2`;
  return rows.map((r) => ({ day: r.day, key: r.key, n: toNumber(r.n) }));
}

/**
 * Incidents per day they began (their first post's publication, Asia/Shanghai) and status, among
 * those the incident list shows by default. An account's: those with a post it stored; a topic's:
 * those attributed to it (Incident.topicId, as the list's topic filter).
 */
export async function incidentsPerDay(db: Db, fromDay: string, scope: ChartScope = {}) {
  const account =
    scope.accountId === undefined
      ? Prisma.empty
      : Prisma.sql`AND EXISTS (SELECT 1 FROM "IncidentPost" m JOIN "Post" p ON p."id" = m."postId" WHERE m."incidentId" = i."id" AND p."accountId" = ${scope.accountId})`;
  const rows = await db.$queryRaw<{ day: string; key: string; n: SqlNumber }[]>`
    SELECT ${shanghaiDaySql(dialectOf(db), Prisma.sql`i."firstSeenAt"`)} AS "day", i."status" AS "key", count(*) AS "n" FROM "Incident" i
    WHERE i."status" IN (${Prisma.join(DEFAULT_INCIDENT_STATES)}) AND i."firstSeenAt" >= ${shanghaiDayStart(fromDay)}
    ${scopeWhere({ topicId: scope.topicId }, { topic: "i" })} ${account} GROUP BY 1, 2`;
  return rows.map((r) => ({ day: r.day, key: r.key, n: toNumber(r.n) }));
}

/**
 * Reviews per day they were made (Asia/Shanghai) and decision ("confirm" | "dismiss"), of flags on
 * the scope's posts or topic. Every decision counts, a reviewer changing their mind included: it
 * is the reviewers' work per day.
 */
export async function reviewsPerDay(db: Db, fromDay: string, scope: ChartScope = {}) {
  const rows = await db.$queryRaw<{ day: string; key: string; n: SqlNumber }[]>`
    SELECT ${shanghaiDaySql(dialectOf(db), Prisma.sql`r."createdAt"`)} AS "day", r."decision" AS "key", count(*) AS "n"
    FROM "Review" r JOIN "Flag" f ON f."id" = r."flagId" JOIN "Post" p ON p."id" = f."postId"
    WHERE r."createdAt" >= ${shanghaiDayStart(fromDay)} ${scopeWhere(scope, { account: "p", topic: "f" })} GROUP BY 1, 2`;
  return rows.map((r) => ({ day: r.day, key: r.key, n: toNumber(r.n) }));
}

/** The four daily series of an account's or a topic's page, read at once. */
export async function scopeActivity(db: Db, fromDay: string, scope: ChartScope) {
  const [posts, flags, incidents, reviews] = await Promise.all([
    postsPerDay(db, fromDay, scope),
    flagsPerDay(db, fromDay, scope, "status"),
    incidentsPerDay(db, fromDay, scope),
    reviewsPerDay(db, fromDay, scope),
  ]);
  return { posts, flags, incidents, reviews };
}

/** Flags per topic and status in the range, the topics, and the posts in the range (the rate's denominator). */
export async function flagsByTopic(db: Db, fromDay: string) {
  const [rows, topics, posts] = await Promise.all([
    db.$queryRaw<{ topicId: SqlNumber; status: string; n: SqlNumber }[]>`
      SELECT "topicId", "status", sum("n") AS "n" FROM "flag_day_stats" WHERE "day" >= ${fromDay} GROUP BY 1, 2`,
    db.topic.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db.$queryRaw<{ n: SqlNumber | null }[]>`SELECT sum("n") AS "n" FROM "post_day_stats" WHERE "day" >= ${fromDay}`,
  ]);
  return { rows: rows.map((r) => ({ topicId: toNumber(r.topicId), status: r.status, n: toNumber(r.n) })), topics, posts: toNumber(posts[0]?.n) };
}

/** Top terms of the posts flagged in the last seven days (dismissed flags left out). */
export async function weekFlagTerms(db: Db, now = new Date()) {
  const since = new Date(now.getTime() - 7 * 86_400_000);
  return db.$queryRaw<{ topTerms: string; sensitiveHits: string }[]>`
    SELECT c."topTerms", c."sensitiveHits" FROM "Flag" f
    JOIN "Classification" c ON c."postId" = f."postId" AND c."topicId" = f."topicId"
    WHERE f."status" IN ('open', 'confirmed') AND f."createdAt" >= ${since}`;
}

/**
 * Posts and replies the crawler noticed deleted, per day it noticed (Asia/Shanghai) and platform,
 * with how many of them had been flagged (a moderator removing a flagged post is itself a signal).
 * Read from the posts themselves: deletions are few, so there is no roll-up for them.
 */
export async function deletionsPerDay(db: Db, fromDay: string) {
  const rows = await db.post.findMany({
    where: { deletedAt: { gte: shanghaiDayStart(fromDay) } },
    select: { deletedAt: true, account: { select: { platform: true } }, _count: { select: { flags: true } } },
  });
  const counts = new Map<string, { day: string; key: string; n: number }>();
  let flagged = 0;
  for (const r of rows) {
    const day = shanghaiDay(r.deletedAt!);
    const key = `${day}|${r.account.platform}`;
    const c = counts.get(key) ?? { day, key: r.account.platform, n: 0 };
    c.n++;
    counts.set(key, c);
    if (r._count.flags > 0) flagged++;
  }
  return { rows: [...counts.values()], total: rows.length, flagged };
}

/** Crawl runs per day (summed over accounts). */
export async function runsPerDay(db: Db, fromDay: string) {
  // On PostgreSQL "ms" is BIGINT, so its sum is NUMERIC (a Decimal here); the others are bigint.
  const rows = await db.$queryRaw<{ day: string; runs: SqlNumber; failed: SqlNumber; errors: SqlNumber; blocks: SqlNumber; pages: SqlNumber; ms: SqlNumber }[]>`
    SELECT "day", sum("runs") AS "runs", sum("failed") AS "failed", sum("errors") AS "errors", sum("blocks") AS "blocks", sum("pages") AS "pages", sum("ms") AS "ms"
    FROM "run_day_stats" WHERE "day" >= ${fromDay} GROUP BY "day"`;
  return rows.map((r) => ({
    day: r.day,
    runs: toNumber(r.runs),
    failed: toNumber(r.failed),
    errors: toNumber(r.errors),
    blocks: toNumber(r.blocks),
    pages: toNumber(r.pages),
    ms: toNumber(r.ms),
  }));
}

/** Posts, replies and flags per account in the range. */
export async function activityPerAccount(db: Db, fromDay: string) {
  const [posts, flags, accounts] = await Promise.all([
    db.$queryRaw<{ accountId: SqlNumber; kind: string; n: SqlNumber }[]>`
      SELECT "accountId", "kind", sum("n") AS "n" FROM "post_day_stats" WHERE "day" >= ${fromDay} GROUP BY 1, 2`,
    db.$queryRaw<{ accountId: SqlNumber; n: SqlNumber }[]>`
      SELECT "accountId", sum("n") AS "n" FROM "flag_day_stats" WHERE "day" >= ${fromDay} GROUP BY 1`,
    db.account.findMany({ select: { id: true, name: true, platform: true } }),
  ]);
  return {
    posts: posts.map((r) => ({ accountId: toNumber(r.accountId), kind: r.kind, n: toNumber(r.n) })),
    flags: flags.map((r) => ({ accountId: toNumber(r.accountId), n: toNumber(r.n) })),
    accounts,
  };
}

/** The newest discovery runs with their harvest points. */
export async function harvestRuns(db: Db, take = 6) {
  const runs = await db.discoveryRun.findMany({
    orderBy: { id: "desc" },
    take,
    select: { id: true, strategy: true, status: true, crawled: true, relevant: true, createdAt: true, topic: { select: { name: true } } },
  });
  const points = runs.length
    ? await db.harvestPoint.findMany({ where: { runId: { in: runs.map((r) => r.id) } }, select: { runId: true, crawled: true, relevant: true } })
    : [];
  return { runs, points };
}

/** First day of a range. */
export function fromDayOf(days: readonly string[]): string {
  return days[0] ?? addDays(shanghaiDay(new Date()), 0);
}
