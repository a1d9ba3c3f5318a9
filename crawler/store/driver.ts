/**
 * The store of the crawl's small aggregates (./ops.ts): its SQLite implementation (./sqlite.ts)
 * and its Prisma implementation (./prisma.ts). Plans run on it through lib/store, which picks one.
 */
import type { PlanDriver } from "../../lib/store";
import type { CrawlOp } from "./ops";
import { runCrawlOpPrisma } from "./prisma";
import { runCrawlOpSqlite } from "./sqlite";

export const CRAWL_STORE: PlanDriver<CrawlOp> = { sqlite: runCrawlOpSqlite, prisma: runCrawlOpPrisma };

/** A plan of a single operation, for reads and writes that decide nothing. */
export function* one<R>(op: CrawlOp): Generator<CrawlOp, R, unknown> {
  return (yield op) as R;
}
