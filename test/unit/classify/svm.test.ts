import { describe, expect, it } from "vitest";
import { NaiveBayes, prepareText, train, trainNaiveBayes, trainNbLogistic, TrainingError, TopicModel } from "../../../crawler/classify";
import { FusedEnsemble } from "../../../crawler/classify/ensemble-model";
import { Vocabulary } from "../../../crawler/classify/features";
import { IntegerMap } from "../../../crawler/classify/int-map";
import { foldSamples } from "../../../crawler/classify/model-fold";
import { NbLogistic } from "../../../crawler/classify/nbsvm-model";
import { trainLinearSvm, type LinearSvmOptions } from "../../../crawler/classify/svm-train";
import { CAMPUS_SAMPLES, UNSEEN_CASES } from "./fixtures";

const texts = CAMPUS_SAMPLES.map((s) => prepareText(s.text));
const labels = CAMPUS_SAMPLES.map((s) => s.label);
// 48 sentences: features seen once must be kept, or little is left to learn from.
const SMALL: Partial<LinearSvmOptions> = { minCount: 1 };

const UNSEEN = UNSEEN_CASES;

describe("linear SVM (NB-scaled features, dual coordinate descent)", () => {
  it("separates a separable toy set: every training text and unseen texts of each class", () => {
    const toy = ["红色 苹果", "红色 草莓", "红色 樱桃", "绿色 青菜", "绿色 黄瓜", "绿色 菠菜"].map((t) => prepareText(t));
    const toyLabels = ["红", "红", "红", "绿", "绿", "绿"];
    const model = new NbLogistic(trainLinearSvm(toy, toyLabels, SMALL));
    toy.forEach((t, i) => expect(model.predict(t).label).toBe(toyLabels[i]));
    expect(model.predict(prepareText("红色 西瓜")).label).toBe("红");
    expect(model.predict(prepareText("绿色 西瓜")).label).toBe("绿");
  });

  it("predicts the topic of unseen campus sentences (three classes)", () => {
    const model = new NbLogistic(trainLinearSvm(texts, labels, SMALL));
    expect(model.classes).toEqual(["体育", "考试", "食堂"]);
    for (const [text, label] of UNSEEN) expect([text, model.predict(prepareText(text)).label]).toEqual([text, label]);
  });

  it("is deterministic for a seed, and a JSON round-trip predicts exactly the same", () => {
    const a = trainLinearSvm(texts, labels, SMALL);
    expect(JSON.stringify(trainLinearSvm(texts, labels, SMALL))).toBe(JSON.stringify(a));
    expect(JSON.stringify(trainLinearSvm(texts, labels, { ...SMALL, seed: 2, epochs: 1 }))).not.toBe(JSON.stringify(a));
    const model = new NbLogistic(a);
    const back = new NbLogistic(JSON.parse(JSON.stringify(a)) as typeof a);
    for (const [text] of UNSEEN) {
      const t = prepareText(text);
      expect(Array.from(back.predict(t).posteriors)).toEqual(Array.from(model.predict(t).posteriors));
    }
  });

  it("two classes: trains one side and mirrors it (weights and bias negated)", () => {
    const two = labels.map((l) => (l === "考试" ? "on" : "off"));
    const s = trainLinearSvm(texts, two, SMALL);
    expect(s.classes).toEqual(["off", "on"]);
    expect(s.bias[0]).toBe(-(s.bias[1] as number));
    s.weights[0]?.forEach((w, f) => expect(w).toBe(-(s.weights[1]?.[f] as number)));
    expect(new NbLogistic(s).predict(prepareText("明天的高数考试我还没复习完")).label).toBe("on");
  });

  it("keeps the share of n-gram features of largest weight (keepGrams), words and pairs all", () => {
    const all = trainLinearSvm(texts, labels, { ...SMALL, keepGrams: 1 });
    const half = trainLinearSvm(texts, labels, { ...SMALL, keepGrams: 0.5 });
    expect(half.words).toEqual(all.words);
    expect(half.pairs).toEqual(all.pairs);
    expect(half.grams.length).toBeGreaterThanOrEqual(Math.floor(all.grams.length / 2));
    expect(half.grams.length).toBeLessThan(all.grams.length);
    expect(half.grams.every((g) => all.grams.includes(g))).toBe(true);
    expect(half.weights[0]?.length).toBe(half.words.length + half.pairs.length + half.grams.length);
  });

  it("refuses a single class and a non-positive cost", () => {
    expect(() => trainLinearSvm(texts.slice(0, 3), ["考试", "考试", "考试"])).toThrow(TrainingError);
    expect(() => trainLinearSvm(texts, labels, { cost: 0 })).toThrow(/cost and scale must be positive/);
  });
});

