/**
 * Storing one page of items, in one transaction: posts created, changed (the old content kept as
 * a PostVersion) or only seen again, with the OCR text of their images and, on a thread's last
 * page, the thread's last-reply time; what was created or changed is queued for the classifier.
 *
 * What a page does is decided once, in ./page-plan.ts; it is written through Prisma on PostgreSQL
 * (./page-prisma.ts) and as prepared statements on SQLite (./page-sqlite.ts); lib/store picks which.
 */
import type { Db } from "../../lib/db";
import { storesOf, type PlanDriver } from "../../lib/store";
import { profileFigure } from "../profile";
import { planPage, type PageExtras, type PageOp, type StoreOutcome } from "./page-plan";
import { runPageOpPrisma } from "./page-prisma";
import { runPageOpSqlite } from "./page-sqlite";
import type { PreparedItem } from "./prepared";
import { accountSiteKey, withUniqueRetry } from "./site";

export type { StoredPost, StoreOutcome, PageExtras } from "./page-plan";

const empty = (): StoreOutcome => ({ created: [], changed: [], restored: [], unchanged: 0, linked: [], stored: [] });

/** The page store: the plan's operations on SQLite and through Prisma. */
export const PAGE_STORE: PlanDriver<PageOp> = { sqlite: runPageOpSqlite, prisma: runPageOpPrisma };

/**
 * Prisma's default transaction limits (5 s, 2 s to get a connection) are too tight for a 50-item
 * page on a loaded machine or a remote PostgreSQL: seen failing a demo crawl while the dashboard
 * started beside it. A page that runs out of time is still rolled back whole and re-read on the
 * next run, but it costs the run.
 */
const PAGE_LIMITS = { timeout: 60_000, maxWait: 30_000 };

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
  const stores = storesOf(db);
  const stats = await stores.stats();
  if (stats) profileFigure("sqlite", () => stats);
  if (items.length === 0) {
    const thread = extras.thread;
    if (thread)
      await stores.run(function* (): Generator<PageOp, void, unknown> {
        yield { op: "threadLastReply", accountId, platformId: thread.platformId, lastReplyAt: thread.lastReplyAt };
      }, PAGE_STORE);
    return empty();
  }
  const siteKey = await accountSiteKey(db, accountId);
  const plan = () => planPage(accountId, siteKey, items, now, extras);
  return withUniqueRetry(() => stores.run(plan, PAGE_STORE, PAGE_LIMITS));
}
