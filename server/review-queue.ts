/**
 * A topic's 待复核 queue (issue 16 item 2): the crawled posts its model is least sure about, to be
 * answered relevant / irrelevant. Candidates are the topic's scored posts (their Classification
 * row's stored score and cosine: no model is loaded here, so the page stays fast), still on their
 * platform, newest first, that nobody has answered yet (no sample of the topic for the post); the
 * choice among them is crawler/classify's selectScored (uncertainty nearest the threshold, with a
 * near-duplicate filter). An answer becomes a review sample exactly like a flag review
 * ({@link storeReviewSample}) and asks the topic to learn (a `learn` job, crawler/jobs).
 */
import type { Db } from "../lib/db";
import { postText, reviewLabel, selectScored } from "@/crawler/classify";
import { requestJob } from "@/crawler/jobs";
import { reviewFlagsReport, storeReviewSample, type Reviewer } from "./reviews";
import { recordAudit, userActor } from "../lib/audit";

/** How many of the newest unanswered scored posts the queue chooses from. */
export const QUEUE_POOL = 1000;
/** Rows read per round while filling the pool (answered posts are skipped, so a round may add fewer). */
const BATCH = 500;
/** Characters of a post's text shown on its card. */
const EXCERPT_CHARS = 240;

/** One card of the queue. Crawled content is hostile: `title` and `excerpt` are plain text, to render as text only. */
export interface ReviewQueueItem {
  postId: number;
  title: string;
  /** The start of the cleaned text (whitespace collapsed), or of the OCR text when the post has no text. */
  excerpt: string;
  url: string;
  accountName: string;
  platform: string;
  publishedAt: Date;
  /** P(on-topic) as last scored. */
  score: number;
  cosine: number;
  /** |score − threshold|: smaller is less sure. */
  margin: number;
  /** The post's flag of this topic, if it has one ("open" while unreviewed): answering reviews that flag. */
  flagStatus: string | null;
}

/** What {@link reviewQueue} returns. */
export interface ReviewQueue {
  topicId: number;
  topicName: string;
  /** 0: the topic has no model, so every score is 0 and the queue is empty. */
  modelVersion: number;
  threshold: number;
  /** Unanswered candidates the choice was made from (at most {@link QUEUE_POOL}). */
  pool: number;
  items: ReviewQueueItem[];
}

/** Post ids that already have a sample of the topic (answered in the queue, or a reviewed flag). */
async function answeredPostIds(db: Db, topicId: number): Promise<Set<number>> {
  const rows = await db.topicSample.findMany({ where: { topicId, postId: { not: null } }, select: { postId: true } });
  return new Set(rows.map((r) => r.postId as number));
}

function excerptOf(text: string, ocrText: string | null): string {
  const flat = (text.trim() === "" ? (ocrText ?? "") : text).replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= EXCERPT_CHARS ? flat : `${chars.slice(0, EXCERPT_CHARS).join("")}…`;
}

/**
 * The `limit` posts of a topic the model most wants answered, least sure first; null when there is
 * no such topic. An untrained topic (model version 0) has an empty queue: its scores say nothing.
 */
export async function reviewQueue(db: Db, topicId: number, { limit = 20 }: { limit?: number } = {}): Promise<ReviewQueue | null> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { name: true, nbThreshold: true, modelVersion: true } });
  if (!topic) return null;
  const base = { topicId, topicName: topic.name, modelVersion: topic.modelVersion, threshold: topic.nbThreshold };
  if (topic.modelVersion === 0) return { ...base, pool: 0, items: [] };
  const answered = await answeredPostIds(db, topicId);
  const pool: {
    postId: number;
    score: number;
    cosine: number;
    post: { title: string; text: string; ocrText: string | null; url: string; publishedAt: Date; account: { name: string; platform: string } };
  }[] = [];
  // Newest first, in rounds: the newest posts may all be answered already, and TopicSample has no
  // relation to Post to filter them out in the database.
  for (let skip = 0; pool.length < QUEUE_POOL; skip += BATCH) {
    const rows = await db.classification.findMany({
      where: { topicId, post: { deletedAt: null } },
      orderBy: [{ post: { publishedAt: "desc" } }, { postId: "desc" }],
      skip,
      take: BATCH,
      select: {
        postId: true,
        score: true,
        cosine: true,
        post: { select: { title: true, text: true, ocrText: true, url: true, publishedAt: true, account: { select: { name: true, platform: true } } } },
      },
    });
    for (const r of rows) if (!answered.has(r.postId) && pool.length < QUEUE_POOL) pool.push(r);
    if (rows.length < BATCH) break;
  }
  const picks = selectScored(
    pool.map((c) => ({ text: `${c.post.title}\n${c.post.text}`, score: c.score, cosine: c.cosine })),
    { limit, threshold: topic.nbThreshold },
  );
  const chosen = picks.map((p) => ({ pick: p, row: pool[p.index]! }));
  const flags = await db.flag.findMany({ where: { topicId, postId: { in: chosen.map((c) => c.row.postId) } }, select: { postId: true, status: true } });
  const flagOf = new Map(flags.map((f) => [f.postId, f.status]));
  return {
    ...base,
    pool: pool.length,
    items: chosen.map(({ pick, row }) => ({
      postId: row.postId,
      title: row.post.title,
      excerpt: excerptOf(row.post.text, row.post.ocrText),
      url: row.post.url,
      accountName: row.post.account.name,
      platform: row.post.account.platform,
      publishedAt: row.post.publishedAt,
      score: pick.score,
      cosine: pick.cosine,
      margin: pick.margin,
      flagStatus: flagOf.get(row.postId) ?? null,
    })),
  };
}

