/**
 * Classifying stored posts against topics: Classification rows and open Flags with their reasons
 * (the rules are in ./verdict), for a crawled page's posts or for every post of a re-scored topic.
 */
import type { Db } from "../../lib/db";
import type { PreparedText } from "./features";
import { prepareTexts } from "./segment-thread";
import { cleanText } from "./text-clean";
import { loadTopics, topicById } from "./topic-loader";
import type { TopicProgress } from "./topic-train";
import type { SentimentRow } from "../store/sentiment";
import { sentimentScorer } from "./sentiment";
import { judge, postText } from "./verdict";
import { writeBatch, type VerdictRow } from "./write-batch";

/** Options of {@link classifyPosts}. */
export interface ClassifyOptions {
  /** Only these topic ids (still only enabled ones). @default all enabled topics */
  topics?: readonly number[];
  /** Posts per transaction. @default 200 */
  batchSize?: number;
  /**
   * The posts' stored content, as the store wrote it (crawler/store/index.ts): judged without reading
   * those posts again. Ids not among them are read. @default every post is read
   */
  posts?: readonly ClassifiedPost[];
  /**
   * Also judge and store each post's sentiment (./sentiment.ts). A topic's re-score passes false:
   * the posts' text has not changed. @default true
   */
  sentiment?: boolean;
}

/** A post as the classifier judges it; `lastSeenAt` says which stored version the text is (see dequeueJudged). */
export interface ClassifiedPost {
  id: number;
  title: string;
  text: string;
  ocrText: string | null;
  lastSeenAt: Date;
}

/** What {@link classifyPosts} wrote. */
export interface ClassifyResult {
  posts: number;
  classifications: number;
  flagsOpened: number;
  flagsUpdated: number;
  flagsClosed: number;
}

/**
 * Classify posts against enabled topics: upsert one Classification per post × topic, and open,
 * update or close the post's open Flag for that topic. One transaction per batch of posts, which
 * also removes the posts from UnclassifiedPost when every enabled topic was judged (also when
 * there is no enabled topic). The crawler calls this after each committed page of new or changed
 * posts, and for posts left queued by a killed process (./pending.ts).
 */
export async function classifyPosts(db: Db, postIds: readonly number[], options: ClassifyOptions = {}): Promise<ClassifyResult> {
  const result: ClassifyResult = { posts: 0, classifications: 0, flagsOpened: 0, flagsUpdated: 0, flagsClosed: 0 };
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return result;
  // A post is done (its UnclassifiedPost row may go) only when judged against every enabled topic:
  // a re-score of one topic among several leaves the queue alone.
  const { topics, complete } = await loadTopics(db, options.topics);
  const topicIds = topics.map((t) => t.row.id);
  const sentiment = options.sentiment !== false ? sentimentScorer() : null;
  if (topics.length === 0 && !sentiment) {
    // Nothing to judge against: the posts are as classified as they can be.
    if (complete) await db.unclassifiedPost.deleteMany({ where: { postId: { in: ids } } });
    return result;
  }
  const batchSize = Math.max(1, options.batchSize ?? 200);
  const given = new Map((options.posts ?? []).map((p) => [p.id, p]));

  for (let i = 0; i < ids.length; i += batchSize) {
    const batchIds = ids.slice(i, i + batchSize);
    const posts = await postsOf(db, batchIds, given);
    const texts = posts.map((post) => postText(post));
    const prepared = topics.length > 0 ? await prepareFor(topics, texts) : [];
    const rows: VerdictRow[] = [];
    posts.forEach((post, i) => {
      for (const t of topics) rows.push({ postId: post.id, topicId: t.row.id, verdict: judge(t, prepared[i]!), modelVersion: t.row.modelVersion });
    });
    const sentiments: SentimentRow[] = sentiment
      ? (await sentiment.judge(texts)).map((j, i) => ({ postId: posts[i]!.id, sentiment: j.sentiment, score: j.score }))
      : [];
    const flags = await writeBatch(db, posts, topicIds, rows, complete, sentiments);
    result.flagsOpened += flags.opened;
    result.flagsUpdated += flags.updated;
    result.flagsClosed += flags.closed;
    result.posts += posts.length;
    result.classifications += rows.length;
  }
  return result;
}

/**
 * The posts' texts as the topics read them: cleaned, and segmented once for every topic (the
 * expensive step) when some topic has a model. Topics without one (keywords and sensitive words
 * only, ./verdict.ts) read the cleaned text alone, so until a topic is trained jieba is never
 * loaded: its dictionaries take about 220 MiB and half a second.
 */
async function prepareFor(topics: readonly { model: unknown }[], texts: string[]): Promise<PreparedText[]> {
  if (topics.some((t) => t.model !== null)) return prepareTexts(texts);
  return texts.map((t) => ({ cleaned: cleanText(t), tokens: [] }));
}

/** The posts to judge, in id order: those the caller passed as stored, the others read. */
async function postsOf(db: Db, ids: readonly number[], given: ReadonlyMap<number, ClassifiedPost>): Promise<ClassifiedPost[]> {
  const missing = ids.filter((id) => !given.has(id));
  const read =
    missing.length === 0
      ? []
      : await db.post.findMany({
          where: { id: { in: missing } },
          // lastSeenAt says which stored version this text is (see dequeueJudged).
          select: { id: true, title: true, text: true, ocrText: true, lastSeenAt: true },
        });
  const known = ids.flatMap((id) => given.get(id) ?? []);
  return [...known, ...read].sort((a, b) => a.id - b.id);
}

/** Options of {@link rescoreTopic}. */
export interface RescoreOptions {
  /** Posts per batch. @default 500 */
  batchSize?: number;
  onProgress?: (p: TopicProgress) => void;
}

/** Re-classify every stored post against one topic, in batches of ids. */
export async function rescoreTopic(db: Db, topicId: number, options: RescoreOptions = {}): Promise<ClassifyResult> {
  const topic = await topicById(db, topicId);
  const total = await db.post.count();
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const result: ClassifyResult = { posts: 0, classifications: 0, flagsOpened: 0, flagsUpdated: 0, flagsClosed: 0 };
  if (!topic.enabled) {
    options.onProgress?.({
      phase: "rescore",
      message: `topic "${topic.name}" is disabled: nothing re-scored`,
      step: "disabled",
      values: { name: topic.name },
      done: 0,
      total,
    });
    return result;
  }
  let cursor = 0;
  for (;;) {
    const ids = (await db.post.findMany({ where: { id: { gt: cursor } }, select: { id: true }, orderBy: { id: "asc" }, take: batchSize })).map((p) => p.id);
    if (ids.length === 0) break;
    cursor = ids[ids.length - 1] as number;
    const r = await classifyPosts(db, ids, { topics: [topicId], batchSize, sentiment: false });
    result.posts += r.posts;
    result.classifications += r.classifications;
    result.flagsOpened += r.flagsOpened;
    result.flagsUpdated += r.flagsUpdated;
    result.flagsClosed += r.flagsClosed;
    options.onProgress?.({
      phase: "rescore",
      message: `re-scored ${result.posts}/${total} posts`,
      step: "rescoring",
      values: { done: result.posts, total },
      done: result.posts,
      total,
    });
  }
  return result;
}
