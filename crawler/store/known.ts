/**
 * Reads of what is stored, for decisions before a page is stored: which listed items are known
 * (and what their stored state says), and which items of a page storing would create or change.
 */
import type BetterSqlite3 from "better-sqlite3";
import { rawSqlite, type Db } from "../../lib/db";
import { dateOf, prepared, sqlValue } from "../../lib/sqlite-statements";
import { changeOf, staleHash, type PreparedItem, type StoredState } from "./prepared";
import { accountSiteKey, addSources, byPlatformId, INSERT_SOURCE_SQL, onSite, onSiteSql, withUniqueRetry } from "./site";

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
 * The stored state of items an account has just listed, for decisions before fetching more
 * (listSha1, reply counts): the posts of the account's site, whichever account stored them. The
 * account is recorded as a source of those it had not reached before — it has just listed them —
 * so a post another account stored is neither fetched again nor stored from its list excerpt.
 * @param now when the account reached them. @default the current time
 */
export async function knownPosts(db: Db, accountId: number, platformIds: string[], now: Date = new Date()): Promise<Map<string, KnownPost>> {
  if (platformIds.length === 0) return new Map<string, KnownPost>();
  const siteKey = await accountSiteKey(db, accountId);
  // Every listing page of every crawl reads here: on SQLite as prepared statements (lib/db.ts rawSqlite).
  const raw = await rawSqlite(db);
  if (raw) return raw.transaction((sql) => knownPostsSqlite(sql, accountId, siteKey, platformIds, now));
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

const KNOWN_COLUMNS = `"id", "accountId", "platformId", "sha1", "listSha1", "replyCount", "lastReplyAt", "publishedAt", "incomplete", "deletedAt"`;
type KnownRow = {
  id: number;
  accountId: number;
  platformId: string;
  sha1: string;
  listSha1: string | null;
  replyCount: number | null;
  lastReplyAt: unknown;
  publishedAt: unknown;
  incomplete: number;
  deletedAt: unknown;
};

/** {@link knownPosts} on SQLite, in one transaction: the same rows, and the same sources added. */
function knownPostsSqlite(sql: BetterSqlite3.Database, accountId: number, siteKey: string, platformIds: string[], now: Date): Map<string, KnownPost> {
  // The site's posts, or the account's own rows (./site.ts onSite).
  const on = onSiteSql(accountId, siteKey, platformIds);
  const rows = prepared(sql, `SELECT ${KNOWN_COLUMNS} FROM "Post" WHERE ${on.where}`).all(...on.values) as KnownRow[];
  const known = byPlatformId(rows, accountId);
  const addSource = prepared(sql, INSERT_SOURCE_SQL);
  const at = sqlValue(now);
  const out = new Map<string, KnownPost>();
  for (const [platformId, r] of known) {
    if (r.accountId !== accountId) addSource.run(r.id, accountId, at);
    out.set(platformId, {
      id: r.id,
      platformId: r.platformId,
      sha1: r.sha1,
      listSha1: r.listSha1,
      replyCount: r.replyCount,
      lastReplyAt: r.lastReplyAt === null ? null : dateOf(r.lastReplyAt),
      publishedAt: dateOf(r.publishedAt),
      incomplete: r.incomplete !== 0,
      deletedAt: r.deletedAt === null ? null : dateOf(r.deletedAt),
    });
  }
  return out;
}

/**
 * Platform ids of the items that storing this page would create or change (by the rule the store
 * applies, {@link changeOf}), so work that only such posts need — reading their images — can be
 * done before the page's transaction and written in it. Read outside that transaction: another
 * crawl may store the same post meanwhile, and the store decides again on what it finds then.
 */
export async function itemsToStore(db: Db, accountId: number, items: PreparedItem[]): Promise<Set<string>> {
  if (items.length === 0) return new Set<string>();
  const siteKey = await accountSiteKey(db, accountId);
  const ids = [...new Set(items.map((p) => p.item.platformId))];
  const rows: (StoredState & { id: number; accountId: number; platformId: string })[] = await db.post.findMany({
    where: onSite(accountId, siteKey, ids),
    select: { id: true, accountId: true, platformId: true, sha1: true, incomplete: true, deletedAt: true },
  });
  // A hash of an older cleaning is compared after hashing the stored post again (changeOf), which
  // needs its title and HTML: read for those rows alone (after a cleaning upgrade, once per post).
  const stale = rows.filter((r) => staleHash(r.sha1));
  if (stale.length > 0) {
    const texts = new Map(
      (await db.post.findMany({ where: { id: { in: stale.map((r) => r.id) } }, select: { id: true, title: true, html: true } })).map((r) => [r.id, r]),
    );
    for (const r of stale) Object.assign(r, { title: texts.get(r.id)?.title, html: texts.get(r.id)?.html });
  }
  const known = byPlatformId(rows, accountId);
  // The same item twice on one page (a pinned copy and the regular row): the store keeps the last.
  const last = new Map(items.map((p) => [p.item.platformId, p]));
  return new Set([...last].filter(([id, p]) => changeOf(known.get(id), p) !== "unchanged").map(([id]) => id));
}
