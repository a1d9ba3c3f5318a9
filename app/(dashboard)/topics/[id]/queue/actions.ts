"use server";

import { inScope } from "@/lib/topic-scope";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { answerQueue } from "@/server/review-queue";
import { guard } from "../../../_lib/form";

const answerSchema = z.object({
  topicId: z.number().int().positive(),
  postId: z.number().int().positive(),
  relevant: z.boolean(),
});

/** What the queue's client learns of one answer. */
export interface AnswerState {
  ok: boolean;
  /** Why not, in the reader's language. */
  message?: string;
  /** The card can never be answered (its post or topic is gone): drop it rather than offer it again. */
  gone?: boolean;
}

/**
 * Answer one card of a topic's 待复核 queue (relevant or not). Checks the session and the "review"
 * permission itself (an action can be called without the page); the learn job it asks for runs in
 * the scheduler, so this returns at once.
 */
export async function answerQueueAction(input: { topicId: number; postId: number; relevant: boolean }): Promise<AnswerState> {
  const t = await getTranslations("topics.queue.refused");
  const parsed = answerSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: t("invalid") };
  const { user, state } = await guard("review");
  if (state) return { ok: false, message: state.message };
  // A topic outside the user's scope answers like one that is gone.
  if (!inScope(user.topics, parsed.data.topicId)) return { ok: false, message: t("topicGone"), gone: true };
  const r = await answerQueue(db, parsed.data.topicId, parsed.data.postId, parsed.data.relevant, user);
  if (r.ok) return { ok: true };
  const key = r.reason === "topic-gone" ? "topicGone" : r.reason === "post-gone" ? "postGone" : "postDeleted";
  return { ok: false, message: t(key), gone: true };
}
