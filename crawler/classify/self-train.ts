/**
 * Self-training on the topic's own crawled posts (issue 16, the review loop): a topic is trained on
 * uploaded samples of another source (news titles) and applied to campus posts, which read
 * differently. Measured on THUCNews titles → LilyBBS (`npm run bench:review-loop`), most of the
 * false positives are chatty posts ("吓死我了", "真的很寒心") that no news class resembles: the
 * colloquial words are commoner in sports titles than in finance or politics, so they push towards
 * on-topic. The crawled posts are in-domain and plentiful, only unlabelled: one round of hard EM
 * (Nigam et al. 2000; for exactly this transfer, Dai et al. 2007, "Transferring naive Bayes
 * classifiers for text classification") labels them with the model trained on the labelled samples
 * and trains again on both, so the off-topic class learns what campus chatter looks like.
 *
 * The rule, measured on the bench (README "Review loop"):
 * - a post is pseudo-labelled on-topic only when the first model is sure of it, P(on-topic) ≥
 *   {@link DEFAULT_PSEUDO_CONFIDENCE} (log-odds 6; log-odds 3 and 4 did worse, so did 2 pseudo
 *   weights), everything else off-topic: most posts are off any one topic, and a wrong on-topic
 *   pseudo-label teaches the topic the wrong thing;
 * - the pseudo-labelled posts weigh {@link PSEUDO_SHARE} of the uploaded samples together (10,000
 *   posts for 63,758 uploads: 5 each), and a topic of few uploads takes at most that many posts, so
 *   that a hand-made topic of 40 sentences is not swamped by the crawl;
 * - under {@link MIN_SELF_TRAIN_POSTS} unlabelled posts, nothing: a handful says nothing of the domain.
 *
 * The pseudo-labelled posts are fixed until the next full training, like the uploads: a review
 * folded in meanwhile (./model-fold.ts) adds to the same counts a full training on the same samples
 * would have. The topic vector and `samples` stay those of the labelled samples.
 */
import { DEFAULT_CLASSIFIER, type ClassifierKind } from "../../lib/classifiers";
import { prepareText, type PreparedText } from "./features";
import { TopicModel, trainPrepared, type Sample, type TrainOptions } from "./model";

/** P(on-topic) at or above which an unlabelled post is pseudo-labelled on-topic (log-odds 6). */
export const DEFAULT_PSEUDO_CONFIDENCE = 1 / (1 + Math.exp(-6));
/** The pseudo-labelled posts together weigh about this share of the uploaded samples. */
export const PSEUDO_SHARE = 0.8;
/**
 * The classifier kinds that self-train. Only `nb` was measured to gain (LilyBBS, seed 1: 68.94% →
 * 82.08% before any review). `nb-svm` lost (81.51% → 78.95%, recall 75% → 67%: its scores are less
 * extreme, so few posts reach the pseudo on-topic confidence) and ended lower after 300 reviews
 * (83.37% against 84.54% without); the other kinds were not measured, so they do not self-train.
 */
export const SELF_TRAIN_KINDS: readonly ClassifierKind[] = ["nb"];
/** Fewer unlabelled posts than this: no self-training. */
export const MIN_SELF_TRAIN_POSTS = 1000;
/** Crawled posts a full training pseudo-labels when CAMPUSWATCH_SELF_TRAIN_POSTS is not set. */
export const DEFAULT_SELF_TRAIN_POSTS = 10_000;
/** The label of an unlabelled post pseudo-labelled off-topic (the label a dismissed review gets). */
const PSEUDO_OFF_LABEL = "off-topic";

/** `CAMPUSWATCH_SELF_TRAIN_POSTS`: the newest crawled posts a full training pseudo-labels (0: off). */
export function selfTrainPostsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.CAMPUSWATCH_SELF_TRAIN_POSTS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_SELF_TRAIN_POSTS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`CAMPUSWATCH_SELF_TRAIN_POSTS must be an integer >= 0 (got ${JSON.stringify(raw)})`);
  return n;
}

