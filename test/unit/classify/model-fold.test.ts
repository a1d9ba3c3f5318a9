import { describe, expect, it } from "vitest";
import { train, TopicModel, type Sample, type TrainOptions } from "../../../crawler/classify/model";
import { FoldError, foldSamples } from "../../../crawler/classify/model-fold";
import type { NaiveBayesState } from "../../../crawler/classify/naive-bayes";
import { CAMPUS_SAMPLES } from "./fixtures";

// Every fifth sample arrives later, as reviews would; the rest trained the model.
const later = CAMPUS_SAMPLES.filter((_, i) => i % 5 === 0);
const first = CAMPUS_SAMPLES.filter((_, i) => i % 5 !== 0);
// Reviews bring text the model never saw: its new words and n-grams must land where a full training puts them.
const reviews: Sample[] = [...later, { text: "羽毛球馆周末对外开放预约", label: "体育" }, { text: "奶茶店新开了一家分店", label: "食堂" }];
const probes = ["期末考试的复习资料", "食堂的米饭太硬了", "篮球赛今晚开打", "羽毛球馆开放", "奶茶分店开业"];

/** The additive part of a naive Bayes state: what folding must reproduce exactly. */
const counted = (s: NaiveBayesState) => ({ classes: s.classes, classDocs: s.classDocs, words: s.words, grams: s.grams, counts: s.counts });

const folded = (options: TrainOptions) => foldSamples(train(first, options), reviews);
const full = (options: TrainOptions) => train([...first, ...reviews], options);

describe("folding samples into a trained model (incremental update)", () => {
  it("equals a full retrain on the same samples when weights stay uniform (nb, no refinement)", () => {
    const options: TrainOptions = { relevantLabels: ["体育"], naiveBayes: { refineEpochs: 0 } };
    const a = folded(options);
    const b = full(options);
    expect(a.toJSON().naiveBayes).toEqual(b.toJSON().naiveBayes);
    expect(a.toJSON().samples).toBe(b.toJSON().samples);
    for (const text of probes) expect(a.predict(text).score).toBeCloseTo(b.predict(text).score, 10);
  });

  it("with reviews weighing W > 1: equals a full retrain that weighs them the same, and one on W copies of each", () => {
    const W = 4;
    const options: TrainOptions = { relevantLabels: ["体育"], naiveBayes: { refineEpochs: 0 } };
    const a = foldSamples(train(first, options), reviews, W);
    const b = train([...first, ...reviews], { ...options, sampleWeights: [...first.map(() => 1), ...reviews.map(() => W)] });
    const copies = train([...first, ...reviews.flatMap((r) => Array.from({ length: W }, () => r))], options);
    expect(a.toJSON().naiveBayes).toEqual(b.toJSON().naiveBayes);
    expect(b.toJSON().naiveBayes).toEqual(copies.toJSON().naiveBayes);
    // Samples are counted once each; only the naive Bayes counts weigh them.
    expect(a.toJSON().samples).toBe(first.length + reviews.length);
    expect(b.toJSON().samples).toBe(first.length + reviews.length);
    for (const text of probes) expect(a.predict(text).score).toBeCloseTo(b.predict(text).score, 10);
    // The weight shows: the reviews' classes gained W documents each, not one.
    const once = foldSamples(train(first, options), reviews).toJSON().naiveBayes;
    const sum = (xs: number[]) => xs.reduce((p, q) => p + q, 0);
    expect(sum(a.toJSON().naiveBayes.classDocs) - sum(once.classDocs)).toBe((W - 1) * reviews.length);
  });

  for (const classifier of ["nb", "nb-chi2", "nb-nbsvm"] as const) {
    it(`${classifier}: with W > 1 the folded counts equal a weighted full retrain's`, () => {
      const W = 3;
      const options: TrainOptions = { relevantLabels: ["体育"], classifier };
      const a = foldSamples(train(first, options), reviews, W).toJSON().naiveBayes;
      const b = train([...first, ...reviews], { ...options, sampleWeights: [...first.map(() => 1), ...reviews.map(() => W)] }).toJSON().naiveBayes;
      expect(counted(a)).toEqual(counted(b));
    });
  }

  it("refuses a weight that is not an integer >= 1", () => {
    const trained = train(first, { relevantLabels: ["体育"] });
    expect(() => foldSamples(trained, reviews, 0)).toThrow(FoldError);
    expect(() => foldSamples(trained, reviews, 1.5)).toThrow(FoldError);
  });

  it("equals a full retrain on the original labels too (no collapsing)", () => {
    const options: TrainOptions = { collapseLabels: false, naiveBayes: { refineEpochs: 0 } };
    const a = folded(options);
    const b = full(options);
    expect(a.toJSON().naiveBayes).toEqual(b.toJSON().naiveBayes);
    for (const text of probes) {
      expect(a.predict(text).label).toBe(b.predict(text).label);
      expect(a.predict(text).score).toBeCloseTo(b.predict(text).score, 10);
    }
  });

  for (const classifier of ["nb", "nb-chi2"] as const) {
    it(`${classifier}: counts equal a full retrain's; refined weights are kept and new features weigh 1 until the next full retrain`, () => {
      const options: TrainOptions = { relevantLabels: ["体育"], classifier };
      const before = train(first, options).toJSON().naiveBayes;
      const a = folded(options).toJSON().naiveBayes;
      expect(counted(a)).toEqual(counted(full(options).toJSON().naiveBayes));
      const W = before.words.length;
      const addedWords = a.words.length - W;
      const oldWeights = [...a.weights.slice(0, W), ...a.weights.slice(W + addedWords, W + addedWords + before.grams.length)];
      expect(oldWeights).toEqual(before.weights);
      const newWeights = [...a.weights.slice(W, W + addedWords), ...a.weights.slice(W + addedWords + before.grams.length)];
      expect(newWeights.length).toBeGreaterThan(0);
      expect(newWeights.every((w) => w === 1)).toBe(true);
    });
  }

  it("nb-nbsvm: folds the naive Bayes part and keeps the regression, marked stale", () => {
    const options: TrainOptions = { relevantLabels: ["体育"], classifier: "nb-nbsvm" };
    const trained = train(first, options);
    const a = foldSamples(trained, reviews).toJSON();
    expect(counted(a.naiveBayes)).toEqual(counted(full(options).toJSON().naiveBayes));
    expect(a.logistic?.state).toEqual(trained.toJSON().logistic?.state);
    expect(a.logistic?.staleSamples).toBe(reviews.length);
    expect(a.folded).toBe(reviews.length);
  });

  it("a folded model survives its JSON and scores the same", () => {
    const a = folded({ relevantLabels: ["体育"] });
    const b = TopicModel.fromJSON(JSON.stringify(a.toJSON()));
    for (const text of probes) expect(b.predict(text).score).toBeCloseTo(a.predict(text).score, 12);
  });

  it("leaves the given model unchanged", () => {
    const trained = train(first, { relevantLabels: ["体育"] });
    const json = JSON.stringify(trained.toJSON());
    foldSamples(trained, reviews);
    expect(JSON.stringify(trained.toJSON())).toBe(json);
  });

  it("refuses a label the model has no class for, and a model with feature selection", () => {
    const multi = train(first, { collapseLabels: false });
    expect(() => foldSamples(multi, [{ text: "图书馆闭馆通知", label: "图书馆" }])).toThrow(FoldError);
    const selected = train(first, { relevantLabels: ["体育"], naiveBayes: { selectK: 50 } });
    expect(() => foldSamples(selected, reviews)).toThrow(/selectK/);
  });
});