/**
 * How many scored posts of the topic still wait for an answer (not deleted, no sample): the count
 * on the topic page's 待复核 button. 0 for an untrained topic, whose queue is empty.
 */
export async function reviewQueueSize(db: Db, topicId: number): Promise<number> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { modelVersion: true } });
  if (!topic || topic.modelVersion === 0) return 0;
  const [scored, answered] = await Promise.all([
    db.classification.count({ where: { topicId, post: { deletedAt: null } } }),
    db.topicSample.findMany({ where: { topicId, postId: { not: null } }, select: { postId: true }, distinct: ["postId"] }),
  ]);
  if (answered.length === 0) return scored;
  // Answered posts that are still scored and not deleted (a sample may outlive its post's classification).
  const ids = answered.map((a) => a.postId as number);
  let overlap = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    overlap += await db.classification.count({ where: { topicId, postId: { in: ids.slice(i, i + BATCH) }, post: { deletedAt: null } } });
  }
  return Math.max(0, scored - overlap);
}

/** Why an answer was refused (the dashboard says it in the reader's language; `message` is English). */
export type AnswerRefusal = "topic-gone" | "post-gone" | "post-deleted";

/** What {@link answerQueue} did. */
export type AnswerResult =
  | {
      ok: true;
      /** The post had an answer (or a reviewed flag) for this topic before: it was replaced. */
      replaced: boolean;
      /** The post's flag of this topic was reviewed with the answer (confirm / dismiss). */
      flagReviewed: boolean;
      /** A learn job was asked for (the topic has a model). */
      learnRequested: boolean;
    }
  | { ok: false; reason: AnswerRefusal; message: string };

/**
 * Answer one card of the queue: the post is relevant to the topic or not. Stored as a review sample
 * of the topic (its first relevant label, or "off-topic"; title, text and OCR text; the post's id),
 * replacing an earlier answer for the post; then the topic is asked to learn. A post flagged for the
 * topic is reviewed through its flag instead ({@link reviewFlagsReport}: confirm / dismiss, with a
 * Review row), so the flagged list and the queue never disagree. Refused, changing nothing, for a
 * topic or post that no longer exists and for a post deleted on its platform.
 */
export async function answerQueue(db: Db, topicId: number, postId: number, relevant: boolean, user: Reviewer): Promise<AnswerResult> {
  const userId = user.id;
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { name: true, relevantLabels: true, modelVersion: true } });
  if (!topic) return { ok: false, reason: "topic-gone", message: `topic ${topicId} no longer exists` };
  const post = await db.post.findUnique({ where: { id: postId }, select: { title: true, text: true, ocrText: true, deletedAt: true } });
  if (!post) return { ok: false, reason: "post-gone", message: `post ${postId} no longer exists` };
  // The queue offers only posts still on their platform; one removed since is not labelled from a stale card.
  if (post.deletedAt) return { ok: false, reason: "post-deleted", message: `post ${postId} was deleted on its platform` };
  const decision = relevant ? "confirm" : "dismiss";
  const had = (await db.topicSample.count({ where: { topicId, postId, source: "review" } })) > 0;
  const flag = await db.flag.findUnique({ where: { postId_topicId: { postId, topicId } }, select: { id: true } });
  if (flag) {
    const r = await reviewFlagsReport(db, { flagIds: [flag.id], decision, note: "" }, user);
    // A flag re-scoring closed a moment ago is answered like an unflagged post below.
    if (r.reviewed > 0) return { ok: true, replaced: had, flagReviewed: true, learnRequested: r.learnTopics.includes(topicId) };
  }
  await db.$transaction(async (tx) => {
    const label = reviewLabel(decision, topic.relevantLabels);
    await storeReviewSample(tx, { topicId, postId, label, text: postText(post), createdAt: new Date() });
    await recordAudit(tx, userActor(user), {
      kind: "review",
      action: relevant ? "label-relevant" : "label-irrelevant",
      targetId: `post:${postId}`,
      target: `${topic.name}: ${(post.title || post.text).slice(0, 80)}`,
      after: { label },
      note: "queue",
    });
  });
  const learnRequested = topic.modelVersion > 0;
  // After the commit, as for flag reviews: a learn job that starts at once must find the sample.
  if (learnRequested) await requestJob(db, { kind: "learn", topicId }, { requestedBy: userId });
  return { ok: true, replaced: had, flagReviewed: false, learnRequested };
}
