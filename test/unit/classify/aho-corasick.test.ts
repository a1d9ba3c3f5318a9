import { describe, expect, it } from "vitest";
import { cleanText, WordMatcher } from "../../../crawler/classify";

describe("sensitive-word matcher", () => {
  it("reports every hit, overlapping words included, with offsets", () => {
    const m = new WordMatcher(["考试", "考试作弊", "作弊"]);
    expect(m.findAll("考试作弊")).toEqual([
      { word: "考试", start: 0, end: 2 },
      { word: "考试作弊", start: 0, end: 4 },
      { word: "作弊", start: 2, end: 4 },
    ]);
  });

  it("finds repeated and suffix words in a longer sentence", () => {
    const m = new WordMatcher(["代考", "考试作弊", "作弊", "替考"]);
    const text = "有人找代考，还有人考试作弊，作弊的人被处分";
    expect(m.findAll(text)).toEqual([
      { word: "代考", start: 3, end: 5 },
      { word: "考试作弊", start: 9, end: 13 },
      { word: "作弊", start: 11, end: 13 },
      { word: "作弊", start: 14, end: 16 },
    ]);
    expect(m.distinctWords(text)).toEqual(["代考", "考试作弊", "作弊"]);
  });

  it("matches words that share prefixes and fail links (she/he/hers)", () => {
    const m = new WordMatcher(["he", "she", "his", "hers"]);
    expect(m.findAll("ushers").map((h) => `${h.word}@${h.start}`)).toEqual(["she@1", "he@2", "hers@2"]);
  });

  it("normalises words like cleaned text, so full-width and case do not hide a hit", () => {
    const m = new WordMatcher(["ＣＥＴ作弊", "  ", ""]);
    expect(m.words).toEqual(["cet作弊"]);
    expect(m.findAll(cleanText("有人ＣＥＴ作弊"))).toEqual([{ word: "cet作弊", start: 2, end: 7 }]);
  });

  it("an empty set finds nothing", () => {
    expect(new WordMatcher([]).findAll("考试作弊")).toEqual([]);
  });
});