describe("fused naive Bayes + linear model (one feature lookup for both parts)", () => {
  const nb = trainNaiveBayes(texts, labels);
  const probes = [...UNSEEN.map(([t]) => t), "！！！", "", "篮球 篮球 篮球 比赛 比赛"];

  it.each([
    ["linear SVM", () => trainLinearSvm(texts, labels, SMALL)],
    ["NBSVM regression", () => trainNbLogistic(texts, labels, { minCount: 1 })],
  ] as const)("%s: the same posteriors as the two models scored apart, and naive Bayes' top terms", (_name, linear) => {
    const lin = linear();
    const fused = new FusedEnsemble(nb, lin, 0.8);
    const apart = new NbLogistic(lin);
    const naive = new NaiveBayes(nb);
    for (const text of probes) {
      const t = prepareText(text);
      const nbPost = naive.predict(t).posteriors;
      const linPost = apart.predict(t).posteriors;
      const mixed = Array.from(nbPost, (p, c) => Math.exp(0.2 * Math.log(p) + 0.8 * Math.log(linPost[c] as number)));
      const z = mixed.reduce((a, b) => a + b, 0);
      const p = fused.predict(t);
      p.posteriors.forEach((x, c) => expect(x).toBeCloseTo((mixed[c] as number) / z, 6));
      // The fused records keep differences to class 0 (Float32): the same terms, weights to rounding.
      const versus = (p.classIndex + 1) % 3;
      const got = fused.topTerms(p.classIndex, versus);
      const want = naive.topTerms(naive.featureIds(t), p.classIndex, versus);
      expect(got.map((x) => x.term)).toEqual(want.map((x) => x.term));
      got.forEach((x, i) => expect(x.weight).toBeCloseTo(want[i]?.weight as number, 3));
    }
  });

  it("counts each linear feature once however long the text (its set of seen features grows)", () => {
    const lin = trainLinearSvm(texts, labels, SMALL);
    const long = prepareText(CAMPUS_SAMPLES.map((s) => s.text).join("。"));
    const fused = new FusedEnsemble(nb, lin, 1).predict(long).posteriors;
    const apart = new NbLogistic(lin).predict(long).posteriors;
    fused.forEach((x, c) => expect(x).toBeCloseTo(apart[c] as number, 6));
  });
});

describe("topic classifier nb-svm", () => {
  it("trains, round-trips through JSON, and folds reviews into naive Bayes with the SVM marked stale", () => {
    const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], classifier: "nb-svm" });
    const json = model.toJSON();
    expect(json.classifier).toBe("nb-svm");
    expect(json.logistic?.mix).toBe(0.8);
    expect(json.naiveBayes.options.features.charNgrams).toEqual([2]);
    const back = TopicModel.fromJSON(JSON.stringify(json));
    for (const [text] of UNSEEN) expect(back.predict(text)).toEqual(model.predict(text));
    expect(model.predict("监考老师发现有人带小抄作弊").label).toBe("on-topic");

    const folded = foldSamples(model, [{ text: "考场里不许带手机", label: "考试" }]).toJSON();
    expect(folded.logistic?.state).toEqual(json.logistic?.state);
    expect(folded.logistic?.staleSamples).toBe(1);
    expect(folded.naiveBayes.classDocs.reduce((a, b) => a + b, 0)).toBe(CAMPUS_SAMPLES.length + 1);
  });
});

