/**
 * Topics against the database: classify stored posts (Classification rows and open Flags with
 * their reasons), train and re-score a topic, and turn reviewers' decisions into training samples.
 * Every function takes the Prisma client as its first argument; nothing here imports the global.
 *
 * Flag rules (per post × enabled topic):
 * - "classifier": the topic has a model and P(on-topic) ≥ nbThreshold;
 * - "cosine": the topic has a topic vector and cosine ≥ cosineThreshold;
 * - "sensitive": any sensitive word occurs (whatever the scores);
 * - "keyword": keyword hits FLAG only while a topic is untrained (no model yet: keywords are then
 *   its only relevance signal). Once trained, keywords are broad words that would flood reviewers
 *   on their own, so they are listed as an extra reason on posts flagged for another reason.
 * A flag a reviewer already confirmed or dismissed is never changed or deleted.
 */
import type { Db } from "../../lib/db";
import { evaluateTopicModel, type TopicEvaluation } from "./evaluate";
import { prepareText, type PreparedText } from "./features";
import { checkTrainable, TopicModel, trainPrepared, type Sample, type TrainOptions } from "./model";
import { WordMatcher, type WordHit } from "./aho-corasick";
import { TrainingError } from "./naive-bayes";
import { splitRandom } from "./random";
import { useUserDictionary } from "./tokenizer";
import { dequeueJudged, lockPosts } from "./unclassified";

/** Why a post was flagged. */
export interface FlagReason {
  kind: "classifier" | "cosine" | "sensitive" | "keyword";
  detail: string;
}

/** Options of {@link classifyPosts}. */
export interface ClassifyOptions {
  /** Only these topic ids (still only enabled ones). @default all enabled topics */
  topics?: readonly number[];
  /** Posts per transaction. @default 200 */
  batchSize?: number;
}

/** What {@link classifyPosts} wrote. */
export interface ClassifyResult {
  posts: number;
  classifications: number;
  flagsOpened: number;
  flagsUpdated: number;
  flagsClosed: number;
}

/** The judgement of one post against one topic, before it is written. */
export interface PostVerdict {
  score: number;
  cosine: number;
  label: string;
  relevant: boolean;
  topTerms: { term: string; weight: number }[];
  sensitiveHits: WordHit[];
  keywordHits: string[];
  /** Empty when the post is not flagged. */
  reasons: FlagReason[];
}

/** A topic does not exist. */
export class TopicNotFoundError extends Error {
  override name = "TopicNotFoundError";
}

/** Decode a JSON string[] column; anything else reads as empty (the dashboard validates on write). */
export function parseStringList(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
  } catch {
    return [];
  }
}

const TOPIC_FIELDS = {
  id: true,
  name: true,
  keywords: true,
  sensitiveWords: true,
  relevantLabels: true,
  nbThreshold: true,
  cosineThreshold: true,
  modelVersion: true,
} as const;

interface TopicRow {
  id: number;
  name: string;
  keywords: string;
  sensitiveWords: string;
  relevantLabels: string;
  nbThreshold: number;
  cosineThreshold: number;
  modelVersion: number;
}

interface LoadedTopic {
  row: TopicRow;
  model: TopicModel | null;
  sensitive: WordMatcher;
  keywords: WordMatcher;
}

// Parsed models per client, one (the newest) version per topic: a model can be megabytes of JSON,
// so it is read and compiled once, not per crawled page. Keyed by client because topic ids of two
// databases (tests, tools) must not collide.
const modelCache = new WeakMap<Db, Map<number, { version: number; model: TopicModel | null }>>();
const matcherCache = new Map<string, WordMatcher>();
const MATCHER_CACHE_LIMIT = 512;

function matcherFor(json: string): WordMatcher {
  let m = matcherCache.get(json);
  if (!m) {
    if (matcherCache.size >= MATCHER_CACHE_LIMIT) matcherCache.clear();
    m = new WordMatcher(parseStringList(json));
    matcherCache.set(json, m);
  }
  return m;
}