/** Options of {@link selfTrainPrepared}. */
export interface SelfTrainOptions {
  /** Uploaded samples the topic is trained on (the pseudo weight is a share of them). */
  uploaded: number;
  /** @default DEFAULT_PSEUDO_CONFIDENCE */
  confidence?: number;
  /** @default PSEUDO_SHARE */
  share?: number;
  /** @default MIN_SELF_TRAIN_POSTS */
  minPosts?: number;
}

/** How the unlabelled posts were used. */
export interface SelfTrainStats {
  /** Unlabelled posts given. */
  offered: number;
  /** Posts pseudo-labelled and trained on (0: not self-trained). */
  used: number;
  /** Of them, pseudo-labelled on-topic. */
  onTopic: number;
  /** Samples each counted as. */
  weight: number;
}

/** How many posts to use and what each weighs: a {@link PSEUDO_SHARE} of the uploads in all. */
export function pseudoPlan(offered: number, uploaded: number, share = PSEUDO_SHARE, minPosts = MIN_SELF_TRAIN_POSTS): { used: number; weight: number } {
  if (offered < minPosts) return { used: 0, weight: 0 };
  const budget = Math.floor(share * uploaded);
  const used = Math.min(offered, budget);
  if (used === 0) return { used: 0, weight: 0 };
  return { used, weight: Math.max(1, Math.round(budget / used)) };
}

/**
 * {@link trainPrepared}, then one round of self-training on `unlabelled` posts (prepared the same
 * way; the newest first, as the pool is cut from the front): see the module comment. Without
 * relevant labels, with too few posts, or for a kind not in {@link SELF_TRAIN_KINDS}, the first
 * model is returned as it is. `pseudo`: the
 * posts trained on (their cleaned text) with the label each was given.
 */
export function selfTrainPrepared(
  samples: readonly Sample[],
  prepared: readonly PreparedText[],
  unlabelled: readonly PreparedText[],
  options: TrainOptions,
  self: SelfTrainOptions,
): { model: TopicModel; stats: SelfTrainStats; pseudo: Sample[] } {
  const first = trainPrepared(samples, prepared, options);
  const relevant = options.relevantLabels ?? [];
  const plan = pseudoPlan(unlabelled.length, self.uploaded, self.share, self.minPosts);
  const none = { model: first, stats: { offered: unlabelled.length, used: 0, onTopic: 0, weight: 0 }, pseudo: [] };
  if (relevant.length === 0 || plan.used === 0 || !SELF_TRAIN_KINDS.includes(options.classifier ?? DEFAULT_CLASSIFIER)) return none;
  const pool = unlabelled.slice(0, plan.used);
  const confidence = self.confidence ?? DEFAULT_PSEUDO_CONFIDENCE;
  const onLabel = relevant[0] as string;
  const pseudo: Sample[] = pool.map((p) => ({ text: p.cleaned, label: first.predictPrepared(p).score >= confidence ? onLabel : PSEUDO_OFF_LABEL }));
  const weights = options.sampleWeights ?? samples.map(() => 1);
  const second = trainPrepared([...samples, ...pseudo], [...prepared, ...pool], {
    ...options,
    vector: false,
    onProgress: undefined,
    sampleWeights: [...weights, ...pool.map(() => plan.weight)],
    // Pseudo labels are the model's own belief, not the platform's word: no in-domain copies for them.
    ...(options.inDomain ? { inDomain: [...options.inDomain, ...pool.map(() => false)] } : {}),
  });
  // The topic vector and the sample count describe the labelled samples, as without self-training.
  const json = first.toJSON();
  const model = new TopicModel({ ...second.toJSON(), trainedAt: json.trainedAt, samples: json.samples, vector: json.vector });
  const onTopic = pseudo.filter((s) => s.label === onLabel).length;
  return { model, stats: { offered: unlabelled.length, used: pool.length, onTopic, weight: plan.weight }, pseudo };
}

/** {@link selfTrainPrepared} on raw post texts (segmented with the options' segmentation). */
export function prepareUnlabelled(texts: readonly string[], options: Pick<TrainOptions, "segment">): PreparedText[] {
  return texts.map((t) => prepareText(t, options.segment));
}
