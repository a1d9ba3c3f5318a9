/**
 * Evaluating a topic model's on-topic decision on labelled samples, with the relevance rule the
 * topic service uses for flags (./relevance-rule).
 */
import { binaryMetrics, type BinaryMetrics } from "./metrics";
import type { Sample, TopicModel } from "./model";
import { relevanceDecision, type RelevanceThresholds } from "./relevance-rule";

/** Thresholds and labels of an evaluation. */
export interface EvaluateOptions extends RelevanceThresholds {
  /** Labels of the samples that count as on-topic. */
  relevantLabels: readonly string[];
}

/** Figures of one evaluation. */
export interface TopicEvaluation {
  samples: number;
  onTopic: number;
  nbThreshold: number;
  cosineThreshold: number;
  /** Naive Bayes decision: score ≥ nbThreshold. */
  classifier: BinaryMetrics;
  /** Vector-space decision alone: cosine ≥ cosineThreshold (null without a topic vector). */
  cosine: BinaryMetrics | null;
  /** What flags a post for relevance: classifier OR cosine decision. */
  flagged: BinaryMetrics;
  /** Texts classified per second (clean + segment + classify), one core. */
  docsPerSecond: number;
}

/** Classify every sample and compare the on-topic decisions with the samples' labels. */
export function evaluateTopicModel(model: TopicModel, samples: readonly Sample[], options: EvaluateOptions): TopicEvaluation {
  const relevant = new Set(options.relevantLabels);
  const actual: boolean[] = [];
  const byClassifier: boolean[] = [];
  const byCosine: boolean[] = [];
  const flagged: boolean[] = [];
  // Warm up (first use loads jieba's dictionary, about a second, and the JIT compiles the hot
  // path) so docs/second is the steady rate a crawler sees.
  for (const s of samples.slice(0, 200)) model.predict(s.text);
  const started = process.hrtime.bigint();
  for (const s of samples) {
    const p = model.predict(s.text);
    actual.push(relevant.has(s.label));
    const d = relevanceDecision({ score: p.score, cosine: p.cosine, hasVector: model.hasVector }, options);
    byClassifier.push(d.byClassifier);
    byCosine.push(d.byCosine);
    flagged.push(d.relevant);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    samples: samples.length,
    onTopic: actual.filter(Boolean).length,
    nbThreshold: options.nbThreshold,
    cosineThreshold: options.cosineThreshold,
    classifier: binaryMetrics(actual, byClassifier),
    cosine: model.hasVector ? binaryMetrics(actual, byCosine) : null,
    flagged: binaryMetrics(actual, flagged),
    docsPerSecond: seconds > 0 ? samples.length / seconds : 0,
  };
}
