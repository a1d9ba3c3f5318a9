/**
 * Noticing deletions. Nothing is ever removed: a post or reply the platform no longer serves is
 * marked `deletedAt` (the time the crawler noticed), and seeing it again clears the mark and adds
 * a version (crawler/store/index.ts). Three ways to notice:
 *
 * - a thread or post page answers 404 / a deletion notice ({@link GoneError} from the adapter);
 * - a reply missing from thread pages that were read whole around it (its time lies strictly
 *   inside the span those pages cover);
 * - a post missing from the list where its time says it must be (forum lists are ordered by last
 *   reply, and activity only grows; Weibo timelines and blogs by publication), confirmed by
 *   opening it ({@link probeMissing}).
 *
 * Every post newly marked is remembered on the crawl (`Crawl.deleted`): at the end of the run the
 * deletion of a flagged post, or of a post in an open incident, is notified (删帖提醒,
 * {@link queueDeletionNotices}).
 */
import type { Db } from "../../lib/db";
import { anyJson, parseJsonColumn } from "../../lib/json-column";
import { deletionKey, deletionPayloadStart, queueTopicMessage, type DeletionPayload } from "../../lib/notify";
import { KEPT_FLAG_STATUSES, KEPT_INCIDENT_STATUSES } from "../evidence/keep";
import { SHANGHAI_OFFSET_MS } from "../../lib/time";
import { GoneError } from "../errors";
import { knownPosts, markDeleted, prepareItem } from "../store";
import type { AdapterContext, CrawlItem, ListItem, ListOrder, ThreadPage } from "../types";
import { commit } from "./commit";
import { note, type Crawl } from "./context";

/** Count posts newly marked deleted on the run, and remember them for their notices. */
function marked(c: Crawl, ids: number[]): number {
  c.s.deletedPosts += ids.length;
  c.deleted.push(...ids);
  return ids.length;
}

/** True when the error says the requested post is gone (not that the crawl failed). */
export function isGone(e: unknown): e is GoneError {
  return e instanceof GoneError;
}

/**
 * A post's page is gone: mark it deleted. A post never stored (a new list entry whose thread is
 * already gone) is stored from its list entry first, so the deletion is on record.
 */
export async function postGone(c: Crawl, item: ListItem, e: GoneError): Promise<void> {
  const known = await knownPosts(c.services.db, c.accountId, [item.platformId], c.now());
  if (!known.has(item.platformId)) await commit(c, [prepareItem(item, { replyCount: item.replyCount ?? null })]);
  const n = marked(c, await markDeleted(c.services.db, c.accountId, [item.platformId], c.now()));
  if (n > 0) {
    note(c, `deleted: ${item.platformId} (${e.message}; ${e.url ?? item.url})`);
  }
}

/** The span of time a run of consecutive thread pages covers, and the replies it showed. */
export interface Coverage {
  /** Exclusive bounds; null: open (the run starts at page 1, or ends at the last page). */
  after: Date | null;
  before: Date | null;
}

/** One forum page as read, for {@link coverageOf}. */
export interface ReadPage {
  page: number;
  pageCount: number;
  items: CrawlItem[];
}

/**
 * The time spans covered by the pages read: each run of consecutive page numbers covers from
 * its first page's oldest item to its last page's newest (open at page 1 and at the thread's
 * last page). Bounds are exclusive: replies of the same minute may sit on the neighbouring page.
 */
export function coverageOf(pages: ReadPage[]): Coverage[] {
  const sorted = [...pages].sort((a, b) => a.page - b.page);
  const out: Coverage[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.page === sorted[j]!.page + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    const times = (p: ReadPage) => p.items.map((it) => it.publishedAt.getTime());
    const firstTimes = times(first);
    const lastTimes = times(last);
    out.push({
      after: first.page === 1 ? null : firstTimes.length ? new Date(Math.min(...firstTimes)) : null,
      before: last.page >= last.pageCount ? null : lastTimes.length ? new Date(Math.max(...lastTimes)) : null,
    });
    // A middle page without any item cannot bound a span: skip such runs entirely.
    if ((first.page !== 1 && firstTimes.length === 0) || (last.page < last.pageCount && lastTimes.length === 0)) out.pop();
    i = j + 1;
  }
  return out;
}

/**
 * Replies of `threadId` stored earlier, not deleted, whose time lies inside a covered span but
 * that the pages no longer show: mark them deleted. Returns how many were marked.
 */
