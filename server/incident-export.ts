/**
 * Incidents for the command line: the list, one incident with its members and history, and the
 * JSONL export (one line per incident, its member posts named the way `posts export` names a post:
 * server/export.ts {@link postRef}). Read-only; the same on SQLite and PostgreSQL.
 *
 * "Incidents" here are those the dashboard shows as incidents, "open" and "handled", unless a
 * status is asked for: a candidate is not an incident yet, a dismissed one is a reviewer's "not one
 * incident", a merged one lives on in the incident it was merged into.
 */
import { z } from "zod";
import type { Db } from "../lib/db";
import { parseJsonColumn } from "../lib/json-column";
import { postRef } from "./export";

/** Every state of an incident (prisma/schema.prisma Incident.status). */
export const INCIDENT_STATUSES = ["candidate", "open", "handled", "dismissed", "merged"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
/** The states listed and exported when none is asked for. */
export const LISTED_INCIDENT_STATUSES: readonly IncidentStatus[] = ["open", "handled"];

const strings = z.array(z.string());

/** Which incidents. */
export interface IncidentFilter {
  /** @default {@link LISTED_INCIDENT_STATUSES} */
  statuses?: readonly IncidentStatus[];
  topicId?: number;
  /** At most this many (the list; the export streams all). */
  take?: number;
}

/** One incident as the list shows it. */
export interface IncidentSummary {
  id: number;
  status: string;
  title: string;
  topic: { id: number; name: string } | null;
  keywords: string[];
  platforms: string[];
  heat: number;
  bursting: boolean;
  size: number;
  threadCount: number;
  authorCount: number;
  flaggedCount: number;
  negativeCount: number;
  firstSeenAt: string;
  lastSeenAt: string;
  handledAt: string | null;
  mergedIntoId: number | null;
}

const SUMMARY_SELECT = {
  id: true,
  status: true,
  title: true,
  keywords: true,
  platforms: true,
  heat: true,
  bursting: true,
  size: true,
  threadCount: true,
  authorCount: true,
  flaggedCount: true,
  negativeCount: true,
  firstSeenAt: true,
  lastSeenAt: true,
  handledAt: true,
  mergedIntoId: true,
  topic: { select: { id: true, name: true } },
} as const;

type SummaryRow = {
  [K in keyof Omit<IncidentSummary, "keywords" | "platforms" | "firstSeenAt" | "lastSeenAt" | "handledAt">]: IncidentSummary[K];
} & { keywords: string; platforms: string; firstSeenAt: Date; lastSeenAt: Date; handledAt: Date | null };

function summary(i: SummaryRow): IncidentSummary {
  return {
    ...i,
    keywords: parseJsonColumn(i.keywords, strings, []),
    platforms: parseJsonColumn(i.platforms, strings, []),
    firstSeenAt: i.firstSeenAt.toISOString(),
    lastSeenAt: i.lastSeenAt.toISOString(),
    handledAt: i.handledAt?.toISOString() ?? null,
  };
}

function whereOf(filter: IncidentFilter) {
  return { status: { in: [...(filter.statuses ?? LISTED_INCIDENT_STATUSES)] }, ...(filter.topicId !== undefined ? { topicId: filter.topicId } : {}) };
}

/** Incidents hottest first (then newest). */
export async function listIncidents(db: Db, filter: IncidentFilter = {}): Promise<IncidentSummary[]> {
  const rows = await db.incident.findMany({
    where: whereOf(filter),
    orderBy: [{ heat: "desc" }, { lastSeenAt: "desc" }, { id: "asc" }],
    take: filter.take ?? 50,
    select: SUMMARY_SELECT,
  });
  return rows.map(summary);
}

/** One member post of {@link IncidentDetail}. */
export interface IncidentMember {
  postId: number;
  accountUrl: string;
  platformId: string;
  platform: string;
  kind: string;
  url: string;
  title: string;
  author: string;
  publishedAt: string;
  reason: string;
  score: number | null;
  pinned: boolean;
  /** Topics with an open or confirmed flag on it. */
  flags: { topic: string; status: string }[];
}

/** One incident with its members (oldest first) and its reviewers' actions (oldest first). */
export interface IncidentDetail extends IncidentSummary {
  representativePostId: number | null;
  members: IncidentMember[];
  actions: { kind: string; userId: number | null; detail: unknown; note: string; createdAt: string }[];
}

/** An incident by id, whatever its state; null when there is none. */
export async function getIncident(db: Db, id: number): Promise<IncidentDetail | null> {
  const i = await db.incident.findUnique({
    where: { id },
    select: {
      ...SUMMARY_SELECT,
      representativePostId: true,
      actions: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { kind: true, userId: true, detail: true, note: true, createdAt: true } },
    },
  });
  if (!i) return null;
  const members = await db.incidentPost.findMany({
    where: { incidentId: id },
    select: {
      reason: true,
      score: true,
      pinned: true,
      post: {
        select: {
          id: true,
          platformId: true,
          kind: true,
          url: true,
          title: true,
          author: true,
          publishedAt: true,
          account: { select: { entryUrl: true, platform: true } },
          flags: { where: { status: { in: ["open", "confirmed"] } }, select: { status: true, topic: { select: { name: true } } } },
        },
      },
    },
    orderBy: [{ post: { publishedAt: "asc" } }, { postId: "asc" }],
  });
  const { actions, representativePostId, ...rest } = i;
  return {
    ...summary(rest),
    representativePostId,
    members: members.map((m) => ({
      postId: m.post.id,
      ...postRef(m.post),
      platform: m.post.account.platform,
      kind: m.post.kind,
      url: m.post.url,
      title: m.post.title,
      author: m.post.author,
      publishedAt: m.post.publishedAt.toISOString(),
      reason: m.reason,
      score: m.score,
      pinned: m.pinned,
      flags: m.post.flags.map((f) => ({ topic: f.topic.name, status: f.status })),
    })),
    actions: actions.map((a) => ({
      kind: a.kind,
      userId: a.userId,
      detail: parseJsonColumn(a.detail, z.unknown(), a.detail),
      note: a.note,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/**
 * The JSONL export: one line per incident in id order (keyset batches, constant memory), with
 * exactly `id`, `title`, `keywords`, `firstSeenAt`, `lastSeenAt`, `heat`, `platforms`, `size` and
 * `posts` ([{accountUrl, platformId}], oldest first: the keys by which `posts export` names a post).
 */
export async function* exportIncidents(db: Db, filter: IncidentFilter = {}): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const rows = await db.incident.findMany({
      where: { id: { gt: after }, ...whereOf(filter) },
      orderBy: { id: "asc" },
      take: 200,
      select: {
        id: true,
        title: true,
        keywords: true,
        firstSeenAt: true,
        lastSeenAt: true,
        heat: true,
        platforms: true,
        size: true,
        posts: {
          select: { post: { select: { platformId: true, account: { select: { entryUrl: true } } } } },
          orderBy: [{ post: { publishedAt: "asc" } }, { postId: "asc" }],
        },
      },
    });
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    let out = "";
    for (const i of rows) {
      const line = {
        id: i.id,
        title: i.title,
        keywords: parseJsonColumn(i.keywords, strings, []),
        firstSeenAt: i.firstSeenAt.toISOString(),
        lastSeenAt: i.lastSeenAt.toISOString(),
        heat: i.heat,
        platforms: parseJsonColumn(i.platforms, strings, []),
        size: i.size,
        posts: i.posts.map((m) => postRef(m.post)),
      };
      out += JSON.stringify(line) + "\n";
    }
    yield out;
  }
}
