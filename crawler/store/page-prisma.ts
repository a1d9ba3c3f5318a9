/**
 * The page plan (./page-plan.ts) carried out through Prisma, in an interactive transaction: how
 * pages are stored on PostgreSQL (and on a SQLite client without a raw connection).
 */
import type { Db } from "../../lib/db";
import { runPlanAsync } from "../../lib/plan";
import type { ExistingPost, PageOp, PagePlan, StoreOutcome } from "./page-plan";
import { addSources, onSite, type Tx } from "./site";
// The queue's owner (docs/tables.md); its light file, not the classifier.
import { queueStored } from "../classify/unclassified";

/** The columns the plan reads of a stored post. */
const existingSelect = {
  id: true,
  accountId: true,
  platformId: true,
  parentId: true,
  sha1: true,
  incomplete: true,
  deletedAt: true,
  version: true,
  title: true,
  text: true,
  html: true,
  ocrText: true,
  firstSeenAt: true,
  author: true,
  authorId: true,
} as const;

/** Run a page's plan in one Prisma transaction. */
export async function storeWithPrisma(db: Db, plan: () => PagePlan): Promise<StoreOutcome> {
  return db.$transaction(
    (tx) => runPlanAsync(plan(), (op) => runOp(tx, op)),
    // Prisma's default limits (5 s, 2 s to get a connection) are too tight for a 50-item page on
    // a loaded machine or a remote PostgreSQL: seen failing a demo crawl while the dashboard
    // started beside it. A page that runs out of time is still rolled back whole and re-read on
    // the next run, but it costs the run.
    { timeout: 60_000, maxWait: 30_000 },
  );
}

/** One operation of the plan; see {@link PageOp} for what each returns. */
async function runOp(tx: Tx, op: PageOp): Promise<unknown> {
  switch (op.op) {
    case "find":
      return (await tx.post.findMany({ where: onSite(op.accountId, op.siteKey, op.platformIds), select: existingSelect })) satisfies ExistingPost[];
    case "addSources":
      return addSources(tx, op.accountId, op.postIds, op.now);
    case "insert": {
      // One statement for the batch; the ids are matched back by platform id (unique on the site).
      const rows = await tx.post.createManyAndReturn({ data: op.rows, select: { id: true, platformId: true } });
      const ids = new Map(rows.map((r) => [r.platformId, r.id]));
      return op.rows.map((r) => ids.get(r.platformId)!);
    }
    case "update":
      await tx.post.update({ where: { id: op.id }, data: op.change, select: { id: true } });
      return undefined;
    case "version":
      await tx.postVersion.create({ data: op.row, select: { id: true } });
      return undefined;
    case "threadLastReply":
      await setThreadLastReply(tx, op.accountId, op.platformId, op.lastReplyAt);
      return undefined;
    case "queue":
      await queueStored(tx, op.created, op.changed, op.now);
      return undefined;
  }
}

/** The thread's last-reply time, on its post as reached by this account (another account of the site may have stored it). */
export async function setThreadLastReply(db: Tx, accountId: number, platformId: string, lastReplyAt: Date | null): Promise<void> {
  await db.post.updateMany({ where: { platformId, sources: { some: { accountId } } }, data: { lastReplyAt } });
}
