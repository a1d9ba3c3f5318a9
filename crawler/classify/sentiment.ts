/**
 * Sentiment of a post (负面 negative / 中性 neutral / 正面 positive), stored as Post.sentiment with
 * its P(negative) in Post.sentimentScore.
 *
 * Two scorers, one decision rule:
 * - a **trained model**: the topic classifier (./model.ts, kind `nb-svm`: naive Bayes averaged with
 *   a linear SVM) trained on a positive/negative corpus with "negative" as the relevant label, so
 *   its score is P(negative). `campuswatch sentiment train` trains it from the shared Weibo
 *   sentiment corpus (read where it lies, never copied) and writes only the derived weights to
 *   {@link sentimentModelPath}; the corpus text is not in the file's vocabulary order or anywhere
 *   else recoverable as posts. Stickers are kept as words ({@link stickersAsWords}).
 * - the **built-in lexicon** (./sentiment-lexicon.ts) while no model file is installed.
 *
 * The corpus has two classes only, so "neutral" is the model's band of doubt: a post is negative
 * when P(negative) > band.high, positive when P(negative) < band.low, neutral in between. The band
 * is calibrated on held-out data at training: each edge is the threshold nearest 0.5 at which the
 * held-out posts beyond it are that class with precision ≥ {@link BAND_PRECISION}.
 */
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../../lib/config";
import type { Sentiment } from "../../lib/sentiments";
import { fitPlatt } from "./calibrate";
import { train, TopicModel, type Sample, type TopicModelJSON } from "./model";
import { splitRandom } from "./random";
import { prepareTexts } from "./segment-thread";
import { SentimentLexicon } from "./sentiment-lexicon";
import { cleanText, stickersAsWords } from "./text-clean";

export { SENTIMENTS, isSentiment, type Sentiment } from "../../lib/sentiments";

/** The neutral band on P(negative): below `low` positive, above `high` negative. */
export interface SentimentBand {
  low: number;
  high: number;
}

/** The lexicon's band: one sentiment word decides (P 0.33 or 0.67); an even mix is neutral. */
export const LEXICON_BAND: Readonly<SentimentBand> = Object.freeze({ low: 0.4, high: 0.6 });

/** Held-out precision each side of the band must reach (see the module comment). */
export const BAND_PRECISION = 0.95;

/** The file name of the shared corpus the model trains on. */
export const SENTIMENT_CORPUS_FILE = "weibo-senti-subset.jsonl";

/** The decision rule: P(negative) and the band → a sentiment. */
export function sentimentOf(pNegative: number, band: SentimentBand): Sentiment {
  if (pNegative > band.high) return "negative";
  if (pNegative < band.low) return "positive";
  return "neutral";
}

/** One post's sentiment. */
export interface SentimentJudgement {
  sentiment: Sentiment;
  /** P(negative), in [0, 1]. */
  score: number;
}

/** Scores texts (title + body + OCR, raw). */
export interface SentimentScorer {
  readonly source: "model" | "lexicon";
  readonly band: SentimentBand;
  judge(texts: readonly string[]): Promise<SentimentJudgement[]>;
}

const lexicon = new SentimentLexicon();

/** The lexicon fallback as a scorer (no jieba: it reads the cleaned text). */
export class LexiconScorer implements SentimentScorer {
  readonly source = "lexicon" as const;
  readonly band = LEXICON_BAND;
  judge(texts: readonly string[]): Promise<SentimentJudgement[]> {
    return Promise.resolve(texts.map((t) => this.judgeOne(t)));
  }

  /** Synchronous form of {@link judge} for one text. */
  judgeOne(text: string): SentimentJudgement {
    const score = lexicon.score(cleanText(stickersAsWords(text))).pNegative;
    return { sentiment: sentimentOf(score, this.band), score };
  }
}

const lexiconScorer = new LexiconScorer();
const MODEL_KIND = "campuswatch/sentiment-model";
const MODEL_VERSION = 1;

