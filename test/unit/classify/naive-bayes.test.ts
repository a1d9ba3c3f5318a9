import { describe, expect, it } from "vitest";
import { chiSquare, NaiveBayes, prepareText, trainNaiveBayes, TrainingError, type NaiveBayesOptions } from "../../../crawler/classify";
import { CAMPUS_SAMPLES, UNSEEN_CASES } from "./fixtures";

const texts = CAMPUS_SAMPLES.map((s) => prepareText(s.text));
const labels = CAMPUS_SAMPLES.map((s) => s.label);

const CASES = UNSEEN_CASES;

const CONFIGS: [string, Partial<NaiveBayesOptions>][] = [
  ["plain multinomial, words only", { features: { words: true, charNgrams: [] }, refineEpochs: 0 }],
  ["words + character bigrams", { refineEpochs: 0 }],
  ["χ² weighting", { chi2Weighting: true, refineEpochs: 0 }],
  ["χ² selection of 300 features", { selectK: 300, refineEpochs: 0 }],
  ["complement naive Bayes", { complement: true }],
  ["refined weights (default)", {}],
  ["mixed with logistic regression", { linearMix: 0.7 }],
];

describe("naive Bayes", () => {
  it.each(CONFIGS)("%s predicts the topic of unseen sentences", (_name, options) => {
    const model = new NaiveBayes(trainNaiveBayes(texts, labels, options));
    for (const [text, label] of CASES) expect([text, model.predict(prepareText(text)).label]).toEqual([text, label]);
  });

  it("gives posteriors that sum to 1, in class order", () => {
    const model = new NaiveBayes(trainNaiveBayes(texts, labels));
    expect(model.classes).toEqual(["体育", "考试", "食堂"]);
    const p = model.predict(prepareText("高数考试的成绩出来了"));
    expect(p.posteriors.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p.posteriors[1]).toBeGreaterThan(0.9);
  });

  it("is deterministic: the same data and seed give the same model", () => {
    const a = trainNaiveBayes(texts, labels, { linearMix: 0.5 });
    const b = trainNaiveBayes(texts, labels, { linearMix: 0.5 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("χ² selection keeps only the requested number of features", () => {
    const state = trainNaiveBayes(texts, labels, { selectK: 50, refineEpochs: 0 });
    expect(state.words.length + state.grams.length).toBe(50);
  });

  it("refuses a single class with a clear message", () => {
    expect(() => trainNaiveBayes(texts.slice(0, 3), ["考试", "考试", "考试"])).toThrow(TrainingError);
    expect(() => trainNaiveBayes(texts.slice(0, 3), ["考试", "考试", "考试"])).toThrow(/at least two labels, got only "考试"/);
  });

  it("computes χ² of a 2×2 table", () => {
    // A feature in all 10 documents of the class and in none of the other 10: χ² = N = 20.
    expect(chiSquare(10, 0, 10, 20)).toBe(20);
    // Independent of the class: 0.
    expect(chiSquare(5, 5, 10, 20)).toBe(0);
  });
});
