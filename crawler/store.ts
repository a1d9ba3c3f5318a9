/**
 * Dedupe and store: the only code that writes posts. Each page of items is written in one
 * transaction; the unique key (account, platform id) makes a repeated page harmless, and the SHA-1
 * of the cleaned text tells new / changed / unchanged apart.
 */
import type { Db } from "../lib/db";
import type { CrawlItem } from "./types";
import { contentSha1, htmlToText } from "./text";

/** An item ready to store: its text cleaned and hashed. */
export interface PreparedItem {
  item: CrawlItem;
  text: string;
  sha1: string;
  /** SHA-1 of the listing excerpt for items completed by another request (see Post.listSha1). */
  listSha1?: string | null;
  replyCount?: number | null;
  lastReplyAt?: Date | null;
  archivePath?: string | null;
}

/** Clean and hash an item. */
export function prepareItem(item: CrawlItem, extra: Omit<PreparedItem, "item" | "text" | "sha1"> = {}): PreparedItem {
  const text = htmlToText(item.html);
  return { item, text, sha1: contentSha1(item.title, text), ...extra };
}

/** What a stored page changed. */
export interface StoreOutcome {
  /** Ids of posts created by this page. */
  created: number[];
  /** Ids of posts whose content changed, or that reappeared after a deletion (a new version was stored). */
  changed: number[];
  /** Ids of posts among `changed` that had been marked deleted and are back. */
  restored: number[];
  unchanged: number;
}

/** The stored state of known items, for decisions before fetching more (listSha1, reply counts). */
export async function knownPosts(db: Db, accountId: number, platformIds: string[]) {
  if (platformIds.length === 0) return new Map<string, KnownPost>();
  const rows = await db.post.findMany({
    where: { accountId, platformId: { in: platformIds } },
    select: { id: true, platformId: true, sha1: true, listSha1: true, replyCount: true, lastReplyAt: true, publishedAt: true, incomplete: true, deletedAt: true },
  });
  return new Map(rows.map((r) => [r.platformId, r]));
}
export interface KnownPost {
  id: number;
  platformId: string;
  sha1: string;
  listSha1: string | null;
  replyCount: number | null;
  lastReplyAt: Date | null;
  publishedAt: Date;
  /** The stored text is partial: read the full text again even when the excerpt is unchanged. */
  incomplete: boolean;
  /** Marked deleted by an earlier crawl: seeing it again restores it (as a new version). */
  deletedAt: Date | null;
}

/**
 * Write one page of items in one transaction. New items are created; an item whose SHA-1 changed
 * gets its old content copied to PostVersion and the new content stored as the next version;
 * an unchanged item only has `lastSeenAt` moved. Replies are linked to their parent by
 * `parentPlatformId` (the parent must be stored already, or earlier in the same page). Created and
 * changed posts are listed in UnclassifiedPost until the classifier has judged them.
 */
