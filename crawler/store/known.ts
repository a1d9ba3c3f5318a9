/**
 * Reads of what is stored, for decisions before a page is stored: which listed items are known
 * (and what their stored state says), and which items of a page storing would create or change.
 */
import type { Db } from "../../lib/db";
import { storesOf } from "../../lib/store";
import { CRAWL_STORE } from "./driver";
import type { CrawlOp, KnownPost, KnownRow } from "./ops";

export type { KnownPost };
import { changeOf, staleHash, type PreparedItem, type StoredState } from "./prepared";
import { accountSiteKey, byPlatformId, onSite, withUniqueRetry } from "./site";

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
  // Every listing page of every crawl reads here: on SQLite as prepared statements (lib/store).
  return withUniqueRetry(() => storesOf(db).run(() => planKnown(accountId, siteKey, platformIds, now), CRAWL_STORE));
}

/** {@link knownPosts}, in one transaction: the site's rows read, and the account added to the sources of those another account stored. */
function* planKnown(accountId: number, siteKey: string, platformIds: string[], now: Date): Generator<CrawlOp, Map<string, KnownPost>, unknown> {
  const rows = (yield { op: "knownRows", accountId, siteKey, platformIds }) as KnownRow[];
  const known = byPlatformId(rows, accountId);
  const foreign = [...known.values()].filter((r) => r.accountId !== accountId).map((r) => r.id);
  if (foreign.length > 0) yield { op: "addSources", accountId, postIds: foreign, now };
  return new Map([...known].map(([id, { accountId: _owner, ...r }]) => [id, r]));
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
