/**
 * What each classifier kind (lib/classifiers.ts) of a topic model trains and how it scores: the
 * naive Bayes defaults of the kind, its linear part (the NBSVM regression of `nb-nbsvm`, the
 * linear SVM of `nb-svm`, none for `nb` and `nb-chi2`), and the compiled scorer ./model.ts calls.
 */
import type { ClassifierKind } from "../../lib/classifiers";
import { FusedEnsemble } from "./ensemble-model";
import type { PreparedText } from "./features";
import { NaiveBayes, type NaiveBayesOptions, type NaiveBayesPrediction, type NaiveBayesState, type TermWeight } from "./naive-bayes";
import { DEFAULT_NB_ENSEMBLE_OPTIONS, NbEnsemble, trainNbLogistic, type NbLogisticOptions, type NbLogisticState } from "./nbsvm";
import { trainLinearSvm, type LinearSvmOptions, type LinearSvmState } from "./svm-train";

/**
 * Share of the SVM's log-posteriors in `nb-svm`: (1 − mix)·NB + mix·SVM, the SVM's scores scaled
 * by its `scale` (4) before the softmax. THUCNews validation split (seed 7), 10 classes: mix 0.5–0.9
 * with scales 2–16 all gave 90.6–90.97% (NB alone 89.39%, the SVM alone 90.68%; all n-grams kept); 0.8 with scale 4
 * sits inside that plateau.
 */
export const NB_SVM_MIX = 0.8;

/** The naive Bayes defaults of each kind (before the caller's own options). */
export const KIND_NB_OPTIONS: Record<ClassifierKind, Partial<NaiveBayesOptions>> = {
  nb: {},
  // Weights start at χ² / mean χ² (to the power chi2Power), then the usual refinement.
  "nb-chi2": { chi2Weighting: true },
  // The ensemble's naive Bayes part sees character 1–3-grams, as measured in ./nbsvm-ensemble.
  "nb-nbsvm": DEFAULT_NB_ENSEMBLE_OPTIONS.naiveBayes,
  // Plain `nb`: with the SVM beside it, characters 1–3 in naive Bayes gained nothing (90.97 vs 90.94%).
  "nb-svm": {},
};

/** The linear part of a model and its share of the log-posteriors. */
export interface LinearPart {
  mix: number;
  state: NbLogisticState | LinearSvmState;
}

/** True when models of `kind` have a linear part. */
export function hasLinearPart(kind: ClassifierKind): boolean {
  return kind === "nb-nbsvm" || kind === "nb-svm";
}

/** Train the linear part of `kind` on the (weighted, label-collapsed) texts, or undefined for a kind without one. */
export function trainLinearPart(
  kind: ClassifierKind,
  texts: readonly PreparedText[],
  labels: readonly string[],
  options: { logistic?: Partial<NbLogisticOptions>; svm?: Partial<LinearSvmOptions> },
  inDomain?: readonly boolean[],
): LinearPart | undefined {
  if (kind === "nb-nbsvm") return { mix: DEFAULT_NB_ENSEMBLE_OPTIONS.mix, state: trainNbLogistic(texts, labels, options.logistic) };
  if (kind === "nb-svm") return { mix: NB_SVM_MIX, state: trainLinearSvm(texts, labels, options.svm, inDomain) };
  return undefined;
}

/** A compiled classifier: classes, a decision, and the terms behind the last decision. */
export interface Scorer {
  readonly classes: readonly string[];
  /** Classify a prepared text; {@link topTerms} then explains this text. */
  predict(text: PreparedText): NaiveBayesPrediction;
  /** The features of the last text predicted that most favour class `c` over `versus`. */
  topTerms(c: number, versus: number): TermWeight[];
}

/**
 * Compile naive Bayes and the linear part, if any. An ensemble is fused (./ensemble-model: one
 * feature lookup for both parts) unless its naive Bayes mixes in a regression of its own.
 */
export function compileScorer(naiveBayes: NaiveBayesState, linear: LinearPart | undefined): Scorer {
  if (linear && !naiveBayes.linear) return new FusedEnsemble(naiveBayes, linear.state, linear.mix);
  let ids: readonly number[] = [];
  if (linear) {
    const ens = new NbEnsemble({ mix: linear.mix, naiveBayes, logistic: linear.state as NbLogisticState });
    return {
      classes: ens.classes,
      predict: (text) => {
        const p = ens.predict(text);
        ids = ens.naiveBayes.featureIds(text);
        return p;
      },
      topTerms: (c, versus) => ens.naiveBayes.topTerms(ids, c, versus),
    };
  }
  const nb = new NaiveBayes(naiveBayes);
  return {
    classes: nb.classes,
    predict: (text) => nb.predictIds((ids = nb.featureIds(text))),
    topTerms: (c, versus) => nb.topTerms(ids, c, versus),
  };
}
