import { describe, expect, it } from "vitest";
import { MODEL_FORMAT_VERSION, ModelFormatError, TopicModel, train, TrainingError } from "../../../crawler/classify";
import { CAMPUS_SAMPLES } from "./fixtures";

const UNSEEN = ["有同学在期末考试中作弊被抓", "三食堂的红烧肉今天特别好吃", "篮球比赛决赛在体育馆举行", "考试周食堂延长营业时间"];

describe("topic model", () => {
  const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], userDict: ["考试作弊"] });

  it("scores P(on-topic) and explains the decision", () => {
    const exam = model.predict("有同学在期末考试中作弊被抓");
    expect(exam.label).toBe("on-topic");
    expect(exam.score).toBeGreaterThan(0.9);
    expect(exam.topTerms.length).toBeGreaterThan(0);
    // Word features print as words, character bigrams between ‹ ›.
    expect(exam.topTerms.map((t) => t.term)).toEqual(expect.arrayContaining(["‹考试›", "作弊", "期末考试"]));
    expect(exam.cosine).toBeGreaterThan(0);
    const canteen = model.predict("三食堂的红烧肉今天特别好吃");
    expect(canteen.label).toBe("off-topic");
    expect(canteen.score).toBeLessThan(0.1);
  });

  it("keeps the sample labels when asked not to collapse them", () => {
    const multi = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"], collapseLabels: false });
    expect(multi.classes).toEqual(["体育", "考试", "食堂"]);
    expect(multi.predict("篮球比赛决赛在体育馆举行").label).toBe("体育");
    expect(multi.predict("有同学在期末考试中作弊被抓").score).toBeGreaterThan(0.5);
  });

  it("round-trips through JSON and predicts identically", () => {
    const text = JSON.stringify(model.toJSON());
    const back = TopicModel.fromJSON(text);
    expect(JSON.parse(JSON.stringify(back.toJSON()))).toEqual(JSON.parse(text));
    for (const s of UNSEEN) expect(back.predict(s)).toEqual(model.predict(s));
    expect(TopicModel.fromJSON(JSON.parse(text)).predict(UNSEEN[0] as string)).toEqual(model.predict(UNSEEN[0] as string));
  });

  it("refuses a model of another format version, naming both versions", () => {
    const other = { ...model.toJSON(), version: MODEL_FORMAT_VERSION + 1 };
    expect(() => TopicModel.fromJSON(JSON.stringify(other))).toThrow(ModelFormatError);
    expect(() => TopicModel.fromJSON(JSON.stringify(other))).toThrow(
      `topic model format version ${MODEL_FORMAT_VERSION + 1} is not supported (this CampusWatch reads version ${MODEL_FORMAT_VERSION}); retrain the topic`,
    );
  });

  it("refuses things that are not topic models", () => {
    expect(() => TopicModel.fromJSON("{not json")).toThrow(/not valid JSON/);
    expect(() => TopicModel.fromJSON({ kind: "something-else", version: 1 })).toThrow(/not a CampusWatch topic model/);
    const damaged = structuredClone(model.toJSON());
    damaged.naiveBayes.weights.pop();
    expect(() => TopicModel.fromJSON(damaged)).toThrow(/damaged/);
  });

  it("refuses training data that cannot make a topic", () => {
    const exams = CAMPUS_SAMPLES.filter((s) => s.label === "考试");
    expect(() => train(exams)).toThrow(TrainingError);
    expect(() => train(exams)).toThrow(/all 16 samples have the label "考试"; training needs at least two labels/);
    expect(() => train(CAMPUS_SAMPLES, { relevantLabels: ["招聘"] })).toThrow(/no sample has a relevant label \(招聘\)/);
    expect(() => train([])).toThrow(/no training samples/);
  });
});