export async function markMissingReplies(c: Crawl, threadId: string, pages: ReadPage[], shown: Set<string>): Promise<number> {
  const spans = coverageOf(pages);
  if (spans.length === 0) return 0;
  const { db } = c.services;
  // The thread may have been stored first by another account of the site (crawler/store/index.ts).
  const parent = await db.post.findFirst({ where: { platformId: threadId, sources: { some: { accountId: c.accountId } } }, select: { id: true } });
  if (!parent) return 0;
  const stored = await db.post.findMany({ where: { parentId: parent.id, deletedAt: null }, select: { platformId: true, publishedAt: true } });
  const inside = (t: Date) => spans.some((s) => (s.after === null || t > s.after) && (s.before === null || t < s.before));
  const missing = stored.filter((r) => !shown.has(r.platformId) && inside(r.publishedAt)).map((r) => r.platformId);
  const n = marked(c, await markDeleted(db, c.accountId, missing, c.now()));
  if (n > 0) {
    note(c, `deleted: ${n} repl${n === 1 ? "y" : "ies"} gone from thread ${threadId} (${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""})`);
  }
  return n;
}

/** Pages of a thread as the worker saw them, flattened for {@link markMissingReplies}. */
export function readPageOf(tp: ThreadPage, threadId: string): ReadPage | null {
  if (tp.page === undefined || tp.pageCount === undefined) return null;
  // Only the thread's own floors place the page in time (sub-replies can be much newer).
  const floors = tp.replies.filter((r) => r.parentPlatformId === threadId);
  return { page: tp.page, pageCount: tp.pageCount, items: tp.head ? [tp.head, ...floors] : floors };
}

/**
 * How coarse a list time is. Lists print older rows as a day ("6-14") or a month ("2024-05") in
 * Beijing time, read as its midnight: a row shown so could have been active any time in that day
 * or month, so only a thread active after that span is known to belong above it.
 */
export function listPrecisionMs(t: Date): number {
  const beijing = new Date(t.getTime() + SHANGHAI_OFFSET_MS);
  if (beijing.getUTCHours() !== 0 || beijing.getUTCMinutes() !== 0) return 60_000;
  return beijing.getUTCDate() === 1 ? 31 * 86_400_000 : 86_400_000;
}

/** Posts opened per run to confirm they are gone from the list: each costs a request. */
export const MAX_PROBES = 5;

/**
 * A list that orders every post of the account (the adapter's `listOrder`) places each stored
 * post by its time: by last reply on forums (activity only grows), by publication on a Weibo
 * timeline or a blog. So a stored post whose time is newer than the oldest (unpinned) row the walk
 * read must have been listed. One that was not is opened through the adapter's `complete()`, at
 * most {@link MAX_PROBES} per run, newest first: a GoneError (a deletion notice, a 404) marks it
 * deleted; a post that opens is only listed elsewhere (moved, hidden from the list, or the list
 * lags), and nothing changes.
 * @param order how the rows read were ordered (the adapter's `listOrder`, confirmed by the pages)
 * @param seen platformIds of every row the walk read (pinned ones included)
 * @param oldest the oldest time (of `order`) among the unpinned rows read
 * @param marks each thread's newest activity already crawled (HistoryMark)
 */
export async function probeMissing(c: Crawl, order: ListOrder, seen: Set<string>, oldest: Date, marks: Map<string, Date>): Promise<void> {
  if (!c.adapter.complete) return;
  // A post within the list's precision of the edge may sit on the next page.
  const edge = new Date(oldest.getTime() + listPrecisionMs(oldest));
  const byActivity = order === "activity";
  const rows = await c.services.db.post.findMany({
    where: {
      sources: { some: { accountId: c.accountId } },
      kind: "post",
      deletedAt: null,
      ...(byActivity ? { OR: [{ publishedAt: { gt: edge } }, { lastReplyAt: { gt: edge } }] } : { publishedAt: { gt: edge } }),
    },
    select: { platformId: true, url: true, title: true, author: true, publishedAt: true, lastReplyAt: true },
    orderBy: { publishedAt: "desc" },
  });
  const suspects = rows.filter((r) => {
    if (seen.has(r.platformId)) return false;
    // Comments do not move a post in a list ordered by publication.
    const time = byActivity ? (marks.get(r.platformId) ?? r.lastReplyAt ?? r.publishedAt) : r.publishedAt;
    return time > edge;
  });
  // A probe stores nothing: what it could not read is only noted, never a warning about stored text.
  const ctx: AdapterContext = { ...c.ctx, warn: (w) => note(c, `probe of ${w.url}: ${w.field} unreadable (${w.raw.slice(0, 80)})`) };
  for (const r of suspects.slice(0, MAX_PROBES)) {
    const item: ListItem = {
      platformId: r.platformId,
      kind: "post",
      url: r.url,
      title: r.title,
      author: r.author,
      publishedAt: r.publishedAt,
      html: "",
      incomplete: true,
    };
    try {
      await c.adapter.complete(ctx, item);
    } catch (e) {
      if (isGone(e)) await postGone(c, item, e);
      else c.record(e, r.url);
    }
  }
}

