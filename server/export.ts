/**
 * Export of stored posts and replies, streamed in id order (keyset batches, constant memory). One
 * record per post, however many accounts reached it: `accountUrl` is the account that stored it
 * first, `sources` every account that reached it (a keyword watch, another board of the site).
 */
import { csvRow } from "../lib/csv";
import type { AuthorKey } from "../lib/authors";
import type { Db } from "../lib/db";
import { anyJson, parseJsonColumn } from "../lib/json-column";
import { findPostIds, type Cursor, type PostFilter } from "./posts";
import { authorPostsWhere } from "./authors";
import { hashDigest } from "@/crawler/text";

export type ExportFormat = "jsonl" | "csv";

/** The fields of one exported record, in CSV column order. */
export const EXPORT_FIELDS = [
  "accountUrl",
  "platform",
  "platformId",
  "parentPlatformId",
  "kind",
  "url",
  "title",
  "author",
  "authorId",
  "publishedAt",
  "text",
  "sha1",
  "version",
  "firstSeenAt",
  "lastSeenAt",
  "deletedAt",
  "incomplete",
  "flags",
  "sources",
  "incidentId",
] as const;

export interface ExportFilter {
  format: ExportFormat;
  flagged?: boolean;
  accountId?: number;
  /** Only posts and replies the crawler noticed deleted on the platform. */
  deleted?: boolean;
  /** Only this author's posts and replies (lib/authors.ts). */
  author?: AuthorKey;
}

/** Yield the export as text chunks (header first for CSV). */
export async function* exportPosts(db: Db, filter: ExportFilter): AsyncGenerator<string> {
  if (filter.format === "csv") yield csvRow(EXPORT_FIELDS);
  const author = filter.author ? await authorPostsWhere(db, filter.author) : {};
  let after = 0;
  for (;;) {
    const rows = await db.post.findMany({
      where: {
        id: { gt: after },
        // Every post the account reached, also those another account stored first.
        ...(filter.accountId ? { sources: { some: { accountId: filter.accountId } } } : {}),
        ...(filter.flagged ? { flags: { some: {} } } : {}),
        ...(filter.deleted ? { deletedAt: { not: null } } : {}),
        ...author,
      },
      orderBy: { id: "asc" },
      take: 500,
      include: {
        account: { select: { entryUrl: true, platform: true } },
        parent: { select: { platformId: true } },
        flags: { select: { status: true, reasons: true, score: true, topic: { select: { name: true } } } },
        sources: SOURCES,
        incident: INCIDENT,
      },
    });
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    let out = "";
    for (const p of rows) {
      out += formatRecord(p, filter.format);
    }
    yield out;
  }
}

/** The accounts that reached a post, first one first (the `include` of the export queries). */
const SOURCES = {
  select: { firstSeenAt: true, account: { select: { id: true, entryUrl: true, name: true } } },
  orderBy: [{ firstSeenAt: "asc" as const }, { accountId: "asc" as const }],
};

/**
 * The incident a post belongs to (the `include` of the export queries). Only an incident the
 * dashboard shows as one ("open" or "handled") is named: a candidate is not an incident yet and a
 * dismissed one is a reviewer's "not one incident" (server/incident-export.ts lists the same ones).
 */
const INCIDENT = { select: { incidentId: true, incident: { select: { status: true } } } };

/** Statuses of an incident that `incidentId` names. */
const NAMED_INCIDENT_STATUSES = new Set(["open", "handled"]);

/**
 * How an export names a post: the account that stored it first and the platform's id of the post.
 * `posts export` records and `incidents export`'s member lists carry the same two keys, so the two
 * files join on them.
 */
export function postRef(p: { platformId: string; account: { entryUrl: string } }): { accountUrl: string; platformId: string } {
  return { accountUrl: p.account.entryUrl, platformId: p.platformId };
}

/** The post with what an export record needs (see the `include` of the export queries). */
interface ExportRow {
  platformId: string;
  kind: string;
  url: string;
  title: string;
  author: string;
  authorId: string;
  publishedAt: Date;
  text: string;
  sha1: string;
  version: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  deletedAt: Date | null;
  incomplete: boolean;
  account: { entryUrl: string; platform: string };
  parent: { platformId: string } | null;
  flags: { status: string; reasons: string; score: number; topic: { name: string } }[];
  sources: { firstSeenAt: Date; account: { id: number; entryUrl: string; name: string } }[];
  incident: { incidentId: number; incident: { status: string } } | null;
}

/** One export record as a JSONL line or a CSV row. */
function formatRecord(p: ExportRow, format: ExportFormat): string {
  const rec = {
    ...postRef(p),
    platform: p.account.platform,
    parentPlatformId: p.parent?.platformId ?? null,
    kind: p.kind,
    url: p.url,
    title: p.title,
    // The name as the page showed it, and the platform's stable id (names change; ids do not).
    author: p.author,
    authorId: p.authorId,
    publishedAt: p.publishedAt.toISOString(),
    text: p.text,
    // The digest alone, as before hashes carried their cleaning version (crawler/text.ts contentHash).
    sha1: hashDigest(p.sha1),
    version: p.version,
    firstSeenAt: p.firstSeenAt.toISOString(),
    lastSeenAt: p.lastSeenAt.toISOString(),
    // When the crawler noticed the post gone from the platform (kept, never removed); null: still there.
    deletedAt: p.deletedAt?.toISOString() ?? null,
    incomplete: p.incomplete,
    flags: p.flags.map((f) => ({ topic: f.topic.name, status: f.status, score: f.score, reasons: safeJson(f.reasons) })),
    sources: p.sources.map((s) => ({
      accountId: s.account.id,
      accountUrl: s.account.entryUrl,
      name: s.account.name,
      firstSeenAt: s.firstSeenAt.toISOString(),
    })),
    // The incident (事件) it belongs to; null when none (see INCIDENT).
    incidentId: p.incident && NAMED_INCIDENT_STATUSES.has(p.incident.incident.status) ? p.incident.incidentId : null,
  };
  if (format === "jsonl") return JSON.stringify(rec) + "\n";
  // Through the one CSV writer (lib/csv.ts): text cells defused against formulas, `version` a number.
  return csvRow(EXPORT_FIELDS.map((k) => (k === "flags" || k === "sources" ? JSON.stringify(rec[k]) : rec[k])));
}

/** A JSON column's value, or its text as it is when that is not JSON. */
function safeJson(s: string): unknown {
  return parseJsonColumn(s, anyJson, s);
}

/**
 * Export what a dashboard list shows: the same filter, newest first, streamed page by page with
 * the list's keyset query (constant memory at any size).
 */
export async function* exportFilteredPosts(db: Db, format: ExportFormat, filter: PostFilter): AsyncGenerator<string> {
  if (format === "csv") yield "\ufeff" + csvRow(EXPORT_FIELDS);
  let after: Cursor | undefined;
  for (;;) {
    const { page, more } = await findPostIds(db, filter, { after, take: 1000 });
    if (page.length === 0) return;
    const rows = await db.post.findMany({
      where: { id: { in: page.map((p) => p.id) } },
      include: {
        account: { select: { entryUrl: true, platform: true } },
        parent: { select: { platformId: true } },
        flags: { select: { status: true, reasons: true, score: true, topic: { select: { name: true } } } },
        sources: SOURCES,
        incident: INCIDENT,
      },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    let out = "";
    for (const { id } of page) {
      const p = byId.get(id);
      if (!p) continue;
      out += formatRecord(p, format);
    }
    yield out;
    if (!more) return;
    after = page.at(-1);
  }
}