async function modelFor(db: Db, row: TopicRow): Promise<TopicModel | null> {
  if (row.modelVersion <= 0) return null;
  let perDb = modelCache.get(db);
  if (!perDb) {
    perDb = new Map();
    modelCache.set(db, perDb);
  }
  const hit = perDb.get(row.id);
  if (hit && hit.version === row.modelVersion) return hit.model;
  const stored = await db.topic.findUnique({ where: { id: row.id }, select: { model: true, modelVersion: true } });
  // A model that cannot be read (another format version) must not stop the crawler: the topic is
  // treated as untrained until it is retrained; `topics eval` reports why it cannot be read.
  let model: TopicModel | null = null;
  if (stored?.model) {
    try {
      model = TopicModel.fromJSON(stored.model);
    } catch {
      model = null;
    }
  }
  perDb.set(row.id, { version: stored?.modelVersion ?? row.modelVersion, model });
  return model;
}

/**
 * The segmenter's user dictionary is the union of every topic's words (see tokenizer.ts for why):
 * load exactly that before segmenting anything, so tokens never depend on which topic ran first.
 */
async function loadDictionary(db: Db): Promise<void> {
  const rows = await db.topic.findMany({ select: { userDict: true } });
  useUserDictionary(rows.flatMap((r) => parseStringList(r.userDict)));
}

/**
 * The enabled topics to judge against (only `ids`, when given), and whether they are all the
 * enabled topics. When there is any, the segmenter's dictionary is loaded as {@link loadDictionary}
 * does, from the same rows: this runs for every stored page, so it is one query, not two.
 */
