/**
 * Review decisions on flags. A decision sets the flag's status, records who decided and when
 * (a Review row), and becomes a training sample of the flag's topic, so confirmed and dismissed
 * posts improve the next model. Reviewing again replaces the post's review sample for that topic.
 */
import { z } from "zod";
import type { Db } from "../db";
import { jsonList } from "../format";

export const reviewInputSchema = z.object({
  flagIds: z.array(z.coerce.number().int().positive()).min(1, "Select at least one flag").max(500, "Review at most 500 flags at once"),
  decision: z.enum(["confirm", "dismiss"], { error: "Choose confirm or dismiss" }),
  note: z.string().trim().max(1000, "Keep the note under 1000 characters").default(""),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** The sample label a decision gives: the topic's first relevant label, or on-topic / off-topic. */
export function sampleLabel(decision: "confirm" | "dismiss", relevantLabels: string): string {
  if (decision === "dismiss") return "off-topic";
  return jsonList<string>(relevantLabels)[0] ?? "on-topic";
}

/** Apply one decision to flags. Returns how many flags were reviewed (unknown ids are skipped). */
export async function reviewFlags(db: Db, input: ReviewInput, reviewerId: number): Promise<number> {
  const flags = await db.flag.findMany({
    where: { id: { in: input.flagIds } },
    // In id order, so the samples (and reviews) are written in a stable order on every database.
    orderBy: { id: "asc" },
    select: { id: true, postId: true, topicId: true, topic: { select: { relevantLabels: true } }, post: { select: { title: true, text: true } } },
  });
  if (flags.length === 0) return 0;
  const now = new Date();
  const status = input.decision === "confirm" ? "confirmed" : "dismissed";
  await db.$transaction(async (tx) => {
    for (const f of flags) {
      await tx.flag.update({ where: { id: f.id }, data: { status, reviewedAt: now } });
      await tx.review.create({ data: { flagId: f.id, reviewerId, decision: input.decision, note: input.note, createdAt: now } });
      await tx.topicSample.deleteMany({ where: { topicId: f.topicId, postId: f.postId, source: "review" } });
      await tx.topicSample.create({
        data: {
          topicId: f.topicId,
          postId: f.postId,
          source: "review",
          label: sampleLabel(input.decision, f.topic.relevantLabels),
          text: [f.post.title, f.post.text].filter(Boolean).join("\n"),
          createdAt: now,
        },
      });
    }
  });
  return flags.length;
}
