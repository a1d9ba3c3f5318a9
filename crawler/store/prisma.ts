/**
 * The Prisma implementation of the crawl's small aggregates (./ops.ts): each operation as one or
 * two Prisma queries, on the plan's transaction or the client (lib/store). How they are written on
 * PostgreSQL, and on a SQLite client without its own connection.
 */
import type { Tx } from "../../lib/store";
import type { CrawlOp, KnownRow, StoredMark, StoredTopicRow } from "./ops";
import { addSources, onSite } from "./site";

const MARK_COLUMNS = { scope: true, newestAt: true, resume: true } as const;

/** One operation; see {@link CrawlOp} for what each returns. */
export async function runCrawlOpPrisma(tx: Tx, op: CrawlOp): Promise<unknown> {
  switch (op.op) {
    case "accounts":
      return tx.account.findMany({ where: op.which, orderBy: { id: "asc" } });
    case "accountAccess": {
      const row = await tx.account.findUnique({ where: { id: op.id }, select: { cookies: true, proxy: true } });
      return row ? row[op.column] : undefined;
    }
    case "updateAccount":
      return (await tx.account.updateMany({ where: { id: op.id }, data: op.data })).count;
    case "closeRuns":
      return (
        await tx.crawlRun.updateMany({
          where: { accountId: op.accountId, status: "running" },
          data: { status: "failed", finishedAt: op.finishedAt, note: op.note },
        })
      ).count;
    case "insertRun":
      return (await tx.crawlRun.create({ data: op.row, select: { id: true } })).id;
    case "updateRun":
      return (await tx.crawlRun.updateMany({ where: { id: op.id }, data: op.data })).count;
    case "marks":
      return (await tx.historyMark.findMany({ where: { accountId: op.accountId }, select: MARK_COLUMNS })) satisfies StoredMark[];
    case "marksOf":
      return (await tx.historyMark.findMany({ where: { accountId: op.accountId, scope: { in: op.scopes } }, select: MARK_COLUMNS })) satisfies StoredMark[];
    case "insertMarks":
      await tx.historyMark.createMany({ data: op.marks.map((m) => ({ accountId: op.accountId, ...m, updatedAt: op.at })) });
      return undefined;
    case "updateMark":
      await tx.historyMark.updateMany({ where: { accountId: op.accountId, scope: op.scope }, data: { ...op.change, updatedAt: op.at } });
      return undefined;
    case "knownRows":
      return (await tx.post.findMany({
        where: onSite(op.accountId, op.siteKey, op.platformIds),
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
      })) satisfies KnownRow[];
    case "addSources":
      return addSources(tx, op.accountId, op.postIds, op.now);
    case "topicRows":
      return (await tx.topic.findMany({
        select: {
          id: true,
          name: true,
          keywords: true,
          sensitiveWords: true,
          relevantLabels: true,
          nbThreshold: true,
          cosineThreshold: true,
          modelVersion: true,
          enabled: true,
          userDict: true,
        },
        orderBy: { id: "asc" },
      })) satisfies StoredTopicRow[];
    case "anyPending":
      return (await tx.unclassifiedPost.findFirst({ where: { post: { sources: { some: { accountId: op.accountId } } } }, select: { postId: true } })) !== null;
  }
}
