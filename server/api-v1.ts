/**
 * What the `/api/v1/` routes read (issue 33): flags, incidents and posts with filters and cursor
 * pagination (newest first, by id, so a page boundary is stable while rows arrive), a post with its
 * versions, and a topic's feed. Plain JSON objects: dates as ISO text, JSON columns parsed. The
 * crawled text in them is hostile; JSON escapes it and the Atom feed (app/api/v1/topics/[id]/feed.atom)
 * escapes it as XML.
 */
import { z } from "zod";
import type { Db } from "../lib/db";
import { jsonList } from "../lib/format";
import { parseInput } from "../lib/validation";
import { decodeIdCursor, encodeIdCursor } from "../lib/api-v1";
import { inScope, scopeWhere, type TopicScope } from "../lib/topic-scope";

const optionalId = z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().positive().optional());
const optionalDate = z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.date({ error: "a date or time (ISO 8601)" }).optional());
const limit = z.preprocess((v) => (v === "" || v === null || v === undefined ? 50 : v), z.coerce.number().int().min(1).max(200, "limit is at most 200"));

/** The query string as an object: the first value of each name. */
function paramsOf(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(url).searchParams) if (!(k in out)) out[k] = v;
  return out;
}

/** A page of rows fetched with one extra: the cursor exists when there is more. */
function page<T extends { id: number }, R>(rows: T[], take: number, map: (r: T) => R): { data: R[]; nextCursor: string | null } {
  const more = rows.length > take;
  const shown = more ? rows.slice(0, take) : rows;
  return { data: shown.map(map), nextCursor: more ? encodeIdCursor(shown.at(-1)!.id) : null };
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const POST_SUMMARY = {
  id: true,
  kind: true,
  url: true,
  title: true,
  author: true,
  authorId: true,
  publishedAt: true,
  deletedAt: true,
  accountId: true,
  account: { select: { platform: true, name: true } },
} as const;

type PostSummaryRow = {
  id: number;
  kind: string;
  url: string;
  title: string;
  author: string;
  authorId: string;
  publishedAt: Date;
  deletedAt: Date | null;
  accountId: number;
  account: { platform: string; name: string };
};

function postSummary(p: PostSummaryRow) {
  return {
    id: p.id,
    kind: p.kind,
    url: p.url,
    title: p.title,
    author: p.author,
    authorId: p.authorId,
    platform: p.account.platform,
    accountId: p.accountId,
    account: p.account.name,
    publishedAt: p.publishedAt.toISOString(),
    deletedAt: p.deletedAt?.toISOString() ?? null,
  };
}

const flagQuery = z.object({
  status: z.enum(["open", "confirmed", "dismissed"], { error: "status is open, confirmed or dismissed" }).optional(),
  topic: optionalId,
  since: optionalDate,
  cursor: z.string().optional(),
  limit,
});

/**
 * GET /api/v1/flags: flags newest first; filters status, topic, since (created at or after). Only
 * flags of the token owner's topic `scope` (lib/topic-scope.ts).
 */
export async function apiFlags(db: Db, url: string, scope: TopicScope = null) {
  const q = parseInput(flagQuery, paramsOf(url));
  const before = decodeIdCursor(q.cursor);
  const rows = await db.flag.findMany({
    where: {
      AND: [scopeWhere(scope)],
      ...(q.status ? { status: q.status } : {}),
      ...(q.topic ? { topicId: q.topic } : {}),
      ...(q.since ? { createdAt: { gte: q.since } } : {}),
      ...(before ? { id: { lt: before } } : {}),
    },
    orderBy: { id: "desc" },
    take: q.limit + 1,
    include: { topic: { select: { name: true } }, post: { select: POST_SUMMARY } },
  });
  return page(rows, q.limit, flagJson);
}

function flagJson(f: {
  id: number;
  topicId: number;
  status: string;
  score: number;
  reasons: string;
  createdAt: Date;
  reviewedAt: Date | null;
  topic: { name: string };
  post: PostSummaryRow;
}) {
  return {
    id: f.id,
    topicId: f.topicId,
    topic: f.topic.name,
    status: f.status,
    score: f.score,
    reasons: parseJson(f.reasons) ?? [],
    createdAt: f.createdAt.toISOString(),
    reviewedAt: f.reviewedAt?.toISOString() ?? null,
    post: postSummary(f.post),
  };
}

/** One flag as the API shows it (after a review), or null (also when outside the reader's `scope`). */
export async function apiFlag(db: Db, id: number, scope: TopicScope = null) {
  const f = await db.flag.findUnique({ where: { id }, include: { topic: { select: { name: true } }, post: { select: POST_SUMMARY } } });
  return f && inScope(scope, f.topicId) ? flagJson(f) : null;
}

const incidentQuery = z.object({
  status: z.enum(["candidate", "open", "handled", "dismissed", "merged"], { error: "status is candidate, open, handled, dismissed or merged" }).optional(),
  topic: optionalId,
  since: optionalDate,
  cursor: z.string().optional(),
  limit,
});

/**
 * GET /api/v1/incidents: incidents newest first; filters status, topic, since (last seen at or
 * after). Only incidents of the token owner's topic `scope` (lib/topic-scope.ts).
 */
export async function apiIncidents(db: Db, url: string, scope: TopicScope = null) {
  const q = parseInput(incidentQuery, paramsOf(url));
  const before = decodeIdCursor(q.cursor);
  const rows = await db.incident.findMany({
    where: {
      AND: [scopeWhere(scope)],
      ...(q.status ? { status: q.status } : {}),
      ...(q.topic ? { topicId: q.topic } : {}),
      ...(q.since ? { lastSeenAt: { gte: q.since } } : {}),
      ...(before ? { id: { lt: before } } : {}),
    },
    orderBy: { id: "desc" },
    take: q.limit + 1,
    include: { topic: { select: { name: true } } },
  });
  return page(rows, q.limit, incidentJson);
}

function incidentJson(i: {
  id: number;
  status: string;
  title: string;
  keywords: string;
  topicId: number | null;
  topic: { name: string } | null;
  representativePostId: number | null;
  mergedIntoId: number | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  size: number;
  threadCount: number;
  authorCount: number;
  platforms: string;
  flaggedCount: number;
  negativeCount: number;
  heat: number;
  bursting: boolean;
  handledAt: Date | null;
  updatedAt: Date;
}) {
  return {
    id: i.id,
    status: i.status,
    title: i.title,
    keywords: jsonList<string>(i.keywords),
    topicId: i.topicId,
    topic: i.topic?.name ?? null,
    representativePostId: i.representativePostId,
    mergedIntoId: i.mergedIntoId,
    firstSeenAt: i.firstSeenAt.toISOString(),
    lastSeenAt: i.lastSeenAt.toISOString(),
    size: i.size,
    threadCount: i.threadCount,
    authorCount: i.authorCount,
    platforms: jsonList<string>(i.platforms),
    flaggedCount: i.flaggedCount,
    negativeCount: i.negativeCount,
    heat: i.heat,
    bursting: i.bursting,
    handledAt: i.handledAt?.toISOString() ?? null,
    updatedAt: i.updatedAt.toISOString(),
  };
}

const postQuery = z.object({
  account: optionalId,
  platform: z.string().max(40).optional(),
  since: optionalDate,
  flagged: z.enum(["0", "1"], { error: "flagged is 0 or 1" }).optional(),
  deleted: z.enum(["0", "1"], { error: "deleted is 0 or 1" }).optional(),
  cursor: z.string().optional(),
  limit,
});

/** GET /api/v1/posts: posts and replies newest first; filters account, platform, since (published), flagged, deleted. */
export async function apiPosts(db: Db, url: string) {
  const q = parseInput(postQuery, paramsOf(url));
  const before = decodeIdCursor(q.cursor);
  const rows = await db.post.findMany({
    where: {
      ...(q.account ? { accountId: q.account } : {}),
      ...(q.platform ? { account: { platform: q.platform } } : {}),
      ...(q.since ? { publishedAt: { gte: q.since } } : {}),
      ...(q.flagged === "1" ? { flags: { some: {} } } : q.flagged === "0" ? { flags: { none: {} } } : {}),
      ...(q.deleted === "1" ? { deletedAt: { not: null } } : q.deleted === "0" ? { deletedAt: null } : {}),
      ...(before ? { id: { lt: before } } : {}),
    },
    orderBy: { id: "desc" },
    take: q.limit + 1,
    select: { ...POST_SUMMARY, text: true, parentId: true, version: true, sentiment: true },
  });
  return page(rows, q.limit, (p) => ({ ...postSummary(p), parentId: p.parentId, text: p.text, version: p.version, sentiment: p.sentiment }));
}

/** GET /api/v1/posts/:id: a post with its stored versions (oldest first), its flags and its incident; null when there is none. */
export async function apiPost(db: Db, id: number) {
  const p = await db.post.findUnique({
    where: { id },
    select: {
      ...POST_SUMMARY,
      text: true,
      ocrText: true,
      parentId: true,
      version: true,
      sentiment: true,
      sentimentScore: true,
      firstSeenAt: true,
      lastSeenAt: true,
      versions: { orderBy: { version: "asc" }, select: { version: true, title: true, text: true, seenAt: true, replacedAt: true } },
      flags: { orderBy: { id: "asc" }, select: { id: true, topicId: true, status: true, score: true } },
      incident: { select: { incidentId: true } },
    },
  });
  if (!p) return null;
  return {
    ...postSummary(p),
    parentId: p.parentId,
    text: p.text,
    ocrText: p.ocrText,
    version: p.version,
    sentiment: p.sentiment,
    sentimentScore: p.sentimentScore,
    firstSeenAt: p.firstSeenAt.toISOString(),
    lastSeenAt: p.lastSeenAt.toISOString(),
    // Earlier versions, each as it was until replaced; the current text is the post's own.
    versions: p.versions.map((v) => ({
      version: v.version,
      title: v.title,
      text: v.text,
      seenAt: v.seenAt.toISOString(),
      replacedAt: v.replacedAt.toISOString(),
    })),
    flags: p.flags,
    incidentId: p.incident?.incidentId ?? null,
  };
}

/** What a topic's feed holds: its newest flags and incidents (at most `take` each). */
export async function topicFeed(db: Db, topicId: number, take = 50) {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { id: true, name: true, description: true } });
  if (!topic) return null;
  const [flags, incidents] = await Promise.all([
    db.flag.findMany({
      where: { topicId },
      orderBy: { id: "desc" },
      take,
      select: {
        id: true,
        status: true,
        score: true,
        createdAt: true,
        post: { select: { id: true, url: true, title: true, text: true, author: true, publishedAt: true } },
      },
    }),
    db.incident.findMany({
      where: { topicId, status: { notIn: ["merged"] } },
      orderBy: { id: "desc" },
      take,
      select: { id: true, title: true, status: true, size: true, firstSeenAt: true, updatedAt: true, keywords: true },
    }),
  ]);
  return { topic, flags, incidents };
}
