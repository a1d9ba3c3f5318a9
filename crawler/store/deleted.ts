/** Deletions noticed by a crawl: posts are never removed, only marked (crawler/worker/deletions.ts). */
import type { Db } from "../../lib/db";
import { accountSiteKey, onSite } from "./site";

/**
 * Mark posts (or replies) as deleted at `now`, keeping them. Already-marked ones keep the time
 * they were first noticed. Returns the ids of the posts newly marked (what a deletion notice,
 * 删帖提醒, is about: crawler/worker/deletions.ts).
 */
export async function markDeleted(db: Db, accountId: number, platformIds: string[], now: Date): Promise<number[]> {
  if (platformIds.length === 0) return [];
  // Gone from the platform is gone for every account that reached it: the post is the site's.
  const siteKey = await accountSiteKey(db, accountId);
  const rows = await db.post.findMany({ where: { ...onSite(accountId, siteKey, platformIds), deletedAt: null }, select: { id: true } });
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // deletedAt: null again: a post another account of the site marked meanwhile keeps its first
  // noticed time (both runs then name it; its notice is sent once per deletion all the same).
  await db.post.updateMany({ where: { id: { in: ids }, deletedAt: null }, data: { deletedAt: now } });
  return ids;
}