export async function storePage(db: Db, accountId: number, items: PreparedItem[], now: Date): Promise<StoreOutcome> {
  const outcome: StoreOutcome = { created: [], changed: [], restored: [], unchanged: 0 };
  if (items.length === 0) return outcome;
  // The same item can appear twice on one page (a pinned copy and the regular row): keep the last.
  const byId = new Map(items.map((p) => [p.item.platformId, p]));
  await db.$transaction(async (tx) => {
    const ids = [...byId.keys()];
    const parentIds = [...new Set(items.map((p) => p.item.parentPlatformId).filter((x): x is string => Boolean(x)))];
    const existing = await tx.post.findMany({
      where: { accountId, platformId: { in: [...new Set([...ids, ...parentIds])] } },
    });
    const known = new Map(existing.map((r) => [r.platformId, r]));
    for (const p of byId.values()) {
      const { item } = p;
      const prev = known.get(item.platformId);
      if (!prev) {
        const parentId = item.parentPlatformId ? known.get(item.parentPlatformId)?.id ?? null : null;
        const created = await tx.post.create({
          data: {
            accountId,
            platformId: item.platformId,
            parentId,
            kind: item.kind,
            url: item.url,
            title: item.title,
            author: item.author,
            authorId: item.authorId ?? "",
            publishedAt: item.publishedAt,
            incomplete: item.textIncomplete ?? false,
            text: p.text,
            html: item.html,
            sha1: p.sha1,
            listSha1: p.listSha1 ?? null,
            replyCount: p.replyCount ?? null,
            lastReplyAt: p.lastReplyAt ?? null,
            archivePath: p.archivePath ?? null,
            firstSeenAt: now,
            lastSeenAt: now,
          },
        });
        known.set(item.platformId, created);
        outcome.created.push(created.id);
        continue;
      }
      // Bookkeeping fields move forward whatever the content did.
      const bookkeeping = {
        lastSeenAt: now,
        ...(p.listSha1 !== undefined && p.listSha1 !== null ? { listSha1: p.listSha1 } : {}),
        ...(p.replyCount !== undefined && p.replyCount !== null ? { replyCount: p.replyCount } : {}),
        ...(p.lastReplyAt ? { lastReplyAt: p.lastReplyAt } : {}),
        // A name change (Tieba nicknames change) or a newly read author id is not an edit.
        ...(item.author && item.author !== prev.author ? { author: item.author } : {}),
        ...(item.authorId && item.authorId !== prev.authorId ? { authorId: item.authorId } : {}),
      };
      // A post marked deleted that is served again is back: the mark is cleared and the return
      // is kept as a version (the moderation history shows it went away and came back).
      const restored = prev.deletedAt !== null;
      // A partial text (Weibo long text whose full text failed) never replaces a complete one:
      // the next crawl tries the full text again.
      if (item.textIncomplete && !prev.incomplete && prev.sha1 !== p.sha1 && !restored) {
        await tx.post.update({ where: { id: prev.id }, data: bookkeeping });
        outcome.unchanged++;
        continue;
      }
      if (prev.sha1 === p.sha1 && !restored) {
        await tx.post.update({ where: { id: prev.id }, data: bookkeeping });
        outcome.unchanged++;
        continue;
      }
      // Completing a partial text is not an edit: the content is replaced in place (and classified
      // again), without a version.
      const completing = prev.incomplete && !item.textIncomplete && !restored;
      // A partial text still never replaces a complete one, even on a post coming back.
      const keepText = Boolean(item.textIncomplete) && !prev.incomplete;
      if (!completing) await tx.postVersion.create({
        data: {
          postId: prev.id,
          version: prev.version,
          title: prev.title,
          text: prev.text,
          html: prev.html,
          sha1: prev.sha1,
          seenAt: prev.firstSeenAt,
          replacedAt: now,
        },
      });
      await tx.post.update({
        where: { id: prev.id },
        data: {
          ...bookkeeping,
          deletedAt: null,
          ...(keepText
            ? {}
            : { title: item.title, url: item.url, incomplete: item.textIncomplete ?? false, text: p.text, html: item.html, sha1: p.sha1 }),
          author: item.author || prev.author,
          version: completing ? prev.version : prev.version + 1,
          ...(p.archivePath ? { archivePath: p.archivePath } : {}),
        },
      });
      outcome.changed.push(prev.id);
      if (restored) outcome.restored.push(prev.id);
    }
    // Queue what this page created or changed for classification, in the same transaction as the
    // posts: a process killed after this commit leaves the rows, and the next crawl of the account
    // (or the next start) classifies those posts. queuedAt is this store's `now`, the post's
    // lastSeenAt: the classifier removes a row only when queuedAt ≤ the lastSeenAt it read with the
    // text it judged, so a post changed again meanwhile (a later `now`) stays queued.
    const queued = [...outcome.created, ...outcome.changed];
    if (queued.length > 0) {
      if (outcome.changed.length > 0) await tx.unclassifiedPost.deleteMany({ where: { postId: { in: outcome.changed } } });
      await tx.unclassifiedPost.createMany({ data: queued.map((postId) => ({ postId, queuedAt: now })) });
    }
    // Prisma's default limits (5 s, 2 s to get a connection) are too tight for a 50-item page on
    // a loaded machine or a remote PostgreSQL: seen failing a demo crawl while the dashboard
    // started beside it. A page that runs out of time is still rolled back whole and re-read on
    // the next run, but it costs the run.
  }, { timeout: 60_000, maxWait: 30_000 });
  return outcome;
}

