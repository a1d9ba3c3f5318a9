/**
 * A topic model: naive Bayes over the topic's labelled samples (alone, with χ² weighting, or
 * averaged with an NBSVM logistic regression or a linear SVM: the topic's classifier kind,
 * lib/classifiers.ts, ./model-kinds)
 * plus the topic's TF-IDF vector, with the user dictionary it was trained with. `train(samples) → model`,
 * `model.predict(text) → { label, score, cosine, topTerms }`, `toJSON()` / `TopicModel.fromJSON()`
 * with a format `version`: a model of another version is refused, never half-read.
 */
import { isClassifierKind, LEGACY_CLASSIFIER, type ClassifierKind } from "../../lib/classifiers";
import { prepareText, type PreparedText } from "./features";
import { compileScorer, hasLinearPart, KIND_NB_OPTIONS, trainLinearPart, type LinearPart, type Scorer } from "./model-kinds";
import { TrainingError, trainNaiveBayes, type NaiveBayesOptions, type NaiveBayesState, type TermWeight } from "./naive-bayes";
import type { NbLogisticOptions } from "./nbsvm";
import type { LinearSvmOptions } from "./svm-train";
import { repeatByWeight } from "./review-weight";
import { addUserWords, type SegmentOptions } from "./tokenizer";
import { buildTopicVectors, TopicVector, type TopicVectorOptions, type TopicVectorState } from "./vector-space";

/** Format version of {@link TopicModelJSON}; bump it whenever the JSON or its meaning changes. */
export const MODEL_FORMAT_VERSION = 1;
const MODEL_KIND = "campuswatch/topic-model";

/** A labelled text. */
export interface Sample {
  text: string;
  label: string;
}

/** Options of {@link train}. */
export interface TrainOptions {
  /**
   * Labels that count as on-topic. With them, `score` is P(on-topic) (the posteriors of these
   * labels summed) and the topic vector is built from their samples. Without them the model is a
   * plain multi-class classifier and `score` is the posterior of the predicted label.
   * @default []
   */
  relevantLabels?: readonly string[];
  /**
   * Train naive Bayes on two classes, on-topic and off-topic, instead of on the original labels
   * (only with relevant labels). Measured on 体育 vs the other nine THUCNews classes (validation
   * split): F1 94.6% against 94.0% keeping the ten labels, with a model less than half the size
   * and faster to score (two classes per feature instead of ten). @default true
   */
  collapseLabels?: boolean;
  /**
   * Which classifier to train (lib/classifiers.ts): each kind sets its own naive Bayes defaults,
   * which `naiveBayes` then overrides. Topics pass theirs (a new topic's is DEFAULT_CLASSIFIER).
   * @default LEGACY_CLASSIFIER ("nb", what every model was before the choice existed)
   */
  classifier?: ClassifierKind;
  /** Naive Bayes options. @default DEFAULT_NB_OPTIONS, or the classifier kind's */
  naiveBayes?: Partial<NaiveBayesOptions>;
  /** NBSVM options (classifier `nb-nbsvm` only). @default DEFAULT_NB_LOGISTIC_OPTIONS */
  logistic?: Partial<NbLogisticOptions>;
  /** Linear SVM options (classifier `nb-svm` only). @default DEFAULT_LINEAR_SVM_OPTIONS */
  svm?: Partial<LinearSvmOptions>;
  /** Topic vector options, or false for none. @default DEFAULT_VECTOR_OPTIONS (when relevantLabels are given) */
  vector?: Partial<TopicVectorOptions> | false;
  /** User-dictionary words the model needs (loaded into the segmenter before preparing samples). @default [] */
  userDict?: readonly string[];
  /** Segmentation options. @default {} */
  segment?: SegmentOptions;
  /**
   * How many samples each sample counts as in the naive Bayes and NBSVM parts (integers ≥ 1, one
   * per sample; reviews weigh more, ./review-weight.ts). The topic vector and `samples` count each once.
   * @default all 1
   */
  sampleWeights?: readonly number[];
  /**
   * Which samples come from the monitored platforms themselves (review samples), one per sample:
   * the linear SVM of `nb-svm` gives them feature copies of their own (./svm-train.ts). @default none
   */
  inDomain?: readonly boolean[];
  /** Progress messages (training steps). */
  onProgress?: (message: string) => void;
}

