/**
 * Incidents (事件) for the dashboard: the list (by heat, with filters and a trend sparkline),
 * one incident with its members, timeline by platform and reviewer history, the home page's
 * rising incidents, and the inputs of the reviewer's actions. The writes themselves are in
 * crawler/incidents/review.ts (the tables' owner); this module validates what a form sent.
 *
 * SQL is written once for SQLite and PostgreSQL (server/sql.ts says how).
 */
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { inScope, scopeSql, scopeWhere, type TopicScope } from "../lib/topic-scope";
import type { Db } from "../lib/db";
import { parseJsonColumn } from "../lib/json-column";
import { isPlatform, type Platform } from "../lib/platforms";
import { SHANGHAI_OFFSET_MS } from "../lib/time";
import type { StackedPoint } from "../lib/charts/series";
import { COUNTED_FLAG_STATES } from "../crawler/incidents/figures";
import { INCIDENT_NOTE_MAX, INCIDENT_TITLE_MAX } from "../crawler/incidents/review";
import { toNumber, type SqlNumber } from "./sql";

/** The reviewer's writes, for the dashboard's actions (app/ sees the crawler only through server/ here). */
export { IncidentReviewError, INCIDENT_TITLE_MAX, mergeIncidents, renameIncident, setIncidentStatus, splitIncident } from "../crawler/incidents/review";

/** Every incident status; "candidate" and "merged" are not shown unless asked for. */
export const INCIDENT_STATES = ["candidate", "open", "handled", "dismissed", "merged"] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];
/** What the list shows without a status filter. */
export const DEFAULT_INCIDENT_STATES: readonly IncidentState[] = ["open", "handled"];
/** The time filter: incidents last seen within this window. */
export const INCIDENT_WINDOWS = { "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type IncidentWindow = keyof typeof INCIDENT_WINDOWS;
/** The sentiment filter: at least this share (percent) of the members are negative. */
export const NEGATIVE_SHARES = [25, 50, 75] as const;
export const INCIDENT_PAGE_SIZE = 30;
/** Members listed on an incident page (the figures count them all). */
export const MEMBER_LIMIT = 500;

export interface IncidentFilter {
  states: IncidentState[];
  topicId?: number;
  /** The reader's topic scope (lib/topic-scope.ts), from the user, never the URL; null or undefined: every topic. */
  scope?: TopicScope;
  platform?: Platform;
  /** Minimum percentage of negative members. */
  negativeShare?: number;
  window?: IncidentWindow;
  page: number;
}

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The list's filter from the URL; anything unknown is ignored (a bookmarked URL never fails). */
export function parseIncidentFilter(sp: Params): IncidentFilter {
  const status = first(sp.status);
  const topic = Number(first(sp.topic));
  const platform = first(sp.platform) ?? "";
  const neg = Number(first(sp.neg));
  const window = first(sp.since) ?? "";
  const page = Number(first(sp.page));
  return {
    states:
      status === "all"
        ? [...INCIDENT_STATES]
        : (INCIDENT_STATES as readonly string[]).includes(status ?? "")
          ? [status as IncidentState]
          : [...DEFAULT_INCIDENT_STATES],
    topicId: Number.isSafeInteger(topic) && topic > 0 ? topic : undefined,
    platform: isPlatform(platform) ? platform : undefined,
    negativeShare: (NEGATIVE_SHARES as readonly number[]).includes(neg) ? neg : undefined,
    window: window in INCIDENT_WINDOWS ? (window as IncidentWindow) : undefined,
    page: Number.isSafeInteger(page) && page > 1 ? Math.min(page, 1000) : 1,
  };
}

/** The URL query of a filter (the status as the URL spells it). */
export function incidentFilterParams(f: IncidentFilter): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.states.length === INCIDENT_STATES.length) sp.set("status", "all");
  else if (f.states.length === 1) sp.set("status", f.states[0]!);
  if (f.topicId) sp.set("topic", String(f.topicId));
  if (f.platform) sp.set("platform", f.platform);
  if (f.negativeShare) sp.set("neg", String(f.negativeShare));
  if (f.window) sp.set("since", f.window);
  return sp;
}

// ---------------------------------------------------------------------------------------------
// Time buckets (the sparkline and the timeline)

export type BucketSize = "hour" | "day";

/** Hourly buckets for an incident spanning up to three days, daily ones beyond. */
export function bucketSizeFor(first: Date, last: Date): BucketSize {
  return last.getTime() - first.getTime() <= 72 * 3_600_000 ? "hour" : "day";
}