/** Held-out figures of a trained model. */
export interface SentimentHeldOut {
  samples: number;
  /** Accuracy of the two-way decision at P(negative) 0.5. */
  accuracy: number;
  /** Share of held-out posts inside the neutral band. */
  neutralShare: number;
  /** Accuracy on the held-out posts outside the band. */
  decidedAccuracy: number;
}

/** A stored sentiment model: derived weights, the band and the figures that justify it. */
export interface SentimentModelJSON {
  kind: typeof MODEL_KIND;
  version: typeof MODEL_VERSION;
  trainedAt: string;
  /** What it was trained on: a file name and sample counts, never text. */
  corpus: { file: string; samples: number; trainSamples: number };
  band: SentimentBand;
  /**
   * P(negative) = σ(a·z + b) with z = logit(classifier) + lexiconWeight·logit(lexicon), a and b
   * fitted on the held-out part (Platt scaling, ./calibrate.ts). Why: naive Bayes and the SVM are
   * sure of nearly everything (held-out scores sit at 0 or 1), so a band on the raw score would
   * never say neutral; and the corpus is Weibo chatter, so the project's lexicon adds the campus
   * complaint words it lacks (it moves only posts the classifier is unsure of).
   */
  calibration: { a: number; b: number; lexiconWeight: number };
  heldOut: SentimentHeldOut;
  model: TopicModelJSON;
}

/** A sentiment model file that cannot be used. */
export class SentimentModelError extends Error {
  override name = "SentimentModelError";
}

/** A trained sentiment model. */
export class SentimentModel implements SentimentScorer {
  readonly source = "model" as const;
  readonly band: SentimentBand;
  private readonly model: TopicModel;

  constructor(readonly json: SentimentModelJSON) {
    this.band = json.band;
    this.model = new TopicModel(json.model);
  }

  /** Read a stored model (JSON text or parsed); anything else is a {@link SentimentModelError}. */
  static fromJSON(input: unknown): SentimentModel {
    let data: unknown = input;
    if (typeof input === "string") {
      try {
        data = JSON.parse(input);
      } catch (e) {
        throw new SentimentModelError(`sentiment model is not valid JSON: ${(e as Error).message}`);
      }
    }
    const d = data as Partial<SentimentModelJSON> | null;
    if (typeof d !== "object" || d === null || d.kind !== MODEL_KIND) throw new SentimentModelError("not a CampusWatch sentiment model");
    if (d.version !== MODEL_VERSION) throw new SentimentModelError(`sentiment model version ${JSON.stringify(d.version)} is not supported; train it again`);
    const b = d.band;
    if (!b || !(b.low >= 0 && b.low <= b.high && b.high <= 1)) throw new SentimentModelError("sentiment model is damaged: no valid band");
    const c = d.calibration;
    if (!c || ![c.a, c.b, c.lexiconWeight].every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw new SentimentModelError("sentiment model is damaged: no calibration");
    }
    try {
      // TopicModel.fromJSON checks the classifier part.
      TopicModel.fromJSON(d.model);
    } catch (e) {
      throw new SentimentModelError(`sentiment model is damaged: ${(e as Error).message}`);
    }
    return new SentimentModel(d as SentimentModelJSON);
  }

  /** Calibrated P(negative) of each text, segmented once (on the jieba thread when it is on). */
  async scores(texts: readonly string[]): Promise<number[]> {
    const prepared = await prepareTexts(
      texts.map((t) => stickersAsWords(t)),
      this.json.model.segment,
    );
    const { a, b, lexiconWeight } = this.json.calibration;
    return prepared.map((p) => sigmoid(a * combinedLogit(this.model.predictPrepared(p).score, lexicon.score(p.cleaned).pNegative, lexiconWeight) + b));
  }

  async judge(texts: readonly string[]): Promise<SentimentJudgement[]> {
    return (await this.scores(texts)).map((score) => ({ score, sentiment: sentimentOf(score, this.band) }));
  }
}

