/**
 * Storing one page of items, in one transaction: posts created, changed (the old content kept as
 * a PostVersion) or only seen again, with the OCR text of their images and, on a thread's last
 * page, the thread's last-reply time; what was created or changed is queued for the classifier.
 */
import type { Db, Prisma } from "../../lib/db";
import { changeOf, type PreparedItem } from "./prepared";
import { accountSiteKey, addSources, byPlatformId, onSite, withUniqueRetry, type Tx } from "./site";

/** A post as this store wrote it: what the classifier judges, without reading it again. */
export interface StoredPost {
  id: number;
  title: string;
  text: string;
  ocrText: string | null;
  /** The store's `now`: says which stored version this text is (crawler/classify/unclassified.ts). */
  lastSeenAt: Date;
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
  /** The created and changed posts as written, in the order of `created` then `changed`. */
  stored: StoredPost[];
}

/** What a page carries besides its items. */
export interface PageExtras {
  /**
   * The thread this page ends, read to its end: its post (on the account's sources) gets this
   * last-reply time in the page's transaction. Given alone (no items), it is written by itself.
   */
  thread?: { platformId: string; lastReplyAt: Date | null };
}

const empty = (): StoreOutcome => ({ created: [], changed: [], restored: [], unchanged: 0, linked: [], stored: [] });

/**
 * Write one page of items in one transaction. New items are created; an item whose SHA-1 changed
 * gets its old content copied to PostVersion and the new content stored as the next version;
 * an unchanged item only has `lastSeenAt` moved. Replies are linked to their parent by
 * `parentPlatformId` (the parent must be stored already, or earlier in the same page). Created and
 * changed posts are listed in UnclassifiedPost until the classifier has judged them. An item's OCR
 * text is written with the post it creates or changes, and `extras.thread` with the page, so a
 * failure anywhere in the page leaves none of it.
 *
 * Items are looked up on the account's whole site: a post another account stored is the same
 * post (never a second row); this account is added to its sources, and its content is compared
 * as usual, so it is classified and flagged once. Two crawls inserting the same new post at once
 * (PostgreSQL workers): one fails on the unique index and its page is stored again, finding the
 * other's row.
 */
export async function storePage(db: Db, accountId: number, items: PreparedItem[], now: Date, extras: PageExtras = {}): Promise<StoreOutcome> {
  if (items.length === 0) {
    if (extras.thread) await setThreadLastReply(db, accountId, extras.thread);
    return empty();
  }
  const siteKey = await accountSiteKey(db, accountId);
  return withUniqueRetry(() => storeOnce(db, accountId, siteKey, items, now, extras));
}

/** The thread's last-reply time, on its post as reached by this account (another account of the site may have stored it). */
async function setThreadLastReply(db: Tx, accountId: number, thread: NonNullable<PageExtras["thread"]>): Promise<void> {
  await db.post.updateMany({ where: { platformId: thread.platformId, sources: { some: { accountId } } }, data: { lastReplyAt: thread.lastReplyAt } });
}

/** The classifier's view of a post row. */
function storedOf(row: StoredPost): StoredPost {
  return { id: row.id, title: row.title, text: row.text, ocrText: row.ocrText, lastSeenAt: row.lastSeenAt };
}

async function storeOnce(db: Db, accountId: number, siteKey: string, items: PreparedItem[], now: Date, extras: PageExtras): Promise<StoreOutcome> {
  const outcome = empty();
  const changedRows: StoredPost[] = [];
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
      // New posts are inserted in batches (one statement for a run of them, not one each), in the
      // page's order, so ids come out as they did one by one. A batch is written before an item
      // that needs one of its posts as a parent: the parent's id must be known first.
      const batch: { p: PreparedItem; data: Prisma.PostCreateManyInput }[] = [];
      let threadWritten = false;
      const inBatch = new Set<string>();
      const flush = async () => {
        if (batch.length === 0) return;
        const rows = await tx.post.createManyAndReturn({ data: batch.map((b) => b.data) });
        const byPid = new Map(rows.map((r) => [r.platformId, r]));
        for (const { p } of batch) {
          const created = byPid.get(p.item.platformId)!;
          known.set(p.item.platformId, created);
          outcome.created.push(created.id);
          outcome.stored.push(storedOf(created));
        }
        batch.length = 0;
        inBatch.clear();
      };
      for (const p of byId.values()) {
        const { item } = p;
        if (item.parentPlatformId && inBatch.has(item.parentPlatformId)) await flush();
        const prev = known.get(item.platformId);
        // Written only with content this store creates or changes: images are read for those alone.
        const ocr = p.ocrText ? { ocrText: p.ocrText } : {};
        if (!prev) {
          const parentId = item.parentPlatformId ? (known.get(item.parentPlatformId)?.id ?? null) : null;
          // The thread this page ends, created by this very page: its last-reply time goes in with it.
          const endsHere = extras.thread?.platformId === item.platformId;
          if (endsHere) threadWritten = true;
          batch.push({
            p,
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
              lastReplyAt: endsHere ? extras.thread!.lastReplyAt : (p.lastReplyAt ?? null),
              archivePath: p.archivePath ?? null,
              ocrText: p.ocrText ? p.ocrText : null,
              firstSeenAt: now,
              lastSeenAt: now,
            },
          });
          inBatch.add(item.platformId);
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
        // Unchanged content, or a partial text that would replace a complete one (changeOf).
        if (changeOf(prev, p) === "unchanged") {
          await tx.post.update({ where: { id: prev.id }, data: bookkeeping });
          outcome.unchanged++;
          continue;
        }
        // A post marked deleted that is served again is back: the mark is cleared and the return
        // is kept as a version (the moderation history shows it went away and came back).
        const restored = prev.deletedAt !== null;
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
        const updated = await tx.post.update({
          where: { id: prev.id },
          data: {
            ...bookkeeping,
            deletedAt: null,
            ...(keepText ? {} : { title: item.title, url: item.url, incomplete: item.textIncomplete ?? false, text: p.text, html: item.html, sha1: p.sha1 }),
            author: item.author || prev.author,
            version: completing ? prev.version : prev.version + 1,
            ...(p.archivePath ? { archivePath: p.archivePath } : {}),
            ...ocr,
          },
        });
        outcome.changed.push(prev.id);
        changedRows.push(storedOf(updated));
        if (restored) outcome.restored.push(prev.id);
      }
      await flush();
      // The thread's last-reply time moves with its last page, after the page's own bookkeeping.
      if (extras.thread && !threadWritten) await setThreadLastReply(tx, accountId, extras.thread);
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
  outcome.stored.push(...changedRows);
  return outcome;
}
