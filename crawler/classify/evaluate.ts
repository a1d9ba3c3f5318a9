/**
 * Evaluating a topic model's on-topic decision on labelled samples, with the decision rules the
 * topic service uses for flags.
 */
import { binaryMetrics, type BinaryMetrics } from "./metrics";
import type { Sample, TopicModel } from "./model";

/** Thresholds and labels of an evaluation. */
export interface EvaluateOptions {
  /** Labels of the samples that count as on-topic. */
  relevantLabels: readonly string[];
  /** Classifier decision: P(on-topic) ≥ this. */
  nbThreshold: number;
  /** Vector decision: cosine ≥ this. */
  cosineThreshold: number;
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
  // Warm up (first use loads jieba's dictionary, about a second, and the JIT compiles the hot
  // path) so docs/second is the steady rate a crawler sees.
  for (const s of samples.slice(0, 200)) model.predict(s.text);
  const started = process.hrtime.bigint();
  for (const s of samples) {
    const p = model.predict(s.text);
    actual.push(relevant.has(s.label));
    byClassifier.push(p.score >= options.nbThreshold);
    byCosine.push(model.hasVector && p.cosine >= options.cosineThreshold);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    samples: samples.length,
    onTopic: actual.filter(Boolean).length,
    nbThreshold: options.nbThreshold,
    cosineThreshold: options.cosineThreshold,
    classifier: binaryMetrics(actual, byClassifier),
    cosine: model.hasVector ? binaryMetrics(actual, byCosine) : null,
    flagged: binaryMetrics(
      actual,
      byClassifier.map((b, i) => b || (byCosine[i] as boolean)),
    ),
    docsPerSecond: seconds > 0 ? samples.length / seconds : 0,
  };
}
