/** Deletions noticed by a crawl: posts are never removed, only marked (crawler/worker/deletions.ts). */
import type { Db } from "../../lib/db";
import { accountSiteKey, onSite } from "./site";

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
