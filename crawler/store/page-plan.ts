/**
 * What storing one page of items does, written once for both ways of writing it: the decisions
 * (create, change with a version, complete in place, only move the bookkeeping; link another
 * account's post; queue for the classifier) are made here, as a sequence of database operations
 * that a driver carries out — `./page-prisma.ts` through Prisma (PostgreSQL), `./page-sqlite.ts`
 * as prepared statements in one synchronous SQLite transaction. The plan is a generator: it
 * yields an operation, the driver runs it and passes back its result.
 */
import { sameHash } from "../text";
import { changeOf, currentHashOf, type PreparedItem } from "./prepared";
import { byPlatformId } from "./site";

/** A post as the plan reads it before deciding. */
export interface ExistingPost {
  id: number;
  accountId: number;
  platformId: string;
  parentId: number | null;
  sha1: string;
  incomplete: boolean;
  deletedAt: Date | null;
  version: number;
  title: string;
  text: string;
  html: string;
  ocrText: string | null;
  firstSeenAt: Date;
  author: string;
  authorId: string;
}

/** The columns of a new post (the others take their defaults). */
export interface NewPost {
  accountId: number;
  siteKey: string;
  platformId: string;
  parentId: number | null;
  kind: string;
  url: string;
  title: string;
  author: string;
  authorId: string;
  publishedAt: Date;
  incomplete: boolean;
  text: string;
  html: string;
  sha1: string;
  listSha1: string | null;
  replyCount: number | null;
  lastReplyAt: Date | null;
  archivePath: string | null;
  ocrText: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** Columns of a post to change: each present key is written. */
export type PostChange = Partial<{
  lastSeenAt: Date;
  listSha1: string;
  replyCount: number;
  lastReplyAt: Date;
  author: string;
  authorId: string;
  parentId: number;
  deletedAt: null;
  title: string;
  url: string;
  incomplete: boolean;
  text: string;
  html: string;
  sha1: string;
  version: number;
  archivePath: string;
  ocrText: string;
}>;

/** An earlier content of a post, kept when it is replaced. */
export interface VersionRow {
  postId: number;
  version: number;
  title: string;
  text: string;
  html: string;
  sha1: string;
  seenAt: Date;
  replacedAt: Date;
}

/** One database operation of a page, and (in the comment) what the driver passes back for it. */
export type PageOp =
  /** → ExistingPost[]: the posts with these platform ids on the account's site (see ./site.ts onSite). */
  | { op: "find"; accountId: number; siteKey: string; platformIds: string[] }
  /** → number[]: the ids of posts `accountId` newly became a source of (./site.ts addSources). */
  | { op: "addSources"; accountId: number; postIds: number[]; now: Date }
  /** → number[]: the new posts' ids, in the order given (ids grow in page order). */
  | { op: "insert"; rows: NewPost[] }
  /** → nothing. */
  | { op: "update"; id: number; change: PostChange }
  /** → nothing. */
  | { op: "version"; row: VersionRow }
  /** → nothing: the thread's post, as reached by this account, gets this last-reply time. */
  | { op: "threadLastReply"; accountId: number; platformId: string; lastReplyAt: Date | null }
  /** → nothing: created and changed posts wait in UnclassifiedPost (changed ones replace their row). */
  | { op: "queue"; created: number[]; changed: number[]; now: Date };

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

/** The plan's type: yields operations, is sent their results, returns the outcome. */
export type PagePlan = Generator<PageOp, StoreOutcome, unknown>;

/**
 * The operations of one page, in order. New posts are inserted in batches in the page's order; a
 * batch is written before an item that needs one of its posts as a parent (the parent's id must
 * be known first).
 */
export function* planPage(accountId: number, siteKey: string, items: PreparedItem[], now: Date, extras: PageExtras): PagePlan {
  const outcome: StoreOutcome = { created: [], changed: [], restored: [], unchanged: 0, linked: [], stored: [] };
  const changedRows: StoredPost[] = [];
  // The same item can appear twice on one page (a pinned copy and the regular row): keep the last.
  const byId = new Map(items.map((p) => [p.item.platformId, p]));
  const ids = [...byId.keys()];
  const parentIds = [...new Set(items.map((p) => p.item.parentPlatformId).filter((x): x is string => Boolean(x)))];
  const existing = (yield { op: "find", accountId, siteKey, platformIds: [...new Set([...ids, ...parentIds])] }) as ExistingPost[];
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
  outcome.linked = reached.length > 0 ? ((yield { op: "addSources", accountId, postIds: reached, now }) as number[]) : [];

  const batch: { p: PreparedItem; row: NewPost }[] = [];
  const inBatch = new Set<string>();
  let threadWritten = false;
  function* flush(): Generator<PageOp, void, unknown> {
    if (batch.length === 0) return;
    const newIds = (yield { op: "insert", rows: batch.map((b) => b.row) }) as number[];
    batch.forEach(({ p, row }, i) => {
      const id = newIds[i]!;
      known.set(p.item.platformId, { ...row, id, version: 1, deletedAt: null });
      outcome.created.push(id);
      outcome.stored.push({ id, title: row.title, text: row.text, ocrText: row.ocrText, lastSeenAt: now });
    });
    batch.length = 0;
    inBatch.clear();
  }

  for (const p of byId.values()) {
    const { item } = p;
    if (item.parentPlatformId && inBatch.has(item.parentPlatformId)) yield* flush();
    const prev = known.get(item.platformId);
    if (!prev) {
      const parentId = item.parentPlatformId ? (known.get(item.parentPlatformId)?.id ?? null) : null;
      // The thread this page ends, created by this very page: its last-reply time goes in with it.
      const endsHere = extras.thread?.platformId === item.platformId;
      if (endsHere) threadWritten = true;
      batch.push({
        p,
        row: {
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
          // Written only with content this store creates or changes: images are read for those alone.
          ocrText: p.ocrText ? p.ocrText : null,
          firstSeenAt: now,
          lastSeenAt: now,
        },
      });
      inBatch.add(item.platformId);
      continue;
    }
    const parent = item.parentPlatformId ? known.get(item.parentPlatformId) : undefined;
    // Bookkeeping fields move forward whatever the content did.
    const bookkeeping: PostChange = {
      lastSeenAt: now,
      ...(p.listSha1 !== undefined && p.listSha1 !== null ? { listSha1: p.listSha1 } : {}),
      ...(p.replyCount !== undefined && p.replyCount !== null ? { replyCount: p.replyCount } : {}),
      ...(p.lastReplyAt ? { lastReplyAt: p.lastReplyAt } : {}),
      // A name change (Tieba nicknames change) or a newly read author id is not an edit.
      ...(item.author && item.author !== prev.author ? { author: item.author } : {}),
      ...(item.authorId && item.authorId !== prev.authorId ? { authorId: item.authorId } : {}),
      // A reply first stored without its parent (a keyword watch found the floor before anyone
      // stored its thread) is linked once the parent is known.
      ...(prev.parentId === null && parent ? { parentId: parent.id } : {}),
    };
    // Unchanged content, or a partial text that would replace a complete one (changeOf).
    if (changeOf(prev, p) === "unchanged") {
      // A text stored as partial and now read whole is the same text (a feed that carried it all):
      // it is complete now, and no later run needs to read it again.
      const completed = prev.incomplete && !item.textIncomplete && prev.deletedAt === null;
      // The same content under a hash of an older cleaning (or a bare one, stored before hashes
      // carried their version): the hash and the text become this cleaning's, with no version.
      // (Not for a partial text kept under a complete one: its hash says other content.)
      const rehashed = prev.sha1 !== p.sha1 && sameHash(currentHashOf(prev), p.sha1) ? { sha1: p.sha1, ...(p.text !== prev.text ? { text: p.text } : {}) } : {};
      yield { op: "update", id: prev.id, change: { ...bookkeeping, ...rehashed, ...(completed ? { incomplete: false } : {}) } };
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
      yield {
        op: "version",
        row: {
          postId: prev.id,
          version: prev.version,
          title: prev.title,
          text: prev.text,
          html: prev.html,
          sha1: prev.sha1,
          seenAt: prev.firstSeenAt,
          replacedAt: now,
        },
      };
    yield {
      op: "update",
      id: prev.id,
      change: {
        ...bookkeeping,
        deletedAt: null,
        ...(keepText ? {} : { title: item.title, url: item.url, incomplete: item.textIncomplete ?? false, text: p.text, html: item.html, sha1: p.sha1 }),
        author: item.author || prev.author,
        version: completing ? prev.version : prev.version + 1,
        ...(p.archivePath ? { archivePath: p.archivePath } : {}),
        ...(p.ocrText ? { ocrText: p.ocrText } : {}),
      },
    };
    outcome.changed.push(prev.id);
    changedRows.push({
      id: prev.id,
      title: keepText ? prev.title : item.title,
      text: keepText ? prev.text : p.text,
      ocrText: p.ocrText ? p.ocrText : prev.ocrText,
      lastSeenAt: now,
    });
    if (restored) outcome.restored.push(prev.id);
  }
  yield* flush();
  // The thread's last-reply time moves with its last page, after the page's own bookkeeping.
  if (extras.thread && !threadWritten) yield { op: "threadLastReply", accountId, platformId: extras.thread.platformId, lastReplyAt: extras.thread.lastReplyAt };
  // Queue what this page created or changed for classification, in the same transaction as the
  // posts: a process killed after this commit leaves the rows, and the next crawl of the account
  // (or the next start) classifies those posts. queuedAt is this store's `now`, the post's
  // lastSeenAt: the classifier removes a row only when queuedAt ≤ the lastSeenAt it read with the
  // text it judged, so a post changed again meanwhile (a later `now`) stays queued.
  if (outcome.created.length + outcome.changed.length > 0) yield { op: "queue", created: outcome.created, changed: outcome.changed, now };
  outcome.stored.push(...changedRows);
  return outcome;
}
