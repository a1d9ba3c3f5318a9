/**
 * Naive Bayes and NBSVM averaged in log-posterior space (see ./nbsvm): the best multi-class model
 * measured on the THUCNews titles.
 */
import type { PreparedText } from "./features";
import type { NaiveBayesOptions, NaiveBayesPrediction, NaiveBayesState } from "./naive-bayes-core";
import { NaiveBayes } from "./naive-bayes-model";
import { trainNaiveBayes } from "./naive-bayes-train";
import type { NbLogisticOptions, NbLogisticState } from "./nbsvm-features";
import { decide, logSoftmax, NbLogistic } from "./nbsvm-model";
import { trainNbLogistic } from "./nbsvm-train";

/** Options of {@link trainNbEnsemble}. */
export interface NbEnsembleOptions {
  /** The naive Bayes part. @default refined NB over words + character 1–3-grams */
  naiveBayes: Partial<NaiveBayesOptions>;
  /** The NBSVM part. @default DEFAULT_NB_LOGISTIC_OPTIONS */
  logistic: Partial<NbLogisticOptions>;
  /**
   * Share of the NBSVM log-posteriors: (1 − mix)·NB + mix·NBSVM. Validation (seeds 7/8/9): 0.6:
   * 90.73%, 0.7: 90.88%, 0.8: 91.00%, 0.9: 90.88% on average. @default 0.8
   */
  mix: number;
}

/** Defaults of {@link NbEnsembleOptions}. */
export const DEFAULT_NB_ENSEMBLE_OPTIONS: Readonly<NbEnsembleOptions> = {
  naiveBayes: { features: { words: true, charNgrams: [1, 2, 3] } },
  logistic: {},
  mix: 0.8,
};

/** The serialisable content of a trained {@link NbEnsemble}. */
export interface NbEnsembleState {
  mix: number;
  naiveBayes: NaiveBayesState;
  logistic: NbLogisticState;
}

/** Train naive Bayes and the NBSVM model on the same texts. */
export function trainNbEnsemble(texts: readonly PreparedText[], labels: readonly string[], options: Partial<NbEnsembleOptions> = {}): NbEnsembleState {
  const o = { ...DEFAULT_NB_ENSEMBLE_OPTIONS, ...options };
  return { mix: o.mix, naiveBayes: trainNaiveBayes(texts, labels, o.naiveBayes), logistic: trainNbLogistic(texts, labels, o.logistic) };
}

/** Naive Bayes and NBSVM averaged in log-posterior space. */
export class NbEnsemble {
  readonly classes: readonly string[];
  readonly naiveBayes: NaiveBayes;
  readonly logistic: NbLogistic;

  constructor(readonly state: NbEnsembleState) {
    this.naiveBayes = new NaiveBayes(state.naiveBayes);
    this.logistic = new NbLogistic(state.logistic);
    if (this.naiveBayes.classes.join("\n") !== this.logistic.classes.join("\n")) {
      throw new Error("ensemble state is inconsistent: the two models have different classes");
    }
    this.classes = this.naiveBayes.classes;
  }

  /** Classify a prepared text. */
  predict(text: PreparedText): NaiveBayesPrediction {
    const nb = logSoftmax(Float64Array.from(this.naiveBayes.scoreIds(this.naiveBayes.featureIds(text))));
    const lr = this.logistic.logPosteriors(text);
    const mix = this.state.mix;
    for (let c = 0; c < nb.length; c++) nb[c] = (1 - mix) * (nb[c] as number) + mix * (lr[c] as number);
    return decide(this.classes, nb);
  }
}
