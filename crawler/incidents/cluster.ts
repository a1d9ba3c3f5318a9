/**
 * Clustering stored posts into incidents, as the crawl stores them: {@link clusterPosts} takes
 * posts from the IncidentQueue (./queue.ts) and clusters each in the transaction that removes its
 * queue row, so a post is clustered exactly once even when a run is killed half-way;
 * {@link clusterPending} works through whatever an earlier run left queued. Both run after
 * classification, so a post's flags are there when its incident's figures are computed, and
 * {@link refreshIncidentsOf} brings the figures (and the candidate → open promotion) up to date
 * when a member gets a flag later.
 */
import type { Db } from "../../lib/db";
import { storesOf } from "../../lib/store";
import { ClusterRules, type ClusterDecision, type ClusterOptions } from "./clusterer";
import { recomputeIncidentFigures } from "./figures";
import { quotedUrls } from "./links";
import { dequeueClustered } from "./queue";
import { clusterStepPlan, INCIDENT_STORE, type ClusterStep } from "./store";
import { textFeatures } from "./text-features";

/** Options of {@link clusterPosts} and {@link clusterPending}. */
export interface ClusterRunOptions {
  /** The algorithm's tunables (defaults: crawler/incidents/clusterer.ts). */
  cluster?: ClusterOptions;
  /** Stop between posts (shutdown); the rest stay queued. */
  signal?: AbortSignal;
  /** The time written as Incident.updatedAt. @default now */
  now?: () => Date;
}

/** What a clustering run did. */
export interface ClusterRunResult {
  posts: number;
  joined: number;
  started: number;
  alone: number;
  decisions: ClusterDecision[];
}

/** Longest a post's clustering transaction may take (a big incident's figures read all its members). */
export const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Posts handed to the store together (lib/store runEach: each post still in a transaction of its
 * own, after the previous one's writes). Why: on SQLite they then share one commit, and a commit
 * writes every page a post changed to the log (its terms' document frequencies are spread over the
 * whole table), about 0.7 ms of CPU, as much as clustering the post itself. The group holds the
 * connection synchronously, about a millisecond per post, so it stays small.
 */
export const POSTS_PER_GROUP = 16;

const POST_SELECT = { id: true, title: true, text: true, ocrText: true, html: true, url: true, publishedAt: true, parentId: true } as const;

/**
 * Cluster queued posts among `postIds` (others are skipped: already clustered, or not stored),
 * in publishedAt order, each with its queue row's removal in the same transaction (a few at a time:
 * {@link POSTS_PER_GROUP}). Then refresh the incidents of every given post that
 * was a member already (its flags may have changed). Returns what happened.
 */
export async function clusterPosts(db: Db, postIds: readonly number[], options: ClusterRunOptions = {}): Promise<ClusterRunResult> {
  const result: ClusterRunResult = { posts: 0, joined: 0, started: 0, alone: 0, decisions: [] };
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return result;
  const now = options.now ?? (() => new Date());
  const queued = await db.incidentQueue.findMany({ where: { postId: { in: ids } }, select: { postId: true, queuedAt: true } });
  const queuedAt = new Map(queued.map((q) => [q.postId, q.queuedAt]));
  const posts = await db.post.findMany({ where: { id: { in: [...queuedAt.keys()] } }, select: POST_SELECT, orderBy: [{ publishedAt: "asc" }, { id: "asc" }] });
  const stored = new Set(posts.map((p) => p.id));
  for (const q of queued) if (!stored.has(q.postId)) await dequeueClustered(db, q.postId, q.queuedAt);
  const rules = new ClusterRules(options.cluster);
  const stores = storesOf(db);
  for (let i = 0; i < posts.length && !options.signal?.aborted; i += POSTS_PER_GROUP) {
    // Segmenting (and loading jieba, the first time) happens before the transaction, which stays short.
    const steps: ClusterStep[] = posts.slice(i, i + POSTS_PER_GROUP).map((p) => ({
      post: {
        key: p.id,
        time: p.publishedAt.getTime(),
        title: p.title,
        text: p.text,
        ocrText: p.ocrText,
        features: textFeatures(p.title, p.text, p.ocrText),
        ...(p.parentId !== null ? { parentKey: p.parentId, linkKind: "reply" as const } : {}),
      },
      quotedUrls: p.parentId !== null ? [] : quotedUrls(p.html, p.text).filter((u) => u !== p.url),
      queuedAt: queuedAt.get(p.id)!,
      now: now(),
    }));
    const decisions = await stores.runEach(
      steps.map((step) => () => clusterStepPlan(rules, step)),
      INCIDENT_STORE,
      { timeout: TRANSACTION_TIMEOUT_MS },
    );
    for (const d of decisions) {
      result.posts++;
      result.decisions.push(d);
      if (d.already) continue;
      if (d.incidentId === null) result.alone++;
      else if (d.reason === "seed") result.started++;
      else result.joined++;
    }
  }
  // Members that were not queued (already clustered) may have new flags: their figures follow.
  await refreshIncidentsOf(
    db,
    ids.filter((id) => !queuedAt.has(id)),
    now(),
  );
  return result;
}

/**
 * Recompute the figures of the incidents these posts belong to: call it after flags of member
 * posts changed (a new flag promotes a candidate to an open incident).
 */
export async function refreshIncidentsOf(db: Db, postIds: readonly number[], now = new Date()): Promise<number> {
  if (postIds.length === 0) return 0;
  const rows = await db.incidentPost.findMany({ where: { postId: { in: [...postIds] } }, select: { incidentId: true }, distinct: ["incidentId"] });
  for (const r of rows) await db.$transaction((tx) => recomputeIncidentFigures(tx, r.incidentId, now), { timeout: TRANSACTION_TIMEOUT_MS });
  return rows.length;
}

/** Options of {@link clusterPending}. */
export interface ClusterPendingOptions extends ClusterRunOptions {
  /** Posts per read of the queue. @default 200 */
  batch?: number;
  /** Only posts queued before this time (a start-up catch-up: later ones are the crawls' own). */
  queuedBefore?: Date;
  /** Stop after this many posts. @default no limit */
  limit?: number;
  /** Only posts this account reached (a crawl catches up its own account). @default every post */
  accountId?: number;
}

/**
 * Cluster every post left in the IncidentQueue, oldest queued first. Returns how many posts were
 * looked at. A failure is thrown; the posts not yet clustered stay queued.
 */
export async function clusterPending(db: Db, options: ClusterPendingOptions = {}): Promise<number> {
  const batch = Math.max(1, options.batch ?? 200);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let done = 0;
  let after: { queuedAt: Date; postId: number } | null = null;
  while (done < limit && !options.signal?.aborted) {
    const scope = options.queuedBefore ? { queuedAt: { lt: options.queuedBefore } } : {};
    const rows: { postId: number; queuedAt: Date }[] = await db.incidentQueue.findMany({
      where: after ? { ...scope, OR: [{ queuedAt: { gt: after.queuedAt } }, { queuedAt: after.queuedAt, postId: { gt: after.postId } }] } : scope,
      orderBy: [{ queuedAt: "asc" }, { postId: "asc" }],
      take: Math.min(batch, limit - done),
      select: { postId: true, queuedAt: true },
    });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!;
    let ids = rows.map((r) => r.postId);
    if (options.accountId !== undefined) {
      const reached = await db.postSource.findMany({ where: { accountId: options.accountId, postId: { in: ids } }, select: { postId: true } });
      const mine = new Set(reached.map((r) => r.postId));
      ids = ids.filter((id) => mine.has(id));
    }
    await clusterPosts(db, ids, options);
    done += rows.length;
  }
  return done;
}
