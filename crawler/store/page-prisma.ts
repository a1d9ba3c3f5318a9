/**
 * The page plan (./page-plan.ts) carried out through Prisma, in the plan's interactive transaction
 * (lib/store): how pages are stored on PostgreSQL (and on a SQLite client without a raw connection).
 */
import type { Tx } from "../../lib/store";
import type { ExistingPost, PageOp } from "./page-plan";
import { addSources, onSite } from "./site";
// The queue's owner (docs/tables.md); its light file, not the classifier.
import { queueStored } from "../classify/unclassified";
import { queueForClustering } from "../incidents/queue";

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

/** One operation of the plan; see {@link PageOp} for what each returns. */
export async function runPageOpPrisma(tx: Tx, op: PageOp): Promise<unknown> {
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
      // The thread's post as reached by this account (another account of the site may have stored it).
      await tx.post.updateMany({ where: { platformId: op.platformId, sources: { some: { accountId: op.accountId } } }, data: { lastReplyAt: op.lastReplyAt } });
      return undefined;
    case "queue":
      await queueStored(tx, op.created, op.changed, op.now);
      await queueForClustering(tx, op.created, op.changed, op.now);
      return undefined;
  }
}
