import { describe, expect, it } from "vitest";
import { buildTopicVectors, TopicVector, type PreparedText } from "../../../crawler/classify";

const doc = (...tokens: string[]): PreparedText => ({ cleaned: tokens.join(""), tokens });

describe("vector space relevance", () => {
  // Four sample texts; the topic is defined by the first two.
  const texts = [doc("考试", "作弊", "考试"), doc("考试", "成绩"), doc("食堂", "饭菜"), doc("食堂", "考试")];

  it("weights topic words by tf · log(N/n) and keeps the top ones", () => {
    const [v] = buildTopicVectors(texts, [[0, 1]], { size: 2 });
    // 作弊 and 成绩: tf 1, in 1 of 4 texts → log 4; 考试: tf 3 but in 3 of 4 texts → 3·log(4/3).
    expect(v?.terms).toEqual(["作弊", "成绩"]);
    expect(v?.weights[0]).toBeCloseTo(Math.log(4), 5);
    const [all] = buildTopicVectors(texts, [[0, 1]], { size: 10 });
    expect(all?.terms).toEqual(["作弊", "成绩", "考试"]);
    expect(all?.weights[2]).toBeCloseTo(3 * Math.log(4 / 3), 5);
  });

  it("cosine of the page vector (tf / max tf × topic weight) and the topic vector", () => {
    const v = new TopicVector({ terms: ["作弊", "成绩", "考试"], weights: [2, 1, 1] });
    // Page: 作弊 ×2, 考试 ×1 → page weights (2/2)·2 = 2 and (1/2)·1 = 0.5.
    const page = doc("作弊", "考试", "作弊", "食堂");
    const expected = (2 * 2 + 0.5 * 1) / (Math.sqrt(2 * 2 + 0.5 * 0.5) * Math.sqrt(4 + 1 + 1));
    expect(v.cosine(page)).toBeCloseTo(expected, 12);
    // Scratch state is reset between calls.
    expect(v.cosine(page)).toBeCloseTo(expected, 12);
    expect(v.cosine(doc("食堂", "饭菜"))).toBe(0);
    expect(v.cosine(doc("作弊", "成绩", "考试"))).toBeCloseTo(1, 12);
  });
});