/**
 * Weight of the lexicon's log-odds beside the classifier's. One lexicon word then adds 3·ln 2 ≈ 2
 * to log-odds that run to ±20: it decides only where the classifier is unsure. Measured on the
 * held-out fifth: accuracy 94.2% with it, 94.8% without, and sentiment-free notices ("课程安排通知")
 * land in the neutral band instead of reading as positive.
 */
const LEXICON_WEIGHT = 3;

function logit(p: number): number {
  const c = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(c / (1 - c));
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function combinedLogit(pModel: number, pLexicon: number, weight: number): number {
  return logit(pModel) + weight * logit(pLexicon);
}

/** Options of {@link trainSentiment}. */
export interface SentimentTrainOptions {
  /** Share of the samples held out to calibrate the band and report accuracy. @default 0.2 */
  heldOutFraction?: number;
  /** Split seed. @default 20261203 */
  seed?: number;
  /** The corpus file name recorded in the model. @default SENTIMENT_CORPUS_FILE */
  corpusFile?: string;
  /** The clock (tests). */
  now?: Date;
}

/**
 * Train a sentiment model on positive/negative samples: the classifier on the training part, the
 * band and the reported figures on the held-out part (so the figures are those of the stored model).
 * Labels other than "positive" and "negative" are refused.
 */
export function trainSentiment(samples: readonly Sample[], options: SentimentTrainOptions = {}): SentimentModel {
  const bad = samples.find((s) => s.label !== "positive" && s.label !== "negative");
  if (bad) throw new SentimentModelError(`sentiment samples are labelled "positive" or "negative", not ${JSON.stringify(bad.label)}`);
  const { train: trainPart, test: heldOut } = splitRandom(samples, options.heldOutFraction ?? 0.2, options.seed ?? 20261203);
  if (heldOut.length < 10 || !heldOut.some((s) => s.label === "negative") || !heldOut.some((s) => s.label === "positive")) {
    throw new SentimentModelError(`too few samples to hold out both classes (${samples.length} given)`);
  }
  const topicModel = train(
    trainPart.map((s) => ({ label: s.label, text: stickersAsWords(s.text) })),
    { relevantLabels: ["negative"], classifier: "nb-svm", vector: false },
  );
  const negative = heldOut.map((s) => s.label === "negative");
  const z = heldOut.map((s) => {
    const p = topicModel.prepare(stickersAsWords(s.text));
    return combinedLogit(topicModel.predictPrepared(p).score, lexicon.score(p.cleaned).pNegative, LEXICON_WEIGHT);
  });
  const { a, b } = fitPlatt(z.map((zi, i) => ({ score: sigmoid(zi), relevant: negative[i] === true })));
  const scores = z.map((zi) => sigmoid(a * zi + b));
  const band = calibrateBand(scores, negative, BAND_PRECISION);
  return new SentimentModel({
    kind: MODEL_KIND,
    version: MODEL_VERSION,
    trainedAt: (options.now ?? new Date()).toISOString(),
    corpus: { file: options.corpusFile ?? SENTIMENT_CORPUS_FILE, samples: samples.length, trainSamples: trainPart.length },
    band,
    calibration: { a, b, lexiconWeight: LEXICON_WEIGHT },
    heldOut: heldOutFigures(scores, negative, band),
    model: topicModel.toJSON(),
  });
}

/**
 * The neutral band: the narrowest symmetric band [1 − c, c] (c = 0.5, 0.55, …, 0.95) outside which
 * the held-out posts are called right with accuracy ≥ `precision`; c = 0.95 when none reaches it.
 */
export function calibrateBand(scores: readonly number[], negative: readonly boolean[], precision: number): SentimentBand {
  for (let step = 0; step <= 9; step++) {
    const c = 0.5 + step * 0.05;
    const band = { low: round(1 - c), high: round(c) };
    const f = heldOutFigures(scores, negative, band);
    if (f.neutralShare < 1 && f.decidedAccuracy >= precision) return band;
  }
  return { low: 0.05, high: 0.95 };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Accuracy, neutral share and accuracy outside the band, of held-out scores. */
export function heldOutFigures(scores: readonly number[], negative: readonly boolean[], band: SentimentBand): SentimentHeldOut {
  let right = 0;
  let decided = 0;
  let decidedRight = 0;
  scores.forEach((s, i) => {
    const neg = negative[i] === true;
    if (s >= 0.5 === neg) right++;
    const sentiment = sentimentOf(s, band);
    if (sentiment === "neutral") return;
    decided++;
    if ((sentiment === "negative") === neg) decidedRight++;
  });
  const n = scores.length;
  return { samples: n, accuracy: n ? right / n : 0, neutralShare: n ? (n - decided) / n : 0, decidedAccuracy: decided ? decidedRight / decided : 0 };
}

/** The shared corpus folder: CAMPUSWATCH_CORPUS_DIR, else ../shared/corpus from the working directory. */
export function corpusDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.CAMPUSWATCH_CORPUS_DIR?.trim() || "../shared/corpus");
}