describe("IntegerMap", () => {
  it("keeps every key through growth, large keys included", () => {
    const m = new IntegerMap(4);
    // Up to about 3.8e12: character trigram keys reach 27712³ ≈ 2.1e13.
    const keys = Array.from({ length: 5000 }, (_, i) => i * 27_712 * 27_712 + i);
    keys.forEach((k, i) => m.set(k, i));
    expect(m.size).toBe(keys.length);
    keys.forEach((k, i) => expect(m.get(k)).toBe(i));
    expect(m.get(1)).toBe(-1);
    m.set(keys[3] as number, 42);
    expect(m.get(keys[3] as number)).toBe(42);
    expect(m.size).toBe(keys.length);
  });

  it("keeps every key when compacted, and grows again after", () => {
    const m = new IntegerMap();
    const keys = Array.from({ length: 3000 }, (_, i) => i * 27_712 * 27_712 + 7 * i);
    keys.forEach((k, i) => m.set(k, i));
    m.compact();
    keys.forEach((k, i) => expect(m.get(k)).toBe(i));
    expect(m.get(5)).toBe(-1);
    for (let i = 0; i < 3000; i++) m.set(1e9 + i, i);
    expect(m.size).toBe(6000);
    keys.forEach((k, i) => expect(m.get(k)).toBe(i));
    expect(m.get(1e9 + 2999)).toBe(2999);
  });
});

describe("Vocabulary word ids", () => {
  it("gives each word one id, whether keyed by its characters (1–3 CJK, letters, digits) or not", () => {
    const v = new Vocabulary();
    const words = ["考", "考试", "考试周", "期末考试", "nba", "g7", "c++", "3.5", "Ab", "考", "考试"];
    const ids = words.map((w) => v.wordId(w, true));
    expect(ids).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1]);
    expect(v.size).toBe(9);
    // A word and the character n-gram with the same characters are different features.
    expect(v.gramId("考试", false)).toBe(-1);
    v.seal();
    words.forEach((w, i) => expect(v.wordId(w, false)).toBe(ids[i]));
    expect(v.wordId("食堂", false)).toBe(-1);
    expect(v.wordId("图书馆员", false)).toBe(-1);
    expect([...v.words.entries()]).toEqual(words.slice(0, 9).map((w, i) => [w, i]));
  });
});

describe("in-domain feature copies (review samples, Daumé 2007)", () => {
  // Uploads from another source: 红色 goes with 红. On the platform (in-domain) 红色 校园 posts are 绿.
  const uploads = Array.from({ length: 30 }, (_, i) => [`红色 苹果 ${i}号`, "红"]).concat(Array.from({ length: 30 }, (_, i) => [`绿色 青菜 ${i}号`, "绿"]));
  const platform = [
    ["红色 校园 晚会", "绿"],
    ["红色 校园 歌曲", "绿"],
    ["绿色 校园 跑步", "绿"],
    ["红色 苹果 校园", "红"],
  ];
  const all = [...uploads, ...platform];
  const prepared = all.map(([t]) => prepareText(t as string));
  const y = all.map(([, l]) => l as string);
  const marks = all.map((_, i) => i >= uploads.length);

  it("without in-domain samples the SVM is exactly the one trained without marks", () => {
    const plain = JSON.stringify(trainLinearSvm(prepared, y, SMALL));
    expect(
      JSON.stringify(
        trainLinearSvm(
          prepared,
          y,
          SMALL,
          all.map(() => false),
        ),
      ),
    ).toBe(plain);
  });

  it("in-domain samples move the decision on their own words further than the same samples unmarked", () => {
    const margin = (state: ReturnType<typeof trainLinearSvm>) => {
      const m = new NbLogistic(state);
      const p = m.predict(prepareText("红色 校园 活动"));
      return (p.posteriors[m.classes.indexOf("绿")] as number) - (p.posteriors[m.classes.indexOf("红")] as number);
    };
    const plain = trainLinearSvm(prepared, y, SMALL);
    const own = trainLinearSvm(prepared, y, SMALL, marks);
    expect(margin(own)).toBeGreaterThan(margin(plain));
    expect(new NbLogistic(own).predict(prepareText("红色 校园 活动")).label).toBe("绿");
    // The uploads' own texts are still classified as before.
    expect(new NbLogistic(own).predict(prepareText("红色 苹果")).label).toBe("红");
  });

  it("refuses marks that do not match the texts", () => {
    expect(() => trainLinearSvm(prepared, y, SMALL, [true])).toThrow(TrainingError);
  });
});
