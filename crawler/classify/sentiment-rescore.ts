/**
 * Re-judging the sentiment of stored posts (`campuswatch sentiment rescore`): after a model is
 * trained or replaced, or for posts stored before sentiment existed. Written through the verdict
 * batch (./write-batch.ts), so the Post table's owner writes the columns (crawler/store/sentiment.ts).
 */
import type { Db } from "../../lib/db";
import { sentimentScorer } from "./sentiment";
import { postText } from "./verdict";
import { writeBatch } from "./write-batch";

/** Options of {@link rescoreSentiment}. */
export interface SentimentRescoreOptions {
  /** Every post, not only those without a sentiment. @default false */
  all?: boolean;
  /** Posts per transaction. @default 200 */
  batchSize?: number;
  onProgress?: (done: number) => void;
}

/** Judge and store the sentiment of stored posts; returns how many were judged. */
export async function rescoreSentiment(db: Db, options: SentimentRescoreOptions = {}): Promise<number> {
  const scorer = sentimentScorer();
  const batchSize = Math.max(1, options.batchSize ?? 200);
  let cursor = 0;
  let done = 0;
  for (;;) {
    const posts = await db.post.findMany({
      where: { id: { gt: cursor }, ...(options.all ? {} : { sentiment: null }) },
      select: { id: true, title: true, text: true, ocrText: true, lastSeenAt: true },
      orderBy: { id: "asc" },
      take: batchSize,
    });
    if (posts.length === 0) break;
    cursor = posts[posts.length - 1]!.id;
    const judged = await scorer.judge(posts.map((p) => postText(p)));
    await writeBatch(
      db,
      posts,
      [],
      [],
      false,
      judged.map((j, i) => ({ postId: posts[i]!.id, sentiment: j.sentiment, score: j.score })),
    );
    done += posts.length;
    options.onProgress?.(done);
  }
  return done;
}