/** The history time table: newest post time already crawled, per account ("") or per thread. */
export async function readMarks(db: Db, accountId: number): Promise<Map<string, Date>> {
  const rows = await db.historyMark.findMany({ where: { accountId } });
  return new Map(rows.map((r) => [r.scope, r.newestAt]));
}

/**
 * Where a forum thread's reading stands, kept in HistoryMark.resume (JSON):
 * `{"page": N}` — unfinished: pages before N are stored, the next run continues at N;
 * `{"last": N}` — read to its end, which was page N: new replies land there, so the next run
 * starts at N instead of at page 1. Null (or unreadable): nothing known, the adapter finds out.
 */
export type ThreadResume = { page: number; last?: undefined } | { last: number; page?: undefined };

/** The threads' resume states by scope (platformId); threads without one are absent. */
export async function readResumes(db: Db, accountId: number): Promise<Map<string, ThreadResume>> {
  const rows = await db.historyMark.findMany({ where: { accountId, resume: { not: null } }, select: { scope: true, resume: true } });
  const out = new Map<string, ThreadResume>();
  for (const r of rows) {
    const parsed = parseResume(r.resume);
    if (parsed) out.set(r.scope, parsed);
  }
  return out;
}

function parseResume(text: string | null): ThreadResume | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as { page?: unknown; last?: unknown };
    if (typeof v.page === "number" && Number.isInteger(v.page) && v.page >= 1) return { page: v.page };
    if (typeof v.last === "number" && Number.isInteger(v.last) && v.last >= 1) return { last: v.last };
  } catch {
    // A mark written by something else: treat the thread as unknown.
  }
  return null;
}

/**
 * Record where a thread's reading stands (see {@link ThreadResume}), creating its mark if need
 * be. Unlike the time, this may move back (a thread that shrank, or an unfinished read).
 */
export async function setResume(db: Db, accountId: number, scope: string, resume: ThreadResume, newestAt: Date): Promise<void> {
  const json = JSON.stringify(resume);
  await db.historyMark.upsert({
    where: { accountId_scope: { accountId, scope } },
    create: { accountId, scope, newestAt, resume: json },
    update: { resume: json },
  });
}

/**
 * Mark posts (or replies) as deleted at `now`, keeping them. Already-marked ones keep the time
 * they were first noticed. Returns how many were newly marked.
 */
export async function markDeleted(db: Db, accountId: number, platformIds: string[], now: Date): Promise<number> {
  if (platformIds.length === 0) return 0;
  const out = await db.post.updateMany({ where: { accountId, platformId: { in: platformIds }, deletedAt: null }, data: { deletedAt: now } });
  return out.count;
}

/**
 * Move a history mark forward (never back). Call only after the pages that prove it are committed:
 * a crash before this call repeats pages on the next run instead of skipping them.
 */
export async function advanceMark(db: Db, accountId: number, scope: string, newestAt: Date): Promise<void> {
  const current = await db.historyMark.findUnique({ where: { accountId_scope: { accountId, scope } } });
  if (current && current.newestAt >= newestAt) return;
  await db.historyMark.upsert({
    where: { accountId_scope: { accountId, scope } },
    create: { accountId, scope, newestAt },
    update: { newestAt },
  });
}