const MS = { hour: 3_600_000, day: 86_400_000 } as const;
/** At most this many buckets: a long-lived incident shows its latest ones. */
export const MAX_BUCKETS = 90;

/** The bucket number of `t` (Asia/Shanghai hours or days since the epoch). */
function bucketIndex(t: Date, size: BucketSize): number {
  return Math.floor((t.getTime() + SHANGHAI_OFFSET_MS) / MS[size]);
}

/** A bucket's label in Asia/Shanghai: "12-03 14:00" for an hour, "12-03" for a day. */
export function bucketText(index: number, size: BucketSize): string {
  const iso = new Date(index * MS[size]).toISOString();
  return size === "hour" ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}:00` : iso.slice(5, 10);
}

/**
 * Counts of `points` per bucket from the bucket of `from` to the bucket of `to` (at most
 * {@link MAX_BUCKETS}, the latest), one count per key. Pure.
 */
export function bucketCounts<K extends string>(
  points: readonly { at: Date; key: K }[],
  from: Date,
  to: Date,
  size: BucketSize,
  keys: readonly K[],
): { index: number; label: string; counts: Record<K, number> }[] {
  const last = bucketIndex(to, size);
  const start = Math.max(bucketIndex(from, size), last - MAX_BUCKETS + 1);
  const out = Array.from({ length: Math.max(0, last - start + 1) }, (_, i) => ({
    index: start + i,
    label: bucketText(start + i, size),
    counts: Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>,
  }));
  for (const p of points) {
    const b = out[bucketIndex(p.at, size) - start];
    if (b && p.key in b.counts) b.counts[p.key]++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The list

const stringList = z.array(z.string());

export interface IncidentRow {
  id: number;
  status: string;
  title: string;
  keywords: string[];
  topicName: string | null;
  heat: number;
  bursting: boolean;
  size: number;
  threadCount: number;
  authorCount: number;
  accountCount: number;
  platforms: string[];
  flaggedCount: number;
  negativeCount: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** Posts per bucket from first to last seen (hourly up to three days, then daily). */
  trend: number[];
  trendBucket: BucketSize;
}

function listConditions(f: IncidentFilter, now: Date): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`i."status" IN (${Prisma.join(f.states)})`];
  if (f.topicId) where.push(Prisma.sql`i."topicId" = ${f.topicId}`);
  const scoped = scopeSql(f.scope ?? null, Prisma.sql`i."topicId"`);
  if (scoped) where.push(scoped);
  // The platforms column is a JSON array of registry ids (quoted, so one id never matches inside another).
  if (f.platform) where.push(Prisma.sql`i."platforms" LIKE ${`%"${f.platform}"%`}`);
  // Integers on both sides: no float parameter whose type PostgreSQL would have to guess.
  if (f.negativeShare) where.push(Prisma.sql`i."size" > 0 AND i."negativeCount" * 100 >= ${Math.round(f.negativeShare)} * i."size"`);
  if (f.window) where.push(Prisma.sql`i."lastSeenAt" >= ${new Date(now.getTime() - INCIDENT_WINDOWS[f.window])}`);
  return where;
}

/** Posts per bucket of each incident (its sparkline), from its members' publication times. */
async function trends(db: Db, incidents: readonly { id: number; firstSeenAt: Date; lastSeenAt: Date }[]) {
  const members = await db.incidentPost.findMany({
    where: { incidentId: { in: incidents.map((i) => i.id) } },
    select: { incidentId: true, post: { select: { publishedAt: true } } },
  });
  const byIncident = new Map<number, { at: Date; key: "n" }[]>();
  for (const m of members) {
    const list = byIncident.get(m.incidentId) ?? [];
    list.push({ at: m.post.publishedAt, key: "n" });
    byIncident.set(m.incidentId, list);
  }
  return new Map(
    incidents.map((i) => {
      const size = bucketSizeFor(i.firstSeenAt, i.lastSeenAt);
      const counts = bucketCounts(byIncident.get(i.id) ?? [], i.firstSeenAt, i.lastSeenAt, size, ["n"] as const);
      return [i.id, { trend: counts.map((c) => c.counts.n), trendBucket: size }] as const;
    }),
  );
}

async function loadRows(db: Db, ids: readonly number[]): Promise<IncidentRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.incident.findMany({ where: { id: { in: [...ids] } }, include: { topic: { select: { name: true } } } });
  const trendOf = await trends(db, rows);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const t = trendOf.get(id)!;
    return [
      {
        id: r.id,
        status: r.status,
        title: r.title,
        keywords: parseJsonColumn(r.keywords, stringList, []),
        topicName: r.topic?.name ?? null,
        heat: r.heat,
        bursting: r.bursting,
        size: r.size,
        threadCount: r.threadCount,
        authorCount: r.authorCount,
        accountCount: r.accountCount,
        platforms: parseJsonColumn(r.platforms, stringList, []),
        flaggedCount: r.flaggedCount,
        negativeCount: r.negativeCount,
        firstSeenAt: r.firstSeenAt,
        lastSeenAt: r.lastSeenAt,
        trend: t.trend,
        trendBucket: t.trendBucket,
      },
    ];
  });
}

/**
 * One page of incidents, hottest first (then the latest seen): the filter's ids by one SQL query
 * on the (status, heat) index, then the rows with their topic and sparkline.
 */
export async function listIncidents(db: Db, f: IncidentFilter, now = new Date()): Promise<{ rows: IncidentRow[]; total: number; pages: number }> {
  const where = Prisma.join(listConditions(f, now), " AND ");
  const offset = (f.page - 1) * INCIDENT_PAGE_SIZE;
  const [ids, count] = await Promise.all([
    db.$queryRaw<{ id: number }[]>(
      Prisma.sql`SELECT i."id" AS "id" FROM "Incident" i WHERE ${where} ORDER BY i."heat" DESC, i."lastSeenAt" DESC, i."id" DESC LIMIT ${INCIDENT_PAGE_SIZE} OFFSET ${offset}`,
    ),
    db.$queryRaw<{ n: SqlNumber }[]>(Prisma.sql`SELECT count(*) AS "n" FROM "Incident" i WHERE ${where}`),
  ]);
  const total = toNumber(count[0]?.n);
  return {
    rows: await loadRows(
      db,
      ids.map((r) => Number(r.id)),
    ),
    total,
    pages: Math.max(1, Math.ceil(total / INCIDENT_PAGE_SIZE)),
  };
}

/**
 * The home page's rising incidents: open or handled ones seen in the last 24 hours, bursting ones
 * first, then by heat, with how many of their posts appeared in those 24 hours.
 */
export async function risingIncidents(db: Db, now = new Date(), limit = 5, scope: TopicScope = null): Promise<(IncidentRow & { recent: number })[]> {
  const since = new Date(now.getTime() - INCIDENT_WINDOWS["24h"]);
  const found = await db.incident.findMany({
    where: { status: { in: [...DEFAULT_INCIDENT_STATES] }, lastSeenAt: { gte: since }, ...scopeWhere(scope) },
    orderBy: [{ bursting: "desc" }, { heat: "desc" }, { lastSeenAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true },
  });
  const rows = await loadRows(
    db,
    found.map((r) => r.id),
  );
  const recent = await db.incidentPost.groupBy({
    by: ["incidentId"],
    where: { incidentId: { in: rows.map((r) => r.id) }, post: { publishedAt: { gte: since } } },
    _count: { _all: true },
  });
  const recentOf = new Map(recent.map((r) => [r.incidentId, r._count._all]));
  return rows.map((r) => ({ ...r, recent: recentOf.get(r.id) ?? 0 }));
}

// ---------------------------------------------------------------------------------------------
// One incident

/** One incident with everything its page shows; null when there is none with that id. */
export async function getIncident(db: Db, id: number, scope: TopicScope = null) {
  const incident = await db.incident.findUnique({ where: { id }, include: { topic: { select: { id: true, name: true } } } });
  // Outside the reader's scope is the same as not there (the page answers 404).
  if (!incident || !inScope(scope, incident.topicId)) return null;
  const [members, actions, mergedInto, timelinePoints] = await Promise.all([
    db.incidentPost.findMany({
      where: { incidentId: id },
      orderBy: [{ post: { publishedAt: "asc" } }, { postId: "asc" }],
      take: MEMBER_LIMIT,
      select: {
        reason: true,
        score: true,
        matchedPostId: true,
        pinned: true,
        addedAt: true,
        post: {
          select: {
            id: true,
            kind: true,
            parentId: true,
            title: true,
            text: true,
            url: true,
            author: true,
            authorId: true,
            publishedAt: true,
            deletedAt: true,
            sentiment: true,
            sentimentScore: true,
            version: true,
            account: { select: { id: true, name: true, platform: true } },
            flags: { select: { id: true, status: true, score: true, topic: { select: { name: true } } }, orderBy: { score: "desc" } },
            _count: { select: { versions: true } },
          },
        },
      },
    }),
    incidentHistory(db, id),
    incident.mergedIntoId ? db.incident.findUnique({ where: { id: incident.mergedIntoId }, select: { id: true, title: true } }) : null,
    db.incidentPost.findMany({ where: { incidentId: id }, select: { post: { select: { publishedAt: true, account: { select: { platform: true } } } } } }),
  ]);
  const platforms = parseJsonColumn(incident.platforms, stringList, []);
  const size = bucketSizeFor(incident.firstSeenAt, incident.lastSeenAt);
  const timeline = bucketCounts(
    timelinePoints.map((m) => ({ at: m.post.publishedAt, key: m.post.account.platform })),
    incident.firstSeenAt,
    incident.lastSeenAt,
    size,
    platforms,
  ).map((b): StackedPoint => ({ ...b.counts, bucket: b.label, label: b.label }));
  const representative = members.find((m) => m.post.id === incident.representativePostId)?.post ?? null;
  return {
    ...incident,
    keywords: parseJsonColumn(incident.keywords, stringList, []),
    platforms,
    mergedInto,
    members: members.map((m) => ({
      ...m,
      post: {
        ...m.post,
        excerpt: m.post.text.slice(0, 200),
        versions: m.post._count.versions,
        flagged: m.post.flags.some((f) => (COUNTED_FLAG_STATES as readonly string[]).includes(f.status)),
      },
    })),
    representative: representative ? { ...representative, excerpt: representative.text.slice(0, 400) } : null,
    actions,
    timeline,
    timelineBucket: size,
  };
}
export type IncidentDetail = NonNullable<Awaited<ReturnType<typeof getIncident>>>;

/**
 * The reviewer actions of an incident, newest first: its own, and the merge or split rows written
 * on another incident that name it (a merge is recorded on the incident merged into, a split on
 * the incident split; their detail starts `{"from":<id>,"into":<id>,`).
 */
export async function incidentHistory(db: Db, id: number) {
  const rows = await db.incidentAction.findMany({
    where: {
      OR: [{ incidentId: id }, { kind: "merge", detail: { startsWith: `{"from":${id},` } }, { kind: "split", detail: { contains: `,"into":${id},` } }],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  const userIds = [...new Set(rows.map((r) => r.userId).filter((u): u is number => u !== null))];
  const users = userIds.length ? await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, username: true } }) : [];
  const nameOf = new Map(users.map((u) => [u.id, u.username]));
  const detailSchema = z.object({
    from: z.union([z.number(), z.string()]).optional(),
    into: z.number().optional(),
    to: z.string().optional(),
    postIds: z.array(z.number()).optional(),
    oldTitle: z.string().optional(),
    newTitle: z.string().optional(),
    fromTitle: z.string().optional(),
  });
  return rows.map((r) => ({
    id: r.id,
    incidentId: r.incidentId,
    kind: r.kind,
    note: r.note,
    createdAt: r.createdAt,
    user: r.userId === null ? null : (nameOf.get(r.userId) ?? `#${r.userId}`),
    detail: parseJsonColumn(r.detail, detailSchema, {}),
  }));
}

