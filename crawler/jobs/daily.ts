/**
 * The daily full training of topics that learned from reviews since their last full training: a
 * fold keeps refined and χ² weights of known words and gives new words weight 1, and the
 * threshold is calibrated only on a full training, so folded reviews are trained in properly at
 * least once a day, whatever the every-N count says (crawler/classify/topic-learn.ts).
 */
import type { Db } from "../../lib/db";
import { requestJob } from "./requests";

/**
 * Ask for a full `learn` job of every enabled, trained topic with reviews folded in since its last
 * full training. A topic whose learn job is already queued keeps that one. Returns the topic ids asked for.
 */
export async function requestDailyRetrains(db: Db): Promise<number[]> {
  const topics = await db.topic.findMany({
    where: { enabled: true, model: { not: null }, OR: [{ reviewsSinceRetrain: { gt: 0 } }, { retrainDue: true }] },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  const asked: number[] = [];
  for (const t of topics) if ((await requestJob(db, { kind: "learn", topicId: t.id, full: true })).created) asked.push(t.id);
  return asked;
}
