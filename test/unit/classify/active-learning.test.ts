import { describe, expect, it } from "vitest";
import { selectForReview, selectScored, train, type ScoredCandidate } from "../../../crawler/classify";
import { jaccard, shingles } from "../../../crawler/classify/active-learning";
import { CAMPUS_SAMPLES } from "./fixtures";

/** Distinct texts (written for this test) with the given scores and no cosine. */
function scored(scores: readonly number[]): ScoredCandidate[] {
  const texts = [
    "图书馆今晚延长开放到十二点",
    "篮球场周末举办新生友谊赛",
    "二食堂新出的酸菜鱼很好吃",
    "教务处发布下学期选课通知",
    "宿舍楼下的快递柜坏了三天",
    "计算机学院招聘科研助理",
    "校运会报名截止到本周五",
    "期中考试成绩可以在网上查询",
  ];
  return scores.map((score, i) => ({ text: texts[i] as string, score, cosine: 0 }));
}

describe("review queue selection", () => {
  it("chooses the K candidates closest to the threshold when all are distinct, ties in input order", () => {
    const picks = selectScored(scored([0.95, 0.53, 0.1, 0.44, 0.6, 0.49, 0.02, 0.57]), { limit: 3, threshold: 0.5 });
    expect(picks.map((p) => p.index)).toEqual([5, 1, 3]);
    expect(picks[0]?.margin).toBeCloseTo(0.01, 10);
    // Equal margins (0.75 and 0.25 around 0.5, exact in binary): the earlier candidate first, the same every run.
    const tie = selectScored(scored([0.9, 0.75, 0.25]), { limit: 2, threshold: 0.5 });
    expect(tie.map((p) => p.index)).toEqual([1, 2]);
    // The margin is measured from the topic's threshold, not from 0.5.
    expect(selectScored(scored([0.5, 0.8, 0.3]), { limit: 1, threshold: 0.75 }).map((p) => p.index)).toEqual([1]);
  });

  it("does not choose two near-duplicates, and keeps looking for distinct ones", () => {
    const candidates: ScoredCandidate[] = [
      { text: "紧急通知：明天上午全校停水，请提前储水", score: 0.5, cosine: 0 },
      { text: "【转】紧急通知：明天上午全校停水，请提前储水！！", score: 0.51, cosine: 0 },
      { text: "紧急通知:明天上午全校停水 请提前储水", score: 0.49, cosine: 0 },
      { text: "体育馆游泳池本周闭馆维修", score: 0.6, cosine: 0 },
      { text: "新生报到时间定在九月一日", score: 0.9, cosine: 0 },
    ];
    const picks = selectScored(candidates, { limit: 3, threshold: 0.5 });
    expect(picks.map((p) => p.index)).toEqual([0, 3, 4]);
    // Without the filter the copies would fill the queue.
    expect(selectScored(candidates, { limit: 3, threshold: 0.5, maxSimilarity: 2 }).map((p) => p.index)).toEqual([0, 1, 2]);
    expect(jaccard(shingles(candidates[0]!.text), shingles(candidates[1]!.text))).toBeGreaterThan(0.5);
    expect(jaccard(shingles(candidates[0]!.text), shingles(candidates[3]!.text))).toBeLessThan(0.1);
  });

  it("flagged strategy: what the topic would flag, most confident last", () => {
    const candidates = scored([0.95, 0.53, 0.1, 0.44, 0.6, 0.49, 0.02, 0.57]);
    expect(selectScored(candidates, { limit: 10, threshold: 0.5, strategy: "flagged" }).map((p) => p.index)).toEqual([1, 7, 4, 0]);
    expect(selectScored(candidates, { limit: 2, threshold: 0.5, strategy: "flagged" }).map((p) => p.index)).toEqual([1, 7]);
    // The cosine decision flags too, when the model has a vector.
    const withCosine = candidates.map((c, i) => (i === 2 ? { ...c, cosine: 0.8 } : c));
    const flagged = selectScored(withCosine, { limit: 10, threshold: 0.5, strategy: "flagged", cosineThreshold: 0.35, hasVector: true });
    expect(flagged.map((p) => p.index)).toEqual([2, 1, 7, 4, 0]);
    expect(selectScored(withCosine, { limit: 10, threshold: 0.5, strategy: "flagged", cosineThreshold: 0.35 }).map((p) => p.index)).toEqual([1, 7, 4, 0]);
  });

  it("returns nothing for no candidates or limit 0, and every distinct candidate when K > n", () => {
    expect(selectScored([], { limit: 5, threshold: 0.5 })).toEqual([]);
    expect(selectScored(scored([0.4, 0.6]), { limit: 0, threshold: 0.5 })).toEqual([]);
    expect(selectScored([], { limit: 5, threshold: 0.5, strategy: "flagged" })).toEqual([]);
    const all = selectScored(scored([0.9, 0.3, 0.55]), { limit: 10, threshold: 0.5 });
    expect(all.map((p) => p.index)).toEqual([2, 1, 0]);
  });

  it("scores with a trained model and picks the unsure texts first", () => {
    const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"] });
    const texts = ["有同学在期末考试中作弊被抓", "三食堂的红烧肉今天特别好吃", "考试周食堂延长营业时间", "篮球比赛决赛在体育馆举行"];
    const picks = selectForReview(model, texts, { limit: 4, threshold: 0.5 });
    expect(picks).toHaveLength(4);
    const margins = picks.map((p) => p.margin);
    expect([...margins].sort((a, b) => a - b)).toEqual(margins);
    for (const p of picks) expect(p.score).toBeCloseTo(model.predict(texts[p.index] as string).score, 12);
    // Deterministic: the same answer twice.
    expect(selectForReview(model, texts, { limit: 4, threshold: 0.5 })).toEqual(picks);
  });
});