/** Other incidents a reviewer may merge this one with: live ones, the latest seen first. */
export async function mergeChoices(db: Db, exceptId: number, limit = 100) {
  return db.incident.findMany({
    where: { id: { not: exceptId }, status: { in: ["candidate", "open", "handled"] } },
    orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, title: true, size: true, status: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Inputs of the reviewer's actions (app/(dashboard)/incidents/actions.ts)

const id = z.coerce.number().int().positive();
const note = z.string().trim().max(INCIDENT_NOTE_MAX).default("");

/** rename: a new title (required). */
export const renameSchema = z.object({ incidentId: id, title: z.string().trim().min(1).max(INCIDENT_TITLE_MAX), note });
/** merge: fold `fromId` into `intoId`; the page sends its own id and the chosen other one. */
export const mergeSchema = z.object({ incidentId: id, otherId: id, direction: z.enum(["into-this", "into-other"]).default("into-this"), note });
/** split: the chosen members move to a new incident, with an optional title. */
export const splitSchema = z.object({
  incidentId: id,
  postIds: z.array(id).min(1).max(MEMBER_LIMIT),
  title: z.string().trim().max(INCIDENT_TITLE_MAX).default(""),
  note,
});
/** handle, reopen or dismiss. */
export const statusSchema = z.object({ incidentId: id, move: z.enum(["handle", "reopen", "dismiss"]), note });

/** True when every incident of `ids` exists and lies in the reader's topic `scope` (a change's check). */
export async function incidentsInScope(db: Db, scope: TopicScope, ids: readonly number[]): Promise<boolean> {
  const wanted = [...new Set(ids)];
  return (await db.incident.count({ where: { id: { in: wanted }, ...scopeWhere(scope) } })) === wanted.length;
}
