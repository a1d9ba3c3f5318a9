/**
 * Incidents written directly, for tests of what builds on them (heat, bursts, alerts) without the
 * online clustering: an Incident row and IncidentPost memberships, with the figures the clustering
 * keeps (size, threads, authors, accounts, platforms in the order reached, replies, flagged and
 * negative counts, first and last seen) computed from the member posts as the shared contract
 * defines them (prisma/schema.prisma). Each change of membership sets updatedAt, as clustering does.
 */
import { recomputeIncidentFigures } from "../../crawler/incidents/figures";
import type { Db } from "../../lib/db";

/** A post for {@link seedPosts}. */
export interface PostSpec {
  platform?: "weibo" | "tieba" | "discuz" | "blog";
  text?: string;
  author?: string;
  publishedAt: Date;
  /** Index (in the same call) of the post it replies to. */
  replyTo?: number;
  sentiment?: "negative" | "neutral" | "positive";
  /** Flag it for this topic. */
  flagTopicId?: number;
}

let seq = 0;

/** One account per platform (made once per database). */
async function accountOf(db: Db, platform: string): Promise<number> {
  const url = `http://127.0.0.1:9/${platform}/`;
  const found = await db.account.findFirst({ where: { entryUrl: url }, select: { id: true } });
  if (found) return found.id;
  return (await db.account.create({ data: { platform, entryUrl: url, name: `${platform} 账号` } })).id;
}

/** Store posts (and flags) as the crawler would have; their ids in order. */
export async function seedPosts(db: Db, specs: readonly PostSpec[]): Promise<number[]> {
  const ids: number[] = [];
  for (const s of specs) {
    const accountId = await accountOf(db, s.platform ?? "weibo");
    const n = ++seq;
    const post = await db.post.create({
      data: {
        accountId,
        platformId: `p${n}-${Math.random().toString(36).slice(2, 8)}`,
        url: `http://127.0.0.1:9/${s.platform ?? "weibo"}/${n}`,
        text: s.text ?? `食堂 饭菜 变质 第${n}条`,
        author: s.author ?? `作者${n}`,
        publishedAt: s.publishedAt,
        kind: s.replyTo === undefined ? "post" : "reply",
        parentId: s.replyTo === undefined ? null : ids[s.replyTo]!,
        sentiment: s.sentiment ?? null,
        sha1: `sha-${n}`,
      },
    });
    if (s.flagTopicId) await db.flag.create({ data: { postId: post.id, topicId: s.flagTopicId, reasons: "[]", score: 0.9 } });
    ids.push(post.id);
  }
  return ids;
}

/** Recompute an incident's figures from its members with the product's own rule (what clustering keeps current). */
export async function refreshIncident(db: Db, incidentId: number): Promise<void> {
  await recomputeIncidentFigures(db, incidentId);
}

/** An incident of `postIds` (status "open" unless said), with its figures. */
export async function createIncident(
  db: Db,
  opts: { postIds: readonly number[]; topicId?: number | null; status?: string; title?: string; keywords?: string[] },
): Promise<number> {
  const first = await db.post.findFirstOrThrow({ where: { id: { in: [...opts.postIds] } }, orderBy: { publishedAt: "asc" } });
  const incident = await db.incident.create({
    data: {
      status: opts.status ?? "open",
      title: opts.title ?? "食堂饭菜变质",
      // The title the test gives stays (as a reviewer's would): figures never retitle it.
      titleLocked: true,
      keywords: JSON.stringify(opts.keywords ?? ["食堂", "变质"]),
      topicId: opts.topicId ?? null,
      representativePostId: first.id,
      firstSeenAt: first.publishedAt,
      lastSeenAt: first.publishedAt,
    },
  });
  await addToIncident(db, incident.id, opts.postIds);
  return incident.id;
}

/** Add posts to an incident (as clustering would), then refresh its figures. */
export async function addToIncident(db: Db, incidentId: number, postIds: readonly number[]): Promise<void> {
  for (const postId of postIds) {
    await db.incidentPost.create({ data: { postId, incidentId, reason: postIds.indexOf(postId) === 0 ? "seed" : "similar", score: 0.8 } });
  }
  await refreshIncident(db, incidentId);
}