/**
 * 删帖提醒: the posts this run marked deleted that have an open or confirmed flag, or belong to an
 * open incident (the posts whose evidence is kept: ../evidence/keep.ts), are told to the channels
 * of the topic concerned (lib/notify/deletion.ts), as pending notifications of the run that its
 * notifyRun job sends. Once per deletion: a deletion already queued for a topic (by a run of
 * another account of the same site) is not queued again. Returns the notifications queued.
 * @param baseUrl the dashboard's public URL for the links @default CAMPUSWATCH_PUBLIC_URL
 */
export async function queueDeletionNotices(db: Db, crawlRunId: number, postIds: readonly number[], baseUrl?: string): Promise<number> {
  if (postIds.length === 0) return 0;
  const posts = await db.post.findMany({
    where: { id: { in: [...postIds] }, deletedAt: { not: null } },
    select: {
      id: true,
      kind: true,
      url: true,
      title: true,
      text: true,
      author: true,
      publishedAt: true,
      deletedAt: true,
      account: { select: { name: true, platform: true } },
      flags: { where: { status: { in: [...KEPT_FLAG_STATUSES] } }, select: { id: true, topicId: true, status: true, score: true, reasons: true } },
      incident: { select: { incident: { select: { id: true, title: true, status: true, topicId: true } } } },
    },
    orderBy: { id: "asc" },
  });
  const base = (baseUrl ?? process.env.CAMPUSWATCH_PUBLIC_URL ?? "").replace(/\/$/, "") || null;
  const topicIds = new Set<number>();
  for (const p of posts) {
    for (const f of p.flags) topicIds.add(f.topicId);
    const inc = openIncident(p.incident?.incident);
    if (inc?.topicId != null) topicIds.add(inc.topicId);
  }
  if (topicIds.size === 0) return 0;
  const topics = new Map(
    (await db.topic.findMany({ where: { id: { in: [...topicIds] } }, select: { id: true, name: true, notifyLocale: true } })).map((t) => [t.id, t]),
  );
  let queued = 0;
  for (const p of posts) {
    const inc = openIncident(p.incident?.incident);
    const concerned = new Set([...p.flags.map((f) => f.topicId), ...(inc?.topicId != null ? [inc.topicId] : [])]);
    const key = deletionKey(p.id, p.deletedAt!);
    for (const topicId of concerned) {
      const topic = topics.get(topicId);
      if (!topic) continue;
      if (await db.notification.findFirst({ where: { topicId, payload: { startsWith: deletionPayloadStart(key) } }, select: { id: true } })) continue;
      const flag = p.flags.find((f) => f.topicId === topicId);
      const incident = inc?.topicId === topicId ? inc : null;
      const payload: DeletionPayload = {
        event: "campuswatch.deletion",
        key,
        locale: topic.notifyLocale === "en" ? "en" : "zh-CN",
        topic: { id: topic.id, name: topic.name },
        post: {
          id: p.id,
          kind: p.kind,
          url: p.url,
          title: p.title,
          excerpt: p.text.replace(/\s+/g, " ").slice(0, 200),
          author: p.author,
          platform: p.account.platform,
          account: p.account.name,
          publishedAt: p.publishedAt.toISOString(),
          deletedAt: p.deletedAt!.toISOString(),
        },
        flag: flag ? { id: flag.id, status: flag.status, score: flag.score, reasons: parseJsonColumn(flag.reasons, anyJson, flag.reasons) } : null,
        incident: incident ? { id: incident.id, title: incident.title } : null,
        postUrl: base ? `${base}/posts/${p.id}` : null,
        incidentUrl: base && incident ? `${base}/incidents/${incident.id}` : null,
        crawlRunId,
      };
      queued += (await queueTopicMessage(db, topicId, payload, { crawlRunId })).length;
    }
  }
  return queued;
}

/** The incident, when it is one whose posts' deletions are told (open). */
function openIncident<T extends { status: string }>(inc: T | null | undefined): T | null {
  return inc && (KEPT_INCIDENT_STATUSES as readonly string[]).includes(inc.status) ? inc : null;
}
