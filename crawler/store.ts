/**
 * Dedupe and store: the only code that writes posts. Each page of items is written in one
 * transaction; a post is one row per site and platform id (crawler/site-key.ts), whichever
 * accounts reach it — each is recorded in PostSource — so a repeated page, or the same post found
 * by an account and a keyword watch, is harmless. The SHA-1 of the cleaned text tells new /
 * changed / unchanged apart.
 */
import type { Db } from "../lib/db";
import type { CrawlItem } from "./types";
import { siteKeyOf } from "./site-key";
import { contentSha1, htmlToText } from "./text";

/** A transaction client, or the client itself: what the lookups below run on. */
type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** The site key of an account's posts ("" for an unknown account or an unreadable entry URL). */
export async function accountSiteKey(db: Tx, accountId: number): Promise<string> {
  const a = await db.account.findUnique({ where: { id: accountId }, select: { platform: true, entryUrl: true } });
  return a ? siteKeyOf(a.platform, a.entryUrl) : "";
}

/**
 * Where-condition of the posts with these platform ids on the account's site: stored by any
 * account of the site, or by this account itself (its rows stored before site keys existed).
 */
function onSite(accountId: number, siteKey: string, platformIds: string[]) {
  return {
    platformId: { in: platformIds },
    OR: siteKey ? [{ siteKey }, { accountId }] : [{ accountId }],
  };
}

/**
 * One row per platform id: the account's own row when there are two (a duplicate stored before
 * site keys, kept apart by the backfill), else the site's.
 */
function byPlatformId<T extends { platformId: string; accountId: number }>(rows: T[], accountId: number): Map<string, T> {
  const out = new Map<string, T>();
  for (const r of rows) {
    const had = out.get(r.platformId);
    if (!had || (had.accountId !== accountId && r.accountId === accountId)) out.set(r.platformId, r);
  }
  return out;
}

/**
 * Record `accountId` as a source of these posts (those it is not one of yet). The post's own
 * account is recorded by a database trigger when the post is inserted.
 * @returns the ids of posts it newly became a source of
 */
async function addSources(db: Tx, accountId: number, postIds: number[], now: Date): Promise<number[]> {
  if (postIds.length === 0) return [];
  const have = await db.postSource.findMany({ where: { accountId, postId: { in: postIds } }, select: { postId: true } });
  const had = new Set(have.map((r) => r.postId));
  const missing = [...new Set(postIds)].filter((id) => !had.has(id));
  if (missing.length > 0) await db.postSource.createMany({ data: missing.map((postId) => ({ postId, accountId, firstSeenAt: now })) });
  return missing;
}

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
  /**
   * Ids of posts another account had stored that this account reached for the first time (it
   * was added to their sources). They are counted in `changed` or `unchanged` as usual.
   */
  linked: number[];
}

/**
 * The stored state of items an account has just listed, for decisions before fetching more
 * (listSha1, reply counts): the posts of the account's site, whichever account stored them. The
 * account is recorded as a source of those it had not reached before — it has just listed them —
 * so a post another account stored is neither fetched again nor stored from its list excerpt.
 * @param now when the account reached them. @default the current time
 */
export async function knownPosts(db: Db, accountId: number, platformIds: string[], now: Date = new Date()): Promise<Map<string, KnownPost>> {
  if (platformIds.length === 0) return new Map<string, KnownPost>();
  const siteKey = await accountSiteKey(db, accountId);
  const rows = await db.post.findMany({
    where: onSite(accountId, siteKey, platformIds),
    select: {
      id: true,
      accountId: true,
      platformId: true,
      sha1: true,
      listSha1: true,
      replyCount: true,
      lastReplyAt: true,
      publishedAt: true,
      incomplete: true,
      deletedAt: true,
    },
  });
  const known = byPlatformId(rows, accountId);
  const foreign = [...known.values()].filter((r) => r.accountId !== accountId).map((r) => r.id);
  if (foreign.length > 0) await withUniqueRetry(() => addSources(db, accountId, foreign, now));
  return new Map([...known].map(([id, { accountId: _owner, ...r }]) => [id, r]));
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
 *
 * Items are looked up on the account's whole site: a post another account stored is the same
 * post (never a second row); this account is added to its sources, and its content is compared
 * as usual, so it is classified and flagged once. Two crawls inserting the same new post at once
 * (PostgreSQL workers): one fails on the unique index and its page is stored again, finding the
 * other's row.
 */
export async function storePage(db: Db, accountId: number, items: PreparedItem[], now: Date): Promise<StoreOutcome> {
  if (items.length === 0) return { created: [], changed: [], restored: [], unchanged: 0, linked: [] };
  const siteKey = await accountSiteKey(db, accountId);
  return withUniqueRetry(() => storeOnce(db, accountId, siteKey, items, now));
}

async function storeOnce(db: Db, accountId: number, siteKey: string, items: PreparedItem[], now: Date): Promise<StoreOutcome> {
  const outcome: StoreOutcome = { created: [], changed: [], restored: [], unchanged: 0, linked: [] };
  // The same item can appear twice on one page (a pinned copy and the regular row): keep the last.
  const byId = new Map(items.map((p) => [p.item.platformId, p]));
  await db.$transaction(
    async (tx) => {
      const ids = [...byId.keys()];
      const parentIds = [...new Set(items.map((p) => p.item.parentPlatformId).filter((x): x is string => Boolean(x)))];
      const existing = await tx.post.findMany({ where: onSite(accountId, siteKey, [...new Set([...ids, ...parentIds])]) });
      const known = byPlatformId(existing, accountId);
      // Posts of the page that another account stored: this account becomes one of their sources.
      const reached = [
        ...new Set(
          ids
            .map((id) => known.get(id))
            .filter((r) => r !== undefined && r.accountId !== accountId)
            .map((r) => r!.id),
        ),
      ];
      outcome.linked = await addSources(tx, accountId, reached, now);
      for (const p of byId.values()) {
        const { item } = p;
        const prev = known.get(item.platformId);
        if (!prev) {
          const parentId = item.parentPlatformId ? (known.get(item.parentPlatformId)?.id ?? null) : null;
          const created = await tx.post.create({
            data: {
              accountId,
              siteKey,
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
          // A reply first stored without its parent (a keyword watch found the floor before anyone
          // stored its thread) is linked once the parent is known.
          ...(prev.parentId === null && item.parentPlatformId && known.get(item.parentPlatformId) ? { parentId: known.get(item.parentPlatformId)!.id } : {}),
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
        if (!completing)
          await tx.postVersion.create({
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
            ...(keepText ? {} : { title: item.title, url: item.url, incomplete: item.textIncomplete ?? false, text: p.text, html: item.html, sha1: p.sha1 }),
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
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  return outcome;
}

/** True for a unique-constraint violation (Prisma's P2002, with or without a driver adapter). */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; cause?: { code?: unknown; kind?: unknown } } | null;
  return err?.code === "P2002" || err?.cause?.code === "23505" || err?.cause?.kind === "UniqueConstraintViolation";
}

/**
 * Run a write once more when it lost a race on a unique key (another crawl inserted the same
 * post or source first): the second run reads the winner's rows. A second loss is an error.
 */
async function withUniqueRetry<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    return write();
  }
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
  // Gone from the platform is gone for every account that reached it: the post is the site's.
  const siteKey = await accountSiteKey(db, accountId);
  const out = await db.post.updateMany({ where: { ...onSite(accountId, siteKey, platformIds), deletedAt: null }, data: { deletedAt: now } });
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
