/**
 * The one relevance rule (crawler/classify/relevance-rule.ts): its truth table, its defaults as
 * every place that states them, and the same decision through each user of it — the flagger's
 * verdict, discovery's judge, evaluation and the review queue's "flagged" strategy — on a real
 * trained model, with thresholds set just above and below each text's own scores so that both
 * halves of the rule decide in turn.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  DEFAULT_THRESHOLDS,
  evaluateTopicModel,
  relevanceDecision,
  selectScored,
  train,
  WordMatcher,
  type RelevanceThresholds,
} from "../../../crawler/classify";
import { judge } from "../../../crawler/classify/verdict";
import { parseKeywordRules } from "../../../crawler/classify/keyword-rules";
import { modelJudge } from "../../../crawler/discover";
import { topicFormSchema } from "../../../server/topic-admin";
import { CAMPUS_SAMPLES, EXAM, CANTEEN } from "./fixtures";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the rule", () => {
  test.each([
    // score, cosine, hasVector, thresholds → byClassifier, byCosine, relevant
    [0.5, 0, true, { nbThreshold: 0.5, cosineThreshold: 0.35 }, true, false, true],
    [0.49, 0.35, true, { nbThreshold: 0.5, cosineThreshold: 0.35 }, false, true, true],
    [0.49, 0.35, false, { nbThreshold: 0.5, cosineThreshold: 0.35 }, false, false, false],
    [0.49, 0.34, true, { nbThreshold: 0.5, cosineThreshold: 0.35 }, false, false, false],
    [0.9, 0.9, true, { nbThreshold: 0.5, cosineThreshold: 0.35 }, true, true, true],
    [0.9, 0.9, true, { nbThreshold: 0.95, cosineThreshold: Number.POSITIVE_INFINITY }, false, false, false],
  ])("score %d cosine %d vector %s", (score, cosine, hasVector, t, byClassifier, byCosine, relevant) => {
    expect(relevanceDecision({ score, cosine, hasVector }, t)).toEqual({ byClassifier, byCosine, relevant });
  });
});

describe("the defaults are written once", () => {
  test("the settings form's defaults are the rule's", () => {
    const form = topicFormSchema.parse({ name: "x" });
    expect({ nbThreshold: form.nbThreshold, cosineThreshold: form.cosineThreshold }).toEqual(DEFAULT_THRESHOLDS);
  });

  test.each(["prisma/schema.prisma", "prisma/postgresql/schema.prisma"])("%s's column defaults are the rule's", (file) => {
    // Prisma cannot import a constant: the schema repeats the defaults, and this keeps them equal.
    const schema = fs.readFileSync(path.join(root, file), "utf8");
    const model = /model Topic \{([\s\S]*?)\n\}/.exec(schema)?.[1] ?? "";
    const def = (field: string) => Number(new RegExp(`\\n\\s*${field}\\s+Float\\s+@default\\(([\\d.]+)\\)`).exec(model)?.[1]);
    expect({ nbThreshold: def("nbThreshold"), cosineThreshold: def("cosineThreshold") }).toEqual(DEFAULT_THRESHOLDS);
  });
});

describe("every user decides by the rule", () => {
  const model = train(CAMPUS_SAMPLES, { relevantLabels: ["考试"] });
  const none = new WordMatcher([]);
  const texts = [...EXAM.slice(0, 4), ...CANTEEN.slice(0, 4), "明天考试，今晚食堂人很多"];

  /** Thresholds that put each half of the rule just above or just below the text's own scores. */
  function gridFor(score: number, cosine: number): RelevanceThresholds[] {
    const out: RelevanceThresholds[] = [DEFAULT_THRESHOLDS];
    for (const nb of [Math.max(0, score - 1e-9), score + 1e-6]) {
      for (const cos of [Math.max(0, cosine - 1e-9), cosine + 1e-6]) out.push({ nbThreshold: nb, cosineThreshold: cos });
    }
    return out;
  }

  test("the model has a topic vector, so both halves are exercised", () => {
    expect(model.hasVector).toBe(true);
  });

  test.each(texts)("%s", (text) => {
    const p = model.predict(text);
    const seen = new Set<string>();
    for (const t of gridFor(p.score, p.cosine)) {
      const expected = relevanceDecision({ score: p.score, cosine: p.cosine, hasVector: model.hasVector }, t);
      seen.add(`${expected.byClassifier}/${expected.byCosine}`);

      // The flagger: the verdict's relevance and its classifier / cosine reasons.
      const row = { id: 1, name: "t", keywords: "[]", sensitiveWords: "[]", relevantLabels: '["考试"]', modelVersion: 1, ...t };
      const verdict = judge({ row, model, sensitive: none, keywords: parseKeywordRules([]).rules }, model.prepare(text));
      expect(verdict.relevant).toBe(expected.relevant);
      expect(verdict.reasons.some((r) => r.kind === "classifier")).toBe(expected.byClassifier);
      expect(verdict.reasons.some((r) => r.kind === "cosine")).toBe(expected.byCosine);

      // Discovery's judge of a trained topic.
      expect(modelJudge(model, t).judge(text).relevant).toBe(expected.relevant);

      // Evaluation: one on-topic sample is a true positive exactly when the rule flags it.
      const e = evaluateTopicModel(model, [{ text, label: "考试" }], { relevantLabels: ["考试"], ...t });
      expect(e.flagged.truePositives === 1).toBe(expected.relevant);
      expect(e.classifier.truePositives === 1).toBe(expected.byClassifier);
      expect(e.cosine?.truePositives === 1).toBe(expected.byCosine);

      // The review queue's "flagged" strategy picks what the monitor flags.
      const picks = selectScored([{ text, score: p.score, cosine: p.cosine }], {
        limit: 1,
        strategy: "flagged",
        threshold: t.nbThreshold,
        cosineThreshold: t.cosineThreshold,
        hasVector: model.hasVector,
      });
      expect(picks.length === 1).toBe(expected.relevant);
    }
    // Each text saw the classifier alone, the cosine alone, both and neither decide.
    expect(seen).toEqual(new Set(["true/true", "true/false", "false/true", "false/false"]));
  });

  test("discovery's default thresholds are the rule's defaults", () => {
    for (const text of texts) {
      const p = model.predict(text);
      expect(modelJudge(model).judge(text).relevant).toBe(relevanceDecision({ ...p, hasVector: model.hasVector }, DEFAULT_THRESHOLDS).relevant);
    }
  });
});
