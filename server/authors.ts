/**
 * An author's page (lib/authors.ts says who an author is): every post and reply they wrote on the
 * watched accounts, newest first, with what the page sums up about them — how much they wrote,
 * when, under which names, on which accounts, the flags on their posts and the incidents their
 * posts belong to.
 */
import type { Db } from "../lib/db";
import type { AuthorKey } from "../lib/authors";
import { listPostsPage, type Cursor, type PostFilter } from "./posts";

/** Statuses of an incident that the author page lists: those the dashboard shows as incidents (as `posts export` names them). */
const SHOWN_INCIDENT_STATUSES = ["open", "handled"];

/** The flag statuses, in the order the page shows their counts. */
export const FLAG_STATUSES = ["open", "confirmed", "dismissed"] as const;
export type FlagStatusName = (typeof FLAG_STATUSES)[number];
type FlagCounts = Record<FlagStatusName, number>;

/** Everything the author page shows. */
export interface AuthorPage {
  key: AuthorKey;
  /** Posts and replies, all of them (not only this page's). */
  posts: number;
  replies: number;
  /** Of them, those the crawler found deleted on the platform. */
  deleted: number;
  /** Earliest and latest publishedAt of their posts and replies. */
  firstPublishedAt: Date;
  lastPublishedAt: Date;
  /** When the crawler first saw one of them, and last saw one still there. */
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** The names the pages showed for them, most recently used first. */
  names: { name: string; count: number; lastUsedAt: Date }[];
  /** The accounts that stored their posts first, most posts first. */
  accounts: { id: number; name: string; count: number }[];
  /** Flags on their posts: all, and per topic. */
  flags: FlagCounts;
  flagsByTopic: { topicId: number; topicName: string; counts: FlagCounts }[];
  /** The open or handled incidents their posts belong to, latest first, with how many of their posts each holds. */
  incidents: { id: number; title: string; status: string; lastSeenAt: Date; posts: number }[];
  /** One page of their posts and replies, newest first (as the post lists show them). */
  page: Awaited<ReturnType<typeof listPostsPage>>;
}

/**
 * The Prisma condition on Post of an author's posts and replies. The platform's accounts are
 * named by id (a few): a relation filter on Account would be planned as a scan of every post of the
 * platform, whereas `authorId = ? AND accountId IN (…)` walks the author index alone.
 */
export async function authorPostsWhere(db: Db, key: AuthorKey): Promise<{ authorId: string; accountId: { in: number[] } }> {
  const accounts = await db.account.findMany({ where: { platform: key.platform }, select: { id: true } });
  return { authorId: key.authorId, accountId: { in: accounts.map((a) => a.id) } };
}

/** The post list filter of an author (the page's list, the dashboard export link). */
export function authorFilter(key: AuthorKey): PostFilter {
  return { flagged: false, platform: key.platform, authorId: key.authorId };
}

const zeroFlags = (): FlagCounts => ({ open: 0, confirmed: 0, dismissed: 0 });
const isFlagStatus = (s: string): s is FlagStatusName => (FLAG_STATUSES as readonly string[]).includes(s);

/**
 * The author page of `key`, with the page of posts at `cursor`; null when no stored post has that
 * author (an unknown author). Every query goes through the author index (authorId, publishedAt, id).
 */
export async function getAuthorPage(db: Db, key: AuthorKey, cursor: { after?: Cursor; before?: Cursor } = {}): Promise<AuthorPage | null> {
  const where = await authorPostsWhere(db, key);
  const totals = await db.post.aggregate({
    where,
    _count: { _all: true },
    _min: { publishedAt: true, firstSeenAt: true },
    _max: { publishedAt: true, lastSeenAt: true },
  });
  if (totals._count._all === 0 || !totals._min.publishedAt || !totals._max.publishedAt || !totals._min.firstSeenAt || !totals._max.lastSeenAt) return null;
  const [kinds, deleted, names, byAccount, flagGroups, memberships, page] = await Promise.all([
    db.post.groupBy({ by: ["kind"], where, _count: { _all: true } }),
    db.post.count({ where: { ...where, deletedAt: { not: null } } }),
    db.post.groupBy({ by: ["author"], where, _count: { _all: true }, _max: { publishedAt: true } }),
    db.post.groupBy({ by: ["accountId"], where, _count: { _all: true } }),
    db.flag.groupBy({ by: ["topicId", "status"], where: { post: where }, _count: { _all: true } }),
    db.incidentPost.groupBy({
      by: ["incidentId"],
      where: { post: where, incident: { status: { in: SHOWN_INCIDENT_STATUSES } } },
      _count: { _all: true },
    }),
    listPostsPage(db, authorFilter(key), cursor),
  ]);
  const [accounts, topics, incidents] = await Promise.all([
    db.account.findMany({ where: { id: { in: byAccount.map((a) => a.accountId) } }, select: { id: true, name: true } }),
    db.topic.findMany({ where: { id: { in: [...new Set(flagGroups.map((f) => f.topicId))] } }, select: { id: true, name: true } }),
    db.incident.findMany({
      where: { id: { in: memberships.map((m) => m.incidentId) } },
      select: { id: true, title: true, status: true, lastSeenAt: true },
      orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
    }),
  ]);
  const accountName = new Map(accounts.map((a) => [a.id, a.name]));
  const topicName = new Map(topics.map((t) => [t.id, t.name]));
  const flags = zeroFlags();
  const perTopic = new Map<number, FlagCounts>();
  for (const g of flagGroups) {
    if (!isFlagStatus(g.status)) continue;
    flags[g.status] += g._count._all;
    const counts = perTopic.get(g.topicId) ?? zeroFlags();
    counts[g.status] += g._count._all;
    perTopic.set(g.topicId, counts);
  }
  const postsIn = new Map(memberships.map((m) => [m.incidentId, m._count._all]));
  const lastPublishedAt = totals._max.publishedAt;
  const replies = kinds.find((k) => k.kind === "reply")?._count._all ?? 0;
  return {
    key,
    posts: totals._count._all - replies,
    replies,
    deleted,
    firstPublishedAt: totals._min.publishedAt,
    lastPublishedAt,
    firstSeenAt: totals._min.firstSeenAt,
    lastSeenAt: totals._max.lastSeenAt,
    names: names
      .map((n) => ({ name: n.author, count: n._count._all, lastUsedAt: n._max.publishedAt ?? lastPublishedAt }))
      .sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime() || b.count - a.count),
    accounts: byAccount
      .map((a) => ({ id: a.accountId, name: accountName.get(a.accountId) ?? "?", count: a._count._all }))
      .sort((a, b) => b.count - a.count || a.id - b.id),
    flags,
    flagsByTopic: [...perTopic]
      .map(([topicId, counts]) => ({ topicId, topicName: topicName.get(topicId) ?? "?", counts }))
      .sort((a, b) => a.topicName.localeCompare(b.topicName, "zh-CN")),
    incidents: incidents.map((i) => ({ ...i, posts: postsIn.get(i.id) ?? 0 })),
    page,
  };
}
