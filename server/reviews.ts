/**
 * Review decisions on flags. A decision sets the flag's status, records who decided and when
 * (a Review row), and becomes a training sample of the flag's topic (title, text and OCR text;
 * the topic's first relevant label on confirm, "off-topic" on dismiss): the one source of the
 * review samples training reads. Reviewing again replaces the post's review sample for that topic.
 * Each reviewed topic with a model is then asked to learn (a `learn` job, crawler/jobs): the
 * scheduler runs it within seconds, folding the new samples into the model.
 */
import { scopeWhere, type TopicScope } from "../lib/topic-scope";
import { z } from "zod";
import type { Db } from "../lib/db";
import { closeReviewedFlag, postText, reviewLabel, storeReviewSample } from "@/crawler/classify";
import { requestJob } from "@/crawler/jobs";
import { recordAudit, userActor } from "../lib/audit";

/** Who reviews: a signed-in user, or an API token's owner (their name goes into the audit log). */
export interface Reviewer {
  id: number;
  username: string;
  /** Their topic scope (lib/topic-scope.ts): flags of other topics are not there for them. */
  topics?: TopicScope;
}

export const reviewInputSchema = z.object({
  flagIds: z.array(z.coerce.number().int().positive()).min(1, "Select at least one flag").max(500, "Review at most 500 flags at once"),
  decision: z.enum(["confirm", "dismiss"], { error: "Choose confirm or dismiss" }),
  note: z.string().trim().max(1000, "Keep the note under 1000 characters").default(""),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** The sample label a decision gives: the topic's first relevant label, or on-topic / off-topic. */
export function sampleLabel(decision: "confirm" | "dismiss", relevantLabels: string): string {
  return reviewLabel(decision, relevantLabels);
}

// Review samples are TopicSample rows, written by their owner (crawler/classify, docs/tables.md).
export { storeReviewSample } from "@/crawler/classify";

/** What {@link reviewFlagsReport} did. */
export interface ReviewReport {
  /** Flags reviewed. */
  reviewed: number;
  /**
   * Flag ids that changed nothing because the flag is gone: its post or its topic was deleted
   * (flags go with them), or the id never existed.
   */
  missing: number[];
  /** Topics asked to learn from the new samples (those with a model; an untrained topic counts them when trained). */
  learnTopics: number[];
}

/** Apply one decision to flags. Returns how many flags were reviewed (unknown ids are skipped). */
export async function reviewFlags(db: Db, input: ReviewInput, reviewer: Reviewer): Promise<number> {
  return (await reviewFlagsReport(db, input, reviewer)).reviewed;
}

/**
 * {@link reviewFlags}, saying which ids changed nothing and which topics were asked to learn.
 * Reviews by a reviewer disabled later keep counting: their samples are rows of their own.
 */
export async function reviewFlagsReport(db: Db, input: ReviewInput, reviewer: Reviewer): Promise<ReviewReport> {
  const reviewerId = reviewer.id;
  const flags = await db.flag.findMany({
    where: { id: { in: input.flagIds }, ...scopeWhere(reviewer.topics ?? null) },
    // In id order, so the samples (and reviews) are written in a stable order on every database.
    orderBy: { id: "asc" },
    select: {
      id: true,
      postId: true,
      topicId: true,
      status: true,
      topic: { select: { name: true, relevantLabels: true, modelVersion: true } },
      post: { select: { title: true, text: true, ocrText: true } },
    },
  });
  const found = new Set(flags.map((f) => f.id));
  const missing = [...new Set(input.flagIds)].filter((id) => !found.has(id));
  if (flags.length === 0) return { reviewed: 0, missing, learnTopics: [] };
  const now = new Date();
  const status = input.decision === "confirm" ? "confirmed" : "dismissed";
  await db.$transaction(async (tx) => {
    for (const f of flags) {
      await closeReviewedFlag(tx, f.id, status, now);
      await tx.review.create({ data: { flagId: f.id, reviewerId, decision: input.decision, note: input.note, createdAt: now } });
      await storeReviewSample(tx, {
        topicId: f.topicId,
        postId: f.postId,
        label: sampleLabel(input.decision, f.topic.relevantLabels),
        text: postText(f.post),
        createdAt: now,
      });
      // One entry per flag, in the decision's transaction: a review that did not commit is not logged.
      await recordAudit(
        tx,
        userActor(reviewer),
        {
          kind: "review",
          action: input.decision,
          targetId: f.id,
          target: `${f.topic.name}: ${(f.post.title || f.post.text).slice(0, 80)}`,
          before: { status: f.status },
          after: { status, ...(input.note ? { note: input.note } : {}) },
        },
        now,
      );
    }
  });
  const learnTopics = [...new Set(flags.filter((f) => f.topic.modelVersion > 0).map((f) => f.topicId))];
  // After the commit: a learn job that starts at once must find the samples. A job of the topic
  // already queued (train, rescore or learn) is returned instead of a new one, and reads them too.
  for (const topicId of learnTopics) await requestJob(db, { kind: "learn", topicId }, { requestedBy: reviewerId });
  return { reviewed: flags.length, missing, learnTopics };
}