/** A stored model. */
export interface TopicModelJSON {
  kind: typeof MODEL_KIND;
  version: typeof MODEL_FORMAT_VERSION;
  trainedAt: string;
  samples: number;
  /** The sample labels that were counted as on-topic. */
  relevantLabels: string[];
  /** Naive Bayes was trained on "on-topic" / "off-topic" instead of the sample labels. */
  collapsed: boolean;
  /** The classifier kind; absent in models trained before the choice existed, which are "nb". */
  classifier?: ClassifierKind;
  /**
   * The linear part and its share of the log-posteriors: the NBSVM regression of an `nb-nbsvm`
   * model, the linear SVM of an `nb-svm` one; absent otherwise. `staleSamples`: samples folded into
   * the naive Bayes part since the linear part was trained (./model-fold.ts; the next full training
   * brings it up to date).
   */
  logistic?: LinearPart & { staleSamples?: number };
  /** Samples folded in since the last full training (./model-fold.ts); absent: none. */
  folded?: number;
  userDict: string[];
  segment: SegmentOptions;
  naiveBayes: NaiveBayesState;
  vector: TopicVectorState | null;
}

/** What a model says about one text. */
export interface Prediction {
  /** Most probable label of the naive Bayes classifier. */
  label: string;
  /** P(on-topic) when the model has relevant labels, else the posterior of `label`. */
  score: number;
  /** Cosine relevance to the topic vector (0 without one). */
  cosine: number;
  /** The terms that most supported the decision (on-topic vs off-topic, or label vs runner-up). */
  topTerms: TermWeight[];
}

/** A model JSON that cannot be used (wrong kind, other version, damaged). */
export class ModelFormatError extends Error {
  override name = "ModelFormatError";
}

