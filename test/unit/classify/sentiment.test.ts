/**
 * Sentiment (crawler/classify/sentiment.ts, sentiment-lexicon.ts): the lexicon with negation on
 * sentences written for this test, the three-way rule and its band, stickers kept as words, and
 * the model file's round trip and refusals. No corpus text: the model here trains on the
 * project's own sentences.
 */
import { describe, expect, test } from "vitest";
import { SentimentLexicon } from "../../../crawler/classify/sentiment-lexicon";
import {
  calibrateBand,
  heldOutFigures,
  LEXICON_BAND,
  LexiconScorer,
  SentimentModel,
  SentimentModelError,
  sentimentOf,
  trainSentiment,
} from "../../../crawler/classify/sentiment";
import { cleanText, stickersAsWords } from "../../../crawler/classify/text-clean";

// [text, sentiment, negative hits, positive hits]
const LEXICON: [string, string, number, number][] = [
  ["食堂的饭太难吃了", "negative", 1, 0],
  ["今天很开心", "positive", 0, 1],
  ["今天不开心", "negative", 1, 0],
  ["对这次维修不太满意", "negative", 1, 0],
  ["这次并不差劲", "positive", 0, 1],
  ["非常满意", "positive", 0, 1],
  ["特别开心", "positive", 0, 1],
  ["是不是中毒了", "negative", 1, 0],
  ["不满意", "negative", 1, 0],
  ["教务处通知：下周选课", "neutral", 0, 0],
  ["很开心，但是很失望", "neutral", 1, 1],
  ["不，开心", "positive", 0, 1],
  ["[怒][怒]", "negative", 2, 0],
  ["[哈哈]", "positive", 0, 1],
];

describe("the built-in lexicon", () => {
  const lexicon = new SentimentLexicon();
  const scorer = new LexiconScorer();
  test.each(LEXICON)("%s → %s", (text, sentiment, neg, pos) => {
    const s = lexicon.score(cleanText(stickersAsWords(text)));
    expect(s.hits.filter((h) => h.polarity === "negative")).toHaveLength(neg);
    expect(s.hits.filter((h) => h.polarity === "positive")).toHaveLength(pos);
    expect(s.pNegative).toBeCloseTo((neg + 1) / (neg + pos + 2), 9);
    expect(scorer.judgeOne(text).sentiment).toBe(sentiment);
  });
});

describe("the three-way rule", () => {
  test.each([
    [0.1, "positive"],
    [0.4, "neutral"],
    [0.5, "neutral"],
    [0.6, "neutral"],
    [0.61, "negative"],
  ])("P(negative) %f under the lexicon band is %s", (p, s) => {
    expect(sentimentOf(p, LEXICON_BAND)).toBe(s);
  });

  test("the band is the narrowest whose outside reaches the precision", () => {
    // Scores near 0.5 are wrong half the time; far ones are right.
    const scores = [0.05, 0.1, 0.15, 0.45, 0.48, 0.52, 0.55, 0.85, 0.9, 0.95];
    const negative = [false, false, false, true, false, true, false, true, true, true];
    const band = calibrateBand(scores, negative, 0.95);
    expect(band).toEqual({ low: 0.45, high: 0.55 });
    expect(heldOutFigures(scores, negative, band)).toMatchObject({ samples: 10, neutralShare: 0.4, decidedAccuracy: 1 });
    expect(calibrateBand([0.1, 0.9], [false, true], 0.95)).toEqual({ low: 0.5, high: 0.5 });
  });

  test("stickers become words; the topic cleaner still drops them", () => {
    expect(cleanText(stickersAsWords('太好了[哈哈]<span class="url-icon"><img alt="[爱你]" src="x"></span>'))).toBe("太好了 哈哈 爱你");
    expect(cleanText("太好了[哈哈]")).toBe("太好了");
  });
});

describe("a trained model file", () => {
  const places = ["食堂", "宿舍", "图书馆", "快递点", "体育馆", "教学楼"];
  const samples = places.flatMap((p) => [
    ...["太差劲了", "让人失望透顶", "服务糟糕", "脏乱不堪", "真让人生气"].map((b) => ({ label: "negative", text: `${p}${b}` })),
    ...["非常满意", "真不错", "服务很好", "干净整洁", "让人开心"].map((g) => ({ label: "positive", text: `${p}${g}` })),
  ]);

  test("round-trips through JSON and scores the same", async () => {
    const model = trainSentiment(samples, { now: new Date("2026-12-03T00:00:00Z") });
    expect(model.json.heldOut.samples).toBe(12);
    const again = SentimentModel.fromJSON(JSON.stringify(model.json));
    const texts = ["食堂服务糟糕", "图书馆干净整洁"];
    expect(await again.scores(texts)).toEqual(await model.scores(texts));
    const [bad, good] = await model.judge(texts);
    expect(bad!.score).toBeGreaterThan(good!.score);
  });

  test("refuses other labels, too few samples, and damaged files", () => {
    expect(() => trainSentiment([{ label: "neutral", text: "x" }])).toThrow(SentimentModelError);
    expect(() => trainSentiment(samples.slice(0, 20))).toThrow(/too few samples/);
    expect(() => SentimentModel.fromJSON("{")).toThrow(/not valid JSON/);
    expect(() => SentimentModel.fromJSON({ kind: "campuswatch/sentiment-model", version: 2 })).toThrow(/version 2/);
    expect(() => SentimentModel.fromJSON({ kind: "campuswatch/sentiment-model", version: 1, band: { low: 0.7, high: 0.3 } })).toThrow(/band/);
  });
});
