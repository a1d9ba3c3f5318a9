import { describe, expect, it } from "vitest";
import { NbEnsemble, NbLogistic, prepareText, trainNbEnsemble, trainNbLogistic, TrainingError, type NbLogisticOptions } from "../../../crawler/classify";
import { CAMPUS_SAMPLES, UNSEEN_CASES } from "./fixtures";

const texts = CAMPUS_SAMPLES.map((s) => prepareText(s.text));
const labels = CAMPUS_SAMPLES.map((s) => s.label);

const CASES = UNSEEN_CASES;

// 48 training sentences: features seen once must be kept, or little is left to learn from.
const SMALL: Partial<NbLogisticOptions> = { minCount: 1 };

describe("NBSVM (log-count-ratio logistic regression)", () => {
  it.each([
    ["all features", SMALL],
    ["words and word bigrams only", { ...SMALL, charNgrams: [] }],
    ["character 1–3-grams only", { ...SMALL, words: false, wordBigrams: false }],
  ] as [string, Partial<NbLogisticOptions>][])("%s: predicts the topic of unseen sentences", (_name, options) => {
    const model = new NbLogistic(trainNbLogistic(texts, labels, options));
    for (const [text, label] of CASES) expect([text, model.predict(prepareText(text)).label]).toEqual([text, label]);
  });

  it("gives posteriors that sum to 1, in class order", () => {
    const model = new NbLogistic(trainNbLogistic(texts, labels, SMALL));
    expect(model.classes).toEqual(["体育", "考试", "食堂"]);
    const p = model.predict(prepareText("高数考试的成绩出来了"));
    expect(p.posteriors.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p.classIndex).toBe(1);
    expect(p.posteriors[1]).toBeGreaterThan(0.5);
  });

  it("keeps word bigrams as features and drops rare features with minCount", () => {
    const all = trainNbLogistic(texts, labels, SMALL);
    expect(all.pairs.length).toBeGreaterThan(0);
    expect(all.pairs.every((p) => p.length === 2)).toBe(true);
    const pruned = trainNbLogistic(texts, labels, { minCount: 2 });
    expect(pruned.words.length + pruned.pairs.length + pruned.grams.length).toBeLessThan(all.words.length + all.pairs.length + all.grams.length);
  });

  it("is deterministic and predicts the same after a JSON round-trip", () => {
    const a = trainNbLogistic(texts, labels, SMALL);
    const b = trainNbLogistic(texts, labels, SMALL);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const model = new NbLogistic(a);
    const back = new NbLogistic(JSON.parse(JSON.stringify(a)) as ConstructorParameters<typeof NbLogistic>[0]);
    for (const [text] of CASES) {
      const t = prepareText(text);
      expect(Array.from(back.predict(t).posteriors)).toEqual(Array.from(model.predict(t).posteriors));
    }
  });

  it("a text without known features falls back to the class biases", () => {
    const model = new NbLogistic(trainNbLogistic(texts, labels, SMALL));
    const p = model.predict(prepareText("！！！"));
    expect(p.posteriors.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("refuses a single class with a clear message", () => {
    expect(() => trainNbLogistic(texts.slice(0, 3), ["考试", "考试", "考试"])).toThrow(TrainingError);
    expect(() => trainNbLogistic(texts.slice(0, 3), ["考试", "考试", "考试"])).toThrow(/at least two labels, got only "考试"/);
  });
});

describe("naive Bayes + NBSVM ensemble", () => {
  it("predicts the topic of unseen sentences", () => {
    const model = new NbEnsemble(trainNbEnsemble(texts, labels, { logistic: SMALL }));
    expect(model.classes).toEqual(["体育", "考试", "食堂"]);
    for (const [text, label] of CASES) expect([text, model.predict(prepareText(text)).label]).toEqual([text, label]);
  });

  it("mix 0 is naive Bayes and mix 1 is NBSVM", () => {
    const nbOnly = new NbEnsemble(trainNbEnsemble(texts, labels, { logistic: SMALL, mix: 0 }));
    const lrOnly = new NbEnsemble(trainNbEnsemble(texts, labels, { logistic: SMALL, mix: 1 }));
    for (const [text] of CASES) {
      const t = prepareText(text);
      const nb = nbOnly.naiveBayes.predict(t).posteriors;
      nbOnly.predict(t).posteriors.forEach((p, c) => expect(p).toBeCloseTo(nb[c] as number, 9));
      const lr = lrOnly.logistic.predict(t).posteriors;
      lrOnly.predict(t).posteriors.forEach((p, c) => expect(p).toBeCloseTo(lr[c] as number, 9));
    }
  });
});
