import { describe, expect, it } from "vitest";
import { ModelFormatError, TopicModel, train } from "../../../crawler/classify";
import { CLASSIFIER_KINDS, DEFAULT_CLASSIFIER, isClassifierKind } from "../../../lib/classifiers";
import { CAMPUS_SAMPLES } from "./fixtures";

const UNSEEN = ["有同学在期末考试中作弊被抓", "三食堂的红烧肉今天特别好吃", "篮球比赛决赛在体育馆举行", "考试周食堂延长营业时间"];

describe("selectable classifiers (Topic.classifier)", () => {
  it.each(CLASSIFIER_KINDS)("%s trains, says its kind, scores P(on-topic) in [0, 1] and round-trips through JSON", (kind) => {
    const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], classifier: kind });
    expect(model.classifier).toBe(kind);
    expect(model.toJSON().classifier).toBe(kind);
    const exam = model.predict("有同学在期末考试中作弊被抓");
    expect(exam.label).toBe("on-topic");
    expect(exam.score).toBeGreaterThan(0.5);
    expect(exam.score).toBeLessThanOrEqual(1);
    expect(exam.topTerms.length).toBeGreaterThan(0);
    const canteen = model.predict("三食堂的红烧肉今天特别好吃");
    expect(canteen.label).toBe("off-topic");
    expect(canteen.score).toBeGreaterThanOrEqual(0);
    expect(canteen.score).toBeLessThan(0.5);

    const text = JSON.stringify(model.toJSON());
    const back = TopicModel.fromJSON(text);
    expect(back.classifier).toBe(kind);
    expect(JSON.parse(JSON.stringify(back.toJSON()))).toEqual(JSON.parse(text));
    for (const s of UNSEEN) expect(back.predict(s)).toEqual(model.predict(s));
  });

  it("the kinds differ: χ² weighting changes the weights, the ensemble adds an NBSVM part", () => {
    const [nb, chi2, ens] = CLASSIFIER_KINDS.map((classifier) => train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], classifier }).toJSON());
    expect(nb?.naiveBayes.options.chi2Weighting).toBe(false);
    expect(chi2?.naiveBayes.options.chi2Weighting).toBe(true);
    expect(nb?.logistic).toBeUndefined();
    expect(ens?.logistic?.state.classes).toEqual(["off-topic", "on-topic"]);
    expect(ens?.logistic?.mix).toBe(0.8);
    expect(ens?.naiveBayes.options.features.charNgrams).toEqual([1, 2, 3]);
  });

  it("new topics default to nb-svm (issue 16: the best bench:classify accuracy at ≥ 30% of jieba's speed); training without a kind is exactly the nb model", () => {
    expect(DEFAULT_CLASSIFIER).toBe("nb-svm");
    const plain = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"] });
    const nb = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], classifier: "nb" });
    expect({ ...plain.toJSON(), trainedAt: "" }).toEqual({ ...nb.toJSON(), trainedAt: "" });
    for (const s of UNSEEN) expect(plain.predict(s)).toEqual(nb.predict(s));
  });

  it("a model stored before the choice existed (no kind) reads as nb and scores as before", () => {
    const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"] });
    const { classifier: _kind, ...old } = model.toJSON();
    const back = TopicModel.fromJSON(JSON.stringify(old));
    expect(back.classifier).toBe("nb");
    for (const s of UNSEEN) expect(back.predict(s)).toEqual(model.predict(s));
  });

  it("refuses an unknown kind and an ensemble without its NBSVM part", () => {
    const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], classifier: "nb-nbsvm" });
    expect(() => TopicModel.fromJSON({ ...model.toJSON(), classifier: "svm" })).toThrow(ModelFormatError);
    expect(() => TopicModel.fromJSON({ ...model.toJSON(), classifier: "svm" })).toThrow(/unknown classifier "svm"/);
    const { logistic: _lr, ...noPart } = model.toJSON();
    expect(() => TopicModel.fromJSON(noPart)).toThrow(/NBSVM part does not match/);
    expect(isClassifierKind("nb-nbsvm")).toBe(true);
    expect(isClassifierKind("nbsvm")).toBe(false);
  });
});
