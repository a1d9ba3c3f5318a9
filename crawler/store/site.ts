/**
 * What every write of the store shares: the account's site key, the lookup of a site's posts by
 * platform id, the PostSource rows that say which accounts reached a post, and the one retry
 * after losing a race on a unique key.
 */
import type { Db } from "../../lib/db";
import { siteKeyOf } from "../site-key";

/** A transaction client, or the client itself: what the lookups below run on. */
export type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/**
 * Site keys of accounts being crawled, fixed for their run (like the entry URL the run read): every
 * read and page of a crawl needs it, and reading the account row each time was one query per page.
 */
const runKeys = new WeakMap<Tx, Map<number, { key: string; runs: number }>>();

/**
 * Use `siteKey` for `accountId` on `db` until the returned function is called (the end of its crawl). An
 * account has one crawl at a time per process; a second holder only adds to the count.
 */
export function holdSiteKey(db: Tx, accountId: number, siteKey: string): () => void {
  const keys = runKeys.get(db) ?? new Map<number, { key: string; runs: number }>();
  runKeys.set(db, keys);
  const held = keys.get(accountId);
  if (held) held.runs++;
  else keys.set(accountId, { key: siteKey, runs: 1 });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const h = keys.get(accountId);
    if (h && --h.runs === 0) keys.delete(accountId);
  };
}

/** The site key of an account's posts ("" for an unknown account or an unreadable entry URL). */
export async function accountSiteKey(db: Tx, accountId: number): Promise<string> {
  const held = runKeys.get(db)?.get(accountId);
  if (held) return held.key;
  const a = await db.account.findUnique({ where: { id: accountId }, select: { platform: true, entryUrl: true } });
  return a ? siteKeyOf(a.platform, a.entryUrl) : "";
}

/**
 * Where-condition of the posts with these platform ids on the account's site: stored by any
 * account of the site, or by this account itself (its rows stored before site keys existed).
 */
export function onSite(accountId: number, siteKey: string, platformIds: string[]) {
  return {
    platformId: { in: platformIds },
    OR: siteKey ? [{ siteKey }, { accountId }] : [{ accountId }],
  };
}

/**
 * Record an account as a source of a post, for prepared statements (SQLite): values postId,
 * accountId, firstSeenAt. A source row that exists already is left as it is (its firstSeenAt is
 * when it was first reached).
 */
export const INSERT_SOURCE_SQL = `INSERT INTO "PostSource" ("postId", "accountId", "firstSeenAt") VALUES (?, ?, ?) ON CONFLICT ("postId", "accountId") DO NOTHING`;

/**
 * {@link onSite} as SQL for prepared statements (SQLite): the condition after `WHERE` and its
 * values, in order.
 */
export function onSiteSql(accountId: number, siteKey: string, platformIds: readonly string[]): { where: string; values: unknown[] } {
  const marks = platformIds.map(() => "?").join(", ");
  return siteKey
    ? { where: `"platformId" IN (${marks}) AND ("siteKey" = ? OR "accountId" = ?)`, values: [...platformIds, siteKey, accountId] }
    : { where: `"platformId" IN (${marks}) AND "accountId" = ?`, values: [...platformIds, accountId] };
}

/**
 * One row per platform id: the account's own row when there are two (a duplicate stored before
 * site keys, kept apart by the backfill), else the site's.
 */
export function byPlatformId<T extends { platformId: string; accountId: number }>(rows: T[], accountId: number): Map<string, T> {
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
export async function addSources(db: Tx, accountId: number, postIds: number[], now: Date): Promise<number[]> {
  if (postIds.length === 0) return [];
  const have = await db.postSource.findMany({ where: { accountId, postId: { in: postIds } }, select: { postId: true } });
  const had = new Set(have.map((r) => r.postId));
  const missing = [...new Set(postIds)].filter((id) => !had.has(id));
  if (missing.length > 0) await db.postSource.createMany({ data: missing.map((postId) => ({ postId, accountId, firstSeenAt: now })) });
  return missing;
}

/**
 * True for a unique-constraint violation: Prisma's P2002 (with or without a driver adapter), or
 * better-sqlite3's own error from a prepared statement (./page-sqlite.ts).
 */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; cause?: { code?: unknown; kind?: unknown } } | null;
  return (
    err?.code === "P2002" ||
    err?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    err?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    err?.cause?.code === "23505" ||
    err?.cause?.kind === "UniqueConstraintViolation"
  );
}

/**
 * Run a write once more when it lost a race on a unique key (another crawl inserted the same
 * post or source first): the second run reads the winner's rows. A second loss is an error.
 */
export async function withUniqueRetry<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    return write();
  }
}