async function loadTopics(db: Db, ids?: readonly number[]): Promise<{ topics: LoadedTopic[]; complete: boolean }> {
  const rows = await db.topic.findMany({ select: { ...TOPIC_FIELDS, enabled: true, userDict: true }, orderBy: { id: "asc" } });
  const wanted: TopicRow[] = rows.filter((r) => r.enabled && (!ids || ids.includes(r.id)));
  const complete = wanted.length === rows.filter((r) => r.enabled).length;
  if (wanted.length > 0) useUserDictionary(rows.flatMap((r) => parseStringList(r.userDict)));
  const topics: LoadedTopic[] = [];
  for (const row of wanted) {
    topics.push({ row, model: await modelFor(db, row), sensitive: matcherFor(row.sensitiveWords), keywords: matcherFor(row.keywords) });
  }
  return { topics, complete };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/** Judge one prepared post against one loaded topic (no I/O). */
function judge(topic: LoadedTopic, text: PreparedText): PostVerdict {
  const { row, model } = topic;
  const sensitiveHits = topic.sensitive.findAll(text.cleaned);
  const keywordHits = topic.keywords.distinctWords(text.cleaned);
  const reasons: FlagReason[] = [];
  let score = 0;
  let cosine = 0;
  let label: string;
  let relevant: boolean;
  let topTerms: PostVerdict["topTerms"] = [];
  if (model) {
    const p = model.predictPrepared(text);
    score = p.score;
    cosine = p.cosine;
    topTerms = p.topTerms;
    const byClassifier = score >= row.nbThreshold;
    const byCosine = model.hasVector && cosine >= row.cosineThreshold;
    relevant = byClassifier || byCosine;
    label = p.label;
    if (byClassifier) {
      const terms = topTerms.map((t) => t.term).join(", ");
      reasons.push({
        kind: "classifier",
        detail: `naive Bayes P(on-topic) ${fmt(score)} ≥ ${row.nbThreshold} (label ${p.label}${terms ? `; terms ${terms}` : ""})`,
      });
    }
    if (byCosine) reasons.push({ kind: "cosine", detail: `cosine ${fmt(cosine)} ≥ ${row.cosineThreshold}` });
  } else {
    relevant = keywordHits.length > 0;
    label = relevant ? "on-topic" : "off-topic";
  }
  if (sensitiveHits.length > 0) {
    reasons.push({ kind: "sensitive", detail: sensitiveHits.map((h) => `${h.word} @${h.start}–${h.end}`).join(", ") });
  }
  if (keywordHits.length > 0 && (reasons.length > 0 || !model)) {
    reasons.push({ kind: "keyword", detail: keywordHits.join(", ") });
  }
  return { score, cosine, label, relevant, topTerms, sensitiveHits, keywordHits, reasons };
}

function postText(p: { title: string; text: string; ocrText: string | null }): string {
  // The title is classified with the body; OCR text is part of the post (method.md §1).
  return [p.title, p.text, p.ocrText ?? ""].filter((s) => s.trim() !== "").join("\n");
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
  if (topics.length === 0) {
    // Nothing to judge against: the posts are as classified as they can be.
    if (complete) await db.unclassifiedPost.deleteMany({ where: { postId: { in: ids } } });
    return result;
  }
  const batchSize = Math.max(1, options.batchSize ?? 200);

  for (let i = 0; i < ids.length; i += batchSize) {
    const batchIds = ids.slice(i, i + batchSize);
    const posts = await db.post.findMany({
      where: { id: { in: batchIds } },
      // lastSeenAt says which stored version this text is (see dequeueJudged).
      select: { id: true, title: true, text: true, ocrText: true, lastSeenAt: true },
    });
    // Segment each post once for every topic (the expensive step).
    const rows: {
      postId: number;
      topicId: number;
      verdict: PostVerdict;
      modelVersion: number;
    }[] = [];
    for (const post of posts) {
      const prepared = prepareText(postText(post));
      for (const t of topics) rows.push({ postId: post.id, topicId: t.row.id, verdict: judge(t, prepared), modelVersion: t.row.modelVersion });
    }
    const presentIds = posts.map((p) => p.id);
    await db.$transaction(
      async (tx) => {
        await lockPosts(db, tx, presentIds);
        // Replace rather than upsert row by row: two statements per batch instead of one per pair.
        await tx.classification.deleteMany({ where: { postId: { in: presentIds }, topicId: { in: topicIds } } });
        await tx.classification.createMany({
          data: rows.map((r) => ({
            postId: r.postId,
            topicId: r.topicId,
            score: r.verdict.score,
            cosine: r.verdict.cosine,
            label: r.verdict.label,
            relevant: r.verdict.relevant,
            topTerms: JSON.stringify(r.verdict.topTerms),
            sensitiveHits: JSON.stringify([...new Set(r.verdict.sensitiveHits.map((h) => h.word))]),
            modelVersion: r.modelVersion,
          })),
        });
        const existing = await tx.flag.findMany({
          where: { postId: { in: presentIds }, topicId: { in: topicIds } },
          select: { id: true, postId: true, topicId: true, status: true, reasons: true, score: true },
        });
        const byKey = new Map(existing.map((f) => [`${f.postId}:${f.topicId}`, f]));
        const create: { postId: number; topicId: number; reasons: string; score: number }[] = [];
        const close: number[] = [];
        for (const r of rows) {
          const flag = byKey.get(`${r.postId}:${r.topicId}`);
          const reasons = JSON.stringify(r.verdict.reasons);
          const score = r.verdict.score > 0 ? r.verdict.score : r.verdict.cosine;
          if (r.verdict.reasons.length > 0) {
            if (!flag) create.push({ postId: r.postId, topicId: r.topicId, reasons, score });
            else if (flag.status === "open" && (flag.reasons !== reasons || flag.score !== score)) {
              // Guarded by status so a review that landed meanwhile is not overwritten.
              await tx.flag.updateMany({ where: { id: flag.id, status: "open" }, data: { reasons, score } });
              result.flagsUpdated++;
            }
          } else if (flag && flag.status === "open") {
            close.push(flag.id);
          }
        }
        if (create.length > 0) await tx.flag.createMany({ data: create });
        if (close.length > 0) await tx.flag.deleteMany({ where: { id: { in: close }, status: "open" } });
        if (complete) await dequeueJudged(tx, posts);
        result.flagsOpened += create.length;
        result.flagsClosed += close.length;
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
    result.posts += posts.length;
    result.classifications += rows.length;
  }
  return result;
}

/** Progress of a long topic operation. */
export interface TopicProgress {
  phase: "train" | "evaluate" | "store" | "rescore";
  /** English, for the CLI. */
  message: string;
  /** The step as a message key of the dashboard (`topics.job.steps`), with its values. */
  step: TopicStep;
  values?: Record<string, string | number>;
  done?: number;
  total?: number;
}

/** The steps of training and re-scoring the dashboard can say in the reader's language. */
export type TopicStep = "segmenting" | "evaluating" | "training" | "storing" | "disabled" | "rescoring";

/** Options of {@link trainTopic}. */
export interface TrainTopicOptions {
  /** Replace the topic's relevant labels (stored on the topic). @default the topic's */
  relevantLabels?: readonly string[];
  /** Add samples from reviewers' decisions ({@link samplesFromReviews}). @default true */
  includeReviews?: boolean;
  /** Keep the given samples as the topic's uploaded samples (replacing earlier uploads). @default true */
  storeSamples?: boolean;
  /** Model options (relevant labels and user dictionary come from the topic). */
  model?: Omit<TrainOptions, "relevantLabels" | "userDict" | "onProgress">;
  /** Seed of the held-out split used for the stored evaluation. @default 1 */
  seed?: number;
  onProgress?: (p: TopicProgress) => void;
}

/** Result of {@link trainTopic}. */
export interface TrainTopicResult {
  topicId: number;
  modelVersion: number;
  samples: number;
  reviewSamples: number;
  labels: Record<string, number>;
  /** Held-out evaluation (10% of the samples, model trained on the rest); null under 20 samples. */
  evaluation: TopicEvaluation | null;
}

/** Label given to a post a reviewer dismissed (confirmed posts get the topic's first relevant label). */
export const DISMISSED_LABEL = "off-topic";

async function topicById(db: Db, topicId: number) {
  const topic = await db.topic.findUnique({ where: { id: topicId } });
  if (!topic) throw new TopicNotFoundError(`no topic with id ${topicId}`);
  return topic;
}

/**
 * Training samples from review decisions on the topic's flags: the latest decision per flag,
 * confirm → the topic's first relevant label, dismiss → {@link DISMISSED_LABEL}.
 */
export async function samplesFromReviews(db: Db, topicId: number): Promise<Sample[]> {
  const topic = await topicById(db, topicId);
  const onLabel = parseStringList(topic.relevantLabels)[0] ?? "on-topic";
  const reviews = await db.review.findMany({
    where: { flag: { topicId }, decision: { in: ["confirm", "dismiss"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { decision: true, flagId: true, flag: { select: { post: { select: { title: true, text: true, ocrText: true } } } } },
  });
  const seen = new Set<number>();
  const out: Sample[] = [];
  for (const r of reviews) {
    if (seen.has(r.flagId)) continue;
    seen.add(r.flagId);
    const text = postText(r.flag.post);
    if (text.trim() === "") continue;
    out.push({ text, label: r.decision === "confirm" ? onLabel : DISMISSED_LABEL });
  }
  return out;
}

const INSERT_CHUNK = 1000;

/**
 * Train a topic: its model is stored (JSON), `modelVersion` bumped, and an evaluation on a
 * held-out tenth stored with it. `samples` undefined means the topic's stored uploaded samples.
 * Stored posts are NOT re-scored here; call {@link rescoreTopic}.
 */
export async function trainTopic(
  db: Db,
  topicId: number,
  samples?: readonly Sample[],
  options: TrainTopicOptions = {},
): Promise<TrainTopicResult> {
  const progress = options.onProgress ?? (() => undefined);
  const topic = await topicById(db, topicId);
  const relevantLabels = [...(options.relevantLabels ?? parseStringList(topic.relevantLabels))];
  if (relevantLabels.length === 0) {
    throw new TrainingError(`topic "${topic.name}" has no relevant labels: say which sample labels are on-topic (--relevant)`, "noRelevantLabels");
  }
  const uploaded =
    samples ??
    (await db.topicSample.findMany({ where: { topicId, source: "upload" }, select: { text: true, label: true }, orderBy: { id: "asc" } }));
  const reviews = options.includeReviews === false ? [] : await samplesFromReviews(db, topicId);
  const all = [...uploaded, ...reviews];
  const labels: Record<string, number> = {};
  for (const s of all) labels[s.label] = (labels[s.label] ?? 0) + 1;

  checkTrainable(all, relevantLabels);
  await loadDictionary(db);
  const trainOptions: TrainOptions = {
    ...(options.model ?? {}),
    relevantLabels,
    userDict: parseStringList(topic.userDict),
    onProgress: (message) => progress({ phase: "train", message, step: "training", values: { samples: all.length } }),
  };
  // Segment once for both trainings (the dictionary is the union of all topics' words, loaded above).
  progress({ phase: "train", message: `segmenting ${all.length} samples`, step: "segmenting", values: { samples: all.length } });
  const prepared = all.map((s) => prepareText(s.text, trainOptions.segment));
  let evaluation: TopicEvaluation | null = null;
  if (all.length >= 20) {
    progress({ phase: "evaluate", message: "training on 90% of the samples to evaluate on the other 10%", step: "evaluating" });
    const split = splitRandom(
      all.map((_, i) => i),
      0.1,
      options.seed ?? 1,
    );
    // A held-out split can lose the only on-topic or off-topic samples of a tiny set: then there is
    // nothing meaningful to report, and the real training below gives the clear error if needed.
    try {
      const probe = trainPrepared(
        split.train.map((i) => all[i] as Sample),
        split.train.map((i) => prepared[i] as PreparedText),
        { ...trainOptions, onProgress: undefined },
      );
      evaluation = evaluateTopicModel(
        probe,
        split.test.map((i) => all[i] as Sample),
        { relevantLabels, nbThreshold: topic.nbThreshold, cosineThreshold: topic.cosineThreshold },
      );
    } catch (e) {
      if (!(e instanceof TrainingError)) throw e;
    }
  }
  const model = trainPrepared(all, prepared, trainOptions);
  progress({ phase: "store", message: `storing the model (${all.length} samples)`, step: "storing", values: { samples: all.length } });
  const json = JSON.stringify(model.toJSON());
  const updated = await db.$transaction(
    async (tx) => {
      if (samples && options.storeSamples !== false) {
        await tx.topicSample.deleteMany({ where: { topicId, source: "upload" } });
        for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
          await tx.topicSample.createMany({
            data: samples.slice(i, i + INSERT_CHUNK).map((s) => ({ topicId, text: s.text, label: s.label, source: "upload" })),
          });
        }
      }
      return tx.topic.update({
        where: { id: topicId },
        data: {
          model: json,
          modelVersion: { increment: 1 },
          trainedAt: new Date(),
          relevantLabels: JSON.stringify(relevantLabels),
          evaluation: evaluation ? JSON.stringify({ ...evaluation, evaluatedAt: new Date().toISOString() }) : null,
        },
        select: { modelVersion: true },
      });
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  return { topicId, modelVersion: updated.modelVersion, samples: all.length, reviewSamples: reviews.length, labels, evaluation };
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
    options.onProgress?.({ phase: "rescore", message: `topic "${topic.name}" is disabled: nothing re-scored`, step: "disabled", values: { name: topic.name }, done: 0, total });
    return result;
  }
  let cursor = 0;
  for (;;) {
    const ids = (
      await db.post.findMany({ where: { id: { gt: cursor } }, select: { id: true }, orderBy: { id: "asc" }, take: batchSize })
    ).map((p) => p.id);
    if (ids.length === 0) break;
    cursor = ids[ids.length - 1] as number;
    const r = await classifyPosts(db, ids, { topics: [topicId], batchSize });
    result.posts += r.posts;
    result.classifications += r.classifications;
    result.flagsOpened += r.flagsOpened;
    result.flagsUpdated += r.flagsUpdated;
    result.flagsClosed += r.flagsClosed;
    options.onProgress?.({ phase: "rescore", message: `re-scored ${result.posts}/${total} posts`, step: "rescoring", values: { done: result.posts, total }, done: result.posts, total });
  }
  return result;
}
