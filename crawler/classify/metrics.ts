/**
 * Evaluation figures for classifiers: multi-class accuracy and macro-F1, and precision/recall/F1
 * of a binary on-topic decision.
 */

/** Figures of a binary decision (positive = on-topic). */
export interface BinaryMetrics {
  total: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall, F1 and accuracy of predicted vs actual booleans. An empty denominator gives 0. */
export function binaryMetrics(actual: readonly boolean[], predicted: readonly boolean[]): BinaryMetrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i];
    const p = predicted[i];
    if (a && p) tp++;
    else if (!a && p) fp++;
    else if (a && !p) fn++;
    else tn++;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const total = actual.length;
  return {
    total,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    accuracy: total > 0 ? (tp + tn) / total : 0,
    precision,
    recall,
    f1,
  };
}

/** Multi-class figures. */
export interface MultiClassMetrics {
  total: number;
  accuracy: number;
  /** Unweighted mean over the actual classes of each class's F1. */
  macroF1: number;
  perClass: Record<string, { precision: number; recall: number; f1: number; support: number }>;
}

/** Accuracy and macro-F1 of predicted vs actual labels. */
export function multiClassMetrics(actual: readonly string[], predicted: readonly string[]): MultiClassMetrics {
  const labels = [...new Set(actual)].sort();
  const perClass: MultiClassMetrics["perClass"] = {};
  let correct = 0;
  for (let i = 0; i < actual.length; i++) if (actual[i] === predicted[i]) correct++;
  let f1Sum = 0;
  for (const label of labels) {
    const m = binaryMetrics(
      actual.map((a) => a === label),
      predicted.map((p) => p === label),
    );
    perClass[label] = { precision: m.precision, recall: m.recall, f1: m.f1, support: m.truePositives + m.falseNegatives };
    f1Sum += m.f1;
  }
  return {
    total: actual.length,
    accuracy: actual.length > 0 ? correct / actual.length : 0,
    macroF1: labels.length > 0 ? f1Sum / labels.length : 0,
    perClass,
  };
}
