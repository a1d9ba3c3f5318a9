/**
 * The writes of Topic and TopicSample rows that the dashboard, the CLI and the demo ask for: a
 * topic's settings (validated by server/topic-admin.ts, written here), uploaded samples, review
 * samples and the CLI's review feedback; and a flag closed by its review. The rest of crawler/classify writes what training and
 * learning change (models, evaluations, learnedAt). crawler/classify owns both tables
 * (docs/tables.md): samples and the model that learned them change together (learnedAt,
 * retrainDue), so nothing outside this module writes either.
 */
import type { Db, Prisma } from "../../lib/db";

/** A client or a transaction: whatever the caller writes with. */
type Writer = Db | Prisma.TransactionClient;

/** Insert a topic (its settings, already validated). */
export function createTopicRow<T extends Prisma.TopicCreateArgs>(db: Writer, args: Prisma.SelectSubset<T, Prisma.TopicCreateArgs>) {
  return db.topic.create<T>(args);
}

/** Write a topic's settings (already validated). */
export function updateTopicRow<T extends Prisma.TopicUpdateArgs>(db: Writer, args: Prisma.SelectSubset<T, Prisma.TopicUpdateArgs>) {
  return db.topic.update<T>(args);
}

/** Delete a topic; the schema's cascades take its flags, samples, scores, notifications and discovery runs. */
export async function deleteTopicRow(db: Writer, id: number): Promise<void> {
  await db.topic.delete({ where: { id }, select: { id: true } });
}

/** Rows per createMany: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 1000;

/** Keep uploaded samples (added to the earlier uploads). Returns how many were stored. */
export async function addUploadedSamples(db: Db, topicId: number, samples: readonly { text: string; label: string }[]): Promise<number> {
  for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
    await db.topicSample.createMany({ data: samples.slice(i, i + INSERT_CHUNK).map((s) => ({ topicId, text: s.text, label: s.label, source: "upload" })) });
  }
  return samples.length;
}

/** Remove a topic's uploaded samples (review samples stay). */
export function clearUploadedSamples(db: Db, topicId: number) {
  return db.topicSample.deleteMany({ where: { topicId, source: "upload" } });
}

/**
 * Store a post's review sample for a topic (call inside a transaction): the one way a flag review
 * and a 待复核 queue answer become training data. The post's earlier review sample, if any, is
 * replaced — never a second sample for one post — and, when the model already holds the old one,
 * the topic is marked to retrain in full (its counts cannot be taken back once the row is gone).
 */
export async function storeReviewSample(
  tx: Prisma.TransactionClient,
  s: { topicId: number; postId: number; label: string; text: string; createdAt: Date },
): Promise<void> {
  const replaced = await tx.topicSample.deleteMany({ where: { topicId: s.topicId, postId: s.postId, source: "review", learnedAt: { not: null } } });
  // Counts of a sample the model already holds cannot be taken back once its row is gone: retrain in full next.
  if (replaced.count > 0) await tx.topic.update({ where: { id: s.topicId }, data: { retrainDue: true } });
  await tx.topicSample.deleteMany({ where: { topicId: s.topicId, postId: s.postId, source: "review" } });
  await tx.topicSample.create({ data: { topicId: s.topicId, postId: s.postId, source: "review", label: s.label, text: s.text, createdAt: s.createdAt } });
}

/**
 * Close a flag with a reviewer's decision (call inside the review's transaction, with its review
 * sample): the flag no longer waits in the queue, and a later re-score does not reopen it.
 */
export async function closeReviewedFlag(tx: Prisma.TransactionClient, flagId: number, status: "confirmed" | "dismissed", at: Date): Promise<void> {
  await tx.flag.update({ where: { id: flagId }, data: { status, reviewedAt: at }, select: { id: true } });
}

/** Source of the CLI's review samples (`topics feedback`): the same as the dashboard's reviews. */
export const FEEDBACK_SOURCE = "review";
/** Source of samples stored by the earlier feedback path, which folded them into the model as uploads. */
export const LEGACY_FEEDBACK_SOURCE = "feedback";

/**
 * Store reviews given to the CLI (`topics feedback`) as review samples of a topic, in one
 * transaction, not yet learned. Rows of the earlier feedback path are in the model as uploads: as
 * review samples they would be folded in a second time, so they wait (learnedAt null) for a full
 * retrain, which counts each once, and the topic is marked for it.
 */
export async function storeFeedbackSamples(db: Db, topicId: number, reviews: readonly { text: string; label: string }[]): Promise<void> {
  await db.$transaction(
    async (tx) => {
      const legacy = await tx.topicSample.updateMany({
        where: { topicId, source: LEGACY_FEEDBACK_SOURCE },
        data: { source: FEEDBACK_SOURCE, learnedAt: null },
      });
      if (legacy.count > 0) await tx.topic.update({ where: { id: topicId }, data: { retrainDue: true } });
      for (let i = 0; i < reviews.length; i += INSERT_CHUNK) {
        await tx.topicSample.createMany({
          data: reviews
            .slice(i, i + INSERT_CHUNK)
            .map((s) => ({ topicId, text: s.text, label: s.label, source: FEEDBACK_SOURCE, postId: null, learnedAt: null })),
        });
      }
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}