/** The labels in `samples`, in sorted order, with their counts. */
export function labelCounts(samples: readonly Sample[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s.label, (counts.get(s.label) ?? 0) + 1);
  return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The collapsed naive Bayes classes. */
export const ON_TOPIC = "on-topic";
export const OFF_TOPIC = "off-topic";

/**
 * Why `samples` cannot train a model, as a {@link TrainingError}: fewer than two labels, or with
 * relevant labels, no on-topic or no off-topic sample. Cheap: call it before segmenting.
 * Returns the label counts.
 */
export function checkTrainable(samples: readonly Sample[], relevantLabels: readonly string[] = []): Map<string, number> {
  const counts = labelCounts(samples);
  if (counts.size < 2) {
    const only = [...counts.keys()][0];
    throw only === undefined
      ? new TrainingError("no training samples", "noSamples")
      : new TrainingError(
          `all ${samples.length} samples have the label "${only}"; training needs at least two labels (on-topic and off-topic examples)`,
          "oneLabel",
          { count: samples.length, label: only },
        );
  }
  if (relevantLabels.length > 0) {
    const on = samples.filter((s) => relevantLabels.includes(s.label)).length;
    if (on === 0) {
      throw new TrainingError(
        `no sample has a relevant label (${relevantLabels.join(", ")}); labels in the data: ${[...counts.keys()].join(", ")}`,
        "noRelevantSample",
        { relevant: relevantLabels.join(", "), found: [...counts.keys()].join(", ") },
      );
    }
    if (on === samples.length) {
      throw new TrainingError(`every sample is on-topic (${relevantLabels.join(", ")}); add off-topic examples`, "allOnTopic", {
        relevant: relevantLabels.join(", "),
      });
    }
  }
  return counts;
}

/**
 * Train a topic model. Refuses (with {@link TrainingError}) samples of a single label, and, with
 * relevant labels, samples that are all on-topic or all off-topic.
 */
export function train(samples: readonly Sample[], options: TrainOptions = {}): TopicModel {
  checkTrainable(samples, options.relevantLabels);
  addUserWords(options.userDict ?? []);
  options.onProgress?.(`segmenting ${samples.length} samples`);
  const segment = options.segment ?? {};
  return trainPrepared(
    samples,
    samples.map((s) => prepareText(s.text, segment)),
    options,
  );
}

/**
 * {@link train} on samples already prepared with `options.segment` and the user dictionary loaded
 * (callers that train twice on one data set segment it once).
 */
export function trainPrepared(samples: readonly Sample[], prepared: readonly PreparedText[], options: TrainOptions = {}): TopicModel {
  const relevant = [...new Set(options.relevantLabels ?? [])];
  const counts = checkTrainable(samples, relevant);
  const collapse = options.collapseLabels !== false && relevant.length > 0;
  const labels = samples.map((s) => (collapse ? (relevant.includes(s.label) ? ON_TOPIC : OFF_TOPIC) : s.label));
  options.onProgress?.(
    collapse
      ? `training naive Bayes: on-topic (${relevant.join(", ")}) vs off-topic, ${samples.length} samples`
      : `training naive Bayes on ${counts.size} labels, ${samples.length} samples`,
  );
  // Without a kind, the library trains what it always did; a topic passes its own (new topics: DEFAULT_CLASSIFIER).
  const kind = options.classifier ?? LEGACY_CLASSIFIER;
  // A sample of weight W is counted as W copies of it (counts are additive: ./model-fold.ts folds the same way).
  const w = options.sampleWeights;
  const texts = w ? repeatByWeight(prepared, w) : prepared;
  const classes = w ? repeatByWeight(labels, w) : labels;
  const nb = trainNaiveBayes(texts, classes, { ...KIND_NB_OPTIONS[kind], ...(options.naiveBayes ?? {}) });
  if (hasLinearPart(kind)) options.onProgress?.(kind === "nb-svm" ? "training the linear SVM" : "training the NBSVM logistic regression");
  const inDomain = options.inDomain && w ? repeatByWeight(options.inDomain, w) : options.inDomain;
  const logistic = trainLinearPart(kind, texts, classes, options, inDomain);
  let vector: TopicVectorState | null = null;
  if (relevant.length > 0 && options.vector !== false) {
    options.onProgress?.("building the topic vector");
    const on = samples.flatMap((s, i) => (relevant.includes(s.label) ? [i] : []));
    vector = buildTopicVectors(prepared, [on], options.vector || {})[0] ?? null;
  }
  return new TopicModel({
    kind: MODEL_KIND,
    version: MODEL_FORMAT_VERSION,
    trainedAt: new Date().toISOString(),
    samples: samples.length,
    relevantLabels: relevant,
    collapsed: collapse,
    classifier: kind,
    ...(logistic ? { logistic } : {}),
    userDict: [...new Set(options.userDict ?? [])],
    segment: { ...(options.segment ?? {}) },
    naiveBayes: nb,
    vector,
  });
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A trained topic model (compiled; cheap to call). */
export class TopicModel {
  /** Naive Bayes, fused with the linear part when the kind has one (./model-kinds). */
  private readonly scorer: Scorer;
  private readonly vector: TopicVector | null;
  /** Class index → counts as on-topic. */
  private readonly relevantMask: boolean[];
  private userWordsLoaded = false;

  constructor(private readonly json: TopicModelJSON) {
    this.scorer = compileScorer(json.naiveBayes, json.logistic);
    this.vector = json.vector ? new TopicVector(json.vector) : null;
    this.relevantMask = this.scorer.classes.map((c) => (json.collapsed ? c === ON_TOPIC : json.relevantLabels.includes(c)));
  }

  /**
   * Read a stored model (JSON text or parsed). Throws {@link ModelFormatError} for anything but a
   * topic model of {@link MODEL_FORMAT_VERSION}, naming the version found.
   */
  static fromJSON(input: unknown): TopicModel {
    let data: unknown = input;
    if (typeof input === "string") {
      try {
        data = JSON.parse(input);
      } catch (e) {
        throw new ModelFormatError(`model is not valid JSON: ${(e as Error).message}`);
      }
    }
    if (!isRecord(data) || data.kind !== MODEL_KIND) throw new ModelFormatError("not a CampusWatch topic model (kind is missing or wrong)");
    if (data.version !== MODEL_FORMAT_VERSION) {
      throw new ModelFormatError(
        `topic model format version ${JSON.stringify(data.version)} is not supported (this CampusWatch reads version ${MODEL_FORMAT_VERSION}); retrain the topic`,
      );
    }
    const nb = data.naiveBayes;
    if (
      !isRecord(nb) ||
      !Array.isArray(nb.classes) ||
      !Array.isArray(nb.words) ||
      !Array.isArray(nb.grams) ||
      !Array.isArray(nb.counts) ||
      !Array.isArray(nb.weights) ||
      !Array.isArray(nb.classDocs) ||
      !isRecord(nb.options) ||
      !Array.isArray(data.relevantLabels) ||
      typeof data.collapsed !== "boolean" ||
      !Array.isArray(data.userDict)
    ) {
      throw new ModelFormatError("topic model is damaged: naive Bayes part or label lists missing");
    }
    if (data.classifier !== undefined && !isClassifierKind(data.classifier)) {
      throw new ModelFormatError(`topic model has an unknown classifier ${JSON.stringify(data.classifier)}; retrain the topic`);
    }
    const lr = data.logistic;
    if (hasLinearPart(isClassifierKind(data.classifier) ? data.classifier : LEGACY_CLASSIFIER) !== (lr !== undefined)) {
      throw new ModelFormatError("topic model is damaged: the NBSVM part does not match the classifier kind");
    }
    if (lr !== undefined && (!isRecord(lr) || typeof lr.mix !== "number" || !isRecord(lr.state) || !Array.isArray(lr.state.weights))) {
      throw new ModelFormatError("topic model is damaged: NBSVM part missing");
    }
    try {
      return new TopicModel(data as unknown as TopicModelJSON);
    } catch (e) {
      throw new ModelFormatError(`topic model is damaged: ${(e as Error).message}`);
    }
  }

  /** The stored form (plain data; `JSON.stringify` it). */
  toJSON(): TopicModelJSON {
    return this.json;
  }

  /** The classifier kind (a model trained before the choice existed is "nb"). */
  get classifier(): ClassifierKind {
    return this.json.classifier ?? LEGACY_CLASSIFIER;
  }

  /** Classes of the naive Bayes part. */
  get classes(): readonly string[] {
    return this.scorer.classes;
  }

  /** Labels counted as on-topic. */
  get relevantLabels(): readonly string[] {
    return this.json.relevantLabels;
  }

  /** True when the model has a topic vector. */
  get hasVector(): boolean {
    return this.vector !== null;
  }

  /** The user-dictionary words the model was trained with. */
  get userDict(): readonly string[] {
    return this.json.userDict;
  }

  /** Clean and segment a text the way this model was trained (its user words loaded first). */
  prepare(text: string): PreparedText {
    if (!this.userWordsLoaded) {
      addUserWords(this.json.userDict);
      this.userWordsLoaded = true;
    }
    return prepareText(text, this.json.segment);
  }

  /** Classify raw text (HTML allowed). */
  predict(text: string): Prediction {
    return this.predictPrepared(this.prepare(text));
  }

  /** Classify a text already prepared (cleaned + segmented once for all topics). */
  predictPrepared(text: PreparedText): Prediction {
    const p = this.scorer.predict(text);
    const cosine = this.vector ? this.vector.cosine(text) : 0;
    const post = p.posteriors;
    let score: number;
    let forClass = p.classIndex;
    let versus: number;
    if (this.json.relevantLabels.length > 0) {
      // Contrast the best on-topic class with the best off-topic one, whichever way it went.
      let bestOn = -1;
      let bestOff = -1;
      score = 0;
      for (let c = 0; c < post.length; c++) {
        if (this.relevantMask[c]) {
          score += post[c] as number;
          if (bestOn < 0 || (post[c] as number) > (post[bestOn] as number)) bestOn = c;
        } else if (bestOff < 0 || (post[c] as number) > (post[bestOff] as number)) bestOff = c;
      }
      const on = this.relevantMask[p.classIndex] === true;
      forClass = on ? bestOn : bestOff;
      versus = on ? bestOff : bestOn;
    } else {
      score = post[p.classIndex] as number;
      versus = -1;
      for (let c = 0; c < post.length; c++) {
        if (c !== p.classIndex && (versus < 0 || (post[c] as number) > (post[versus] as number))) versus = c;
      }
    }
    const topTerms = versus >= 0 ? this.scorer.topTerms(forClass, versus) : [];
    return { label: p.label, score, cosine, topTerms };
  }
}
