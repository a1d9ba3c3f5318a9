/** Read-only queries for the dashboard's list pages. */
import type { Db } from "../db";

/** Newest open flags first, with their post, account and topic. */
export function listFlags(db: Db, { take = 50, status }: { take?: number; status?: string } = {}) {
  return db.flag.findMany({
    where: status ? { status } : undefined,
    orderBy: [{ post: { publishedAt: "desc" } }, { id: "desc" }],
    take,
    include: { topic: { select: { name: true } }, post: { include: { account: { select: { name: true, platform: true } } } } },
  });
}

/** Newest posts and replies first. */
export function listPosts(db: Db, { take = 50 }: { take?: number } = {}) {
  return db.post.findMany({
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take,
    include: { account: { select: { name: true, platform: true } } },
  });
}

/** Newest crawl runs first. */
export function listRuns(db: Db, { take = 100 }: { take?: number } = {}) {
  return db.crawlRun.findMany({ orderBy: { id: "desc" }, take, include: { account: { select: { name: true, platform: true } } } });
}

/** Headline counts for the home page. */
export async function headlineCounts(db: Db) {
  const [posts, openFlags, accounts, topics] = await Promise.all([
    db.post.count(),
    db.flag.count({ where: { status: "open" } }),
    db.account.count(),
    db.topic.count(),
  ]);
  return { posts, openFlags, accounts, topics };
}
