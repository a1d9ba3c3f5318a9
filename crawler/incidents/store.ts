/**
 * Clustering one stored post, written once as a plan (lib/plan.ts) and carried out by two drivers
 * through lib/store: on SQLite as prepared statements in one synchronous transaction
 * (./sqlite-index.ts), elsewhere through Prisma in one interactive transaction (./index-store.ts,
 * ./figures.ts). The plan looks up the post's quoted link, runs the clusterer's rules
 * (./clusterer.ts ClusterRules), recomputes the figures of the incident it joined or started
 * (./figures.ts figuresPlan) and removes the post from the queue, all or nothing.
 */
import type { PlanDriver } from "../../lib/store";
import { callIndex, type ClusterDecision, type ClusterPost, type ClusterRules, type IndexOp } from "./clusterer";
import { figuresPlan, runFigureOpPrisma, type FigureOp } from "./figures";
import { DbIndex, indexDialect } from "./index-store";
import { quotedPost } from "./links";
import { dequeueClustered, dequeueClusteredSync } from "./queue";
import { quotedPostSync, runFigureOpSqlite, SqliteIndex } from "./sqlite-index";

/**
 * The operations of {@link clusterStepPlan}: an index call ({@link IndexOp}), a figures read or
 * write ({@link FigureOp}), the earliest other stored post quoted by one of `urls` (its id or
 * null: ./links.ts quotedPost), and the removal of a clustered post from the queue unless it was
 * queued again after `queuedAt` (./queue.ts dequeueClustered).
 */
export type IncidentOp = IndexOp | FigureOp | { op: "quotedPost"; postId: number; urls: readonly string[] } | { op: "dequeue"; postId: number; queuedAt: Date };

/** The drivers of {@link IncidentOp}. */
export const INCIDENT_STORE: PlanDriver<IncidentOp> = {
  sqlite(sql, op) {
    if ("args" in op) return callIndex(new SqliteIndex(sql), op);
    switch (op.op) {
      case "quotedPost":
        return quotedPostSync(sql, op.postId, op.urls);
      case "dequeue":
        return dequeueClusteredSync(sql, op.postId, op.queuedAt);
      default:
        return runFigureOpSqlite(sql, op);
    }
  },
  async prisma(tx, op, db) {
    if ("args" in op) return callIndex(new DbIndex(tx, indexDialect(db)), op);
    switch (op.op) {
      case "quotedPost":
        return quotedPost(tx, op.postId, op.urls);
      case "dequeue":
        return dequeueClustered(tx, op.postId, op.queuedAt);
      default:
        return runFigureOpPrisma(tx, op);
    }
  },
};

/** What {@link clusterStepPlan} needs of a stored post besides its clustering fields. */
export interface ClusterStep {
  /** The post, its explicit reply link filled in when it has one. */
  post: ClusterPost;
  /** URLs it quotes (other than its own), looked up as a link when it is not a reply. */
  quotedUrls: readonly string[];
  /** When it was queued (a later queue row stays: that text was not clustered). */
  queuedAt: Date;
  now: Date;
}

/**
 * Cluster one queued post in one transaction: its quoted link, the clusterer's decision, the
 * figures of the incident it joined or started, and its queue row's removal.
 */
export function* clusterStepPlan(rules: ClusterRules, step: ClusterStep): Generator<IncidentOp, ClusterDecision, unknown> {
  let post = step.post;
  if (post.parentKey == null && step.quotedUrls.length > 0) {
    const quoted = (yield { op: "quotedPost", postId: post.key, urls: step.quotedUrls }) as number | null;
    if (quoted !== null) post = { ...post, parentKey: quoted, linkKind: "link" };
  }
  const decision = yield* rules.clusterPlan(post);
  // The one incident whose membership changed (a post already clustered changed none).
  if (!decision.already && decision.incidentId !== null) yield* figuresPlan(decision.incidentId, step.now);
  yield { op: "dequeue", postId: post.key, queuedAt: step.queuedAt };
  return decision;
}
