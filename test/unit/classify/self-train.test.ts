import { describe, expect, it } from "vitest";
import { prepareText } from "../../../crawler/classify/features";
import { trainPrepared, type Sample, type TrainOptions } from "../../../crawler/classify/model";
import { foldSamples } from "../../../crawler/classify/model-fold";
import type { NaiveBayesState } from "../../../crawler/classify/naive-bayes";
import {
  DEFAULT_PSEUDO_CONFIDENCE,
  DEFAULT_SELF_TRAIN_POSTS,
  MIN_SELF_TRAIN_POSTS,
  pseudoPlan,
  selfTrainPostsFromEnv,
  selfTrainPrepared,
} from "../../../crawler/classify/self-train";
import { CAMPUS_SAMPLES } from "./fixtures";

// Unlabelled "crawled posts", written for this test: exam posts and campus chatter.
const POSTS = [
  "期末考试复习资料哪里可以借到",
  "今天好累啊，不想说话",
  "高数考试成绩什么时候出来",
  "有人一起去看电影吗",
  "考研复习计划求建议",
  "宿舍楼下的猫又来了",
  "四级考试报名开始了",
  "真的很无语，吓死我了",
];
const prepared = (samples: readonly Sample[]) => samples.map((s) => prepareText(s.text));
const pool = POSTS.map((t) => prepareText(t));
const options: TrainOptions = { relevantLabels: ["考试"], classifier: "nb" };
const counted = (s: NaiveBayesState) => ({ classes: s.classes, classDocs: s.classDocs, words: s.words, grams: s.grams, counts: s.counts });
const sum = (xs: number[]) => xs.reduce((p, q) => p + q, 0);

describe("self-training on unlabelled crawled posts", () => {
  it("plans a share of the uploads: 10,000 posts for 63,758 news titles weigh 5 each; a small topic takes few posts", () => {
    expect(pseudoPlan(10_000, 63_758)).toEqual({ used: 10_000, weight: 5 });
    expect(pseudoPlan(9_700, 63_758)).toEqual({ used: 9_700, weight: 5 });
    expect(pseudoPlan(2_000, 40)).toEqual({ used: 32, weight: 1 });
    expect(pseudoPlan(MIN_SELF_TRAIN_POSTS - 1, 63_758)).toEqual({ used: 0, weight: 0 });
    expect(pseudoPlan(5, 0, 0.8, 1)).toEqual({ used: 0, weight: 0 });
  });

  it("CAMPUSWATCH_SELF_TRAIN_POSTS sets how many posts (0: off); a malformed value is refused with its name", () => {
    expect(selfTrainPostsFromEnv({})).toBe(DEFAULT_SELF_TRAIN_POSTS);
    expect(selfTrainPostsFromEnv({ CAMPUSWATCH_SELF_TRAIN_POSTS: "0" })).toBe(0);
    expect(selfTrainPostsFromEnv({ CAMPUSWATCH_SELF_TRAIN_POSTS: "500" })).toBe(500);
    for (const bad of ["-1", "2.5", "many"]) expect(() => selfTrainPostsFromEnv({ CAMPUSWATCH_SELF_TRAIN_POSTS: bad })).toThrow(/CAMPUSWATCH_SELF_TRAIN_POSTS/);
  });

  it("a kind that was not measured to gain (nb-nbsvm) does not self-train", () => {
    const svm: TrainOptions = { ...options, classifier: "nb-nbsvm" };
    const r = selfTrainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), pool, svm, { uploaded: CAMPUS_SAMPLES.length, minPosts: 1 });
    expect(r.stats.used).toBe(0);
    expect(r.model.classifier).toBe("nb-nbsvm");
  });

  it("with too few posts the model is the plain training's", () => {
    const plain = trainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), options);
    const r = selfTrainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), pool, options, { uploaded: CAMPUS_SAMPLES.length });
    expect(r.stats).toEqual({ offered: POSTS.length, used: 0, onTopic: 0, weight: 0 });
    expect(r.pseudo).toEqual([]);
    expect(r.model.toJSON().naiveBayes).toEqual(plain.toJSON().naiveBayes);
  });

  it("labels each post with the first model (on-topic only when sure), trains on them too, keeps the vector and sample count", () => {
    const first = trainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), options);
    const self = { uploaded: CAMPUS_SAMPLES.length, minPosts: 1 };
    const r = selfTrainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), pool, options, self);
    expect(r.stats).toMatchObject({ offered: POSTS.length, used: POSTS.length, weight: 5 });
    const expected = pool.map((p) => (first.predictPrepared(p).score >= DEFAULT_PSEUDO_CONFIDENCE ? "考试" : "off-topic"));
    expect(r.pseudo.map((s) => s.label)).toEqual(expected);
    expect(r.stats.onTopic).toBe(expected.filter((l) => l === "考试").length);
    expect(r.stats.onTopic).toBeGreaterThan(0);
    expect(r.stats.onTopic).toBeLessThan(POSTS.length);
    expect(sum(r.model.toJSON().naiveBayes.classDocs)).toBe(CAMPUS_SAMPLES.length + POSTS.length * 5);
    expect(r.model.toJSON().vector).toEqual(first.toJSON().vector);
    expect(r.model.toJSON().samples).toBe(CAMPUS_SAMPLES.length);
    // Deterministic: the same input gives the same model.
    const again = selfTrainPrepared(CAMPUS_SAMPLES, prepared(CAMPUS_SAMPLES), pool, options, self);
    expect(again.model.toJSON().naiveBayes).toEqual(r.model.toJSON().naiveBayes);
  });

  it("reviews folded into a self-trained model give the counts of a full training on the same samples (pseudo-labelled posts included)", () => {
    const first = CAMPUS_SAMPLES.filter((_, i) => i % 5 !== 0);
    const reviews = CAMPUS_SAMPLES.filter((_, i) => i % 5 === 0).map((s) => ({ text: s.text, label: s.label === "考试" ? "考试" : "off-topic" }));
    const W = 3;
    const r = selfTrainPrepared(first, prepared(first), pool, options, { uploaded: first.length, minPosts: 1 });
    const folded = foldSamples(r.model, reviews, W).toJSON().naiveBayes;
    const all = [...first, ...r.pseudo, ...reviews];
    const full = trainPrepared(all, prepared(all), {
      ...options,
      sampleWeights: [...first.map(() => 1), ...r.pseudo.map(() => r.stats.weight), ...reviews.map(() => W)],
    }).toJSON().naiveBayes;
    expect(counted(folded)).toEqual(counted(full));
  });
});