/**
 * Where the trained model lives: CAMPUSWATCH_SENTIMENT_MODEL, else `sentiment-model.json` in the
 * data directory. The value `lexicon` forces the built-in lexicon (tests, or to switch a model off).
 */
export function sentimentModelPath(): string | null {
  const set = process.env.CAMPUSWATCH_SENTIMENT_MODEL?.trim();
  if (set === "lexicon") return null;
  return path.resolve(/*turbopackIgnore: true*/ set || path.join(dataDir(), "sentiment-model.json"));
}

/** Read `{label, text}` JSON lines (the shared corpus's shape); lines that are not are skipped and counted. */
export function readSentimentSamples(file: string): { samples: Sample[]; skipped: number } {
  const samples: Sample[] = [];
  let skipped = 0;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as { label?: unknown; text?: unknown };
      if ((r.label === "positive" || r.label === "negative") && typeof r.text === "string") samples.push({ label: r.label, text: r.text });
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { samples, skipped };
}

let cached: { key: string; scorer: SentimentScorer; problem: string | null } | null = null;

/**
 * The scorer classification uses: the installed model, else the lexicon. Cached by the file's path
 * and modification time, so `sentiment train` takes effect at the next batch without a restart. A
 * damaged file is not fatal (the crawl goes on with the lexicon); {@link sentimentStatus} says why.
 */
export function sentimentScorer(): SentimentScorer {
  return loadScorer().scorer;
}

/** Which scorer is in use and, when a model file exists but cannot be read, why. */
export function sentimentStatus(): { source: "model" | "lexicon"; path: string | null; problem: string | null; heldOut: SentimentHeldOut | null } {
  const { scorer, problem } = loadScorer();
  return { source: scorer.source, path: sentimentModelPath(), problem, heldOut: scorer instanceof SentimentModel ? scorer.json.heldOut : null };
}

function loadScorer(): { scorer: SentimentScorer; problem: string | null } {
  const file = sentimentModelPath();
  let mtime = 0;
  if (file) {
    try {
      mtime = fs.statSync(file).mtimeMs;
    } catch {
      mtime = -1;
    }
  }
  const key = `${file ?? "lexicon"}:${mtime}`;
  if (cached?.key === key) return cached;
  let scorer: SentimentScorer = lexiconScorer;
  let problem: string | null = null;
  if (file && mtime >= 0) {
    try {
      scorer = SentimentModel.fromJSON(fs.readFileSync(file, "utf8"));
    } catch (e) {
      problem = `${file}: ${(e as Error).message}`;
    }
  }
  cached = { key, scorer, problem };
  return cached;
}

/** Write a trained model to `file` (atomically: a crawl reading it never sees half a file). */
export function saveSentimentModel(model: SentimentModel, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(model.json));
  fs.renameSync(tmp, file);
}
