import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { dataFile } from "../../../crawler/classify/data-file";
import { addUserWords, loadedUserWords, tokenize, setUserDictionary } from "../../../crawler/classify";

// Exact tokens: jieba's mixed mode, stop words and punctuation dropped. The first block runs with
// an empty user dictionary (each test file runs in its own process, and the test sets it anyway).
describe("tokenize", () => {
  it.each([
    ["南京大学的同学们明天参加英语四级考试", ["南京大学", "同学", "明天", "参加", "英语", "四级", "考试"]],
    ["有人在四六级考试作弊被监考老师抓住了", ["有人", "四六级", "考试", "作弊", "监考", "老师", "抓住"]],
    ["学校食堂的饭菜价格又上涨了，同学们很不满意！", ["学校食堂", "饭菜", "价格", "上涨", "同学", "满意"]],
    ['<p>今晚图书馆<b>闭馆</b>，请大家提前离开</p><span class="url-icon"><img alt="[哈哈]"></span>', ["今晚", "图书馆", "闭馆", "提前", "离开"]],
    ["ＡＢＣ大学２０２４年招生简章发布", ["abc", "大学", "2024", "招生简章", "发布"]],
    ["南大食堂的鸭血粉丝汤真好喝[哈哈]", ["南大", "食堂", "鸭", "血", "粉丝汤", "真", "好喝"]],
  ])("without a user dictionary: %s", (text, tokens) => {
    setUserDictionary([]);
    expect(tokenize(text)).toEqual(tokens);
  });

  it("with a user dictionary, its words come out whole", () => {
    setUserDictionary(["考试作弊", "南大食堂", "鸭血粉丝汤"]);
    expect(tokenize("有人在四六级考试作弊被监考老师抓住了")).toEqual(["有人", "四六级", "考试作弊", "监考", "老师", "抓住"]);
    expect(tokenize("南大食堂的鸭血粉丝汤真好喝")).toEqual(["南大食堂", "鸭血粉丝汤", "真", "好喝"]);
  });

  it("user words are normalised like text (full-width, case)", () => {
    setUserDictionary(["ＣＥＴ四级"]);
    expect(loadedUserWords().has("cet四级")).toBe(true);
    expect(tokenize("明天考CET四级")).toContain("cet四级");
  });

  it("tokens depend on the set of user words, not on the order they were loaded", () => {
    const text = "南大食堂的鸭血粉丝汤和考试作弊的新闻";
    setUserDictionary([]);
    addUserWords(["南大食堂"]);
    addUserWords(["鸭血粉丝汤", "考试作弊"]);
    const forward = tokenize(text);
    setUserDictionary([]);
    addUserWords(["考试作弊"]);
    addUserWords(["鸭血粉丝汤"]);
    addUserWords(["南大食堂"]);
    expect(tokenize(text)).toEqual(forward);
    expect(forward).toEqual(["南大食堂", "鸭血粉丝汤", "考试作弊", "新闻"]);
  });

  it("setUserDictionary removes words no longer wanted (reloads jieba)", () => {
    const text = "南大食堂的鸭血粉丝汤真好喝";
    setUserDictionary(["鸭血粉丝汤"]);
    expect(tokenize(text)).toEqual(["南大", "食堂", "鸭血粉丝汤", "真", "好喝"]);
    setUserDictionary([]);
    expect(loadedUserWords().size).toBe(0);
    expect(tokenize(text)).toEqual(["南大", "食堂", "鸭", "血", "粉丝汤", "真", "好喝"]);
  });

  it("can keep nouns only (time words and verbs go)", () => {
    setUserDictionary([]);
    expect(tokenize("同学们明天参加英语考试")).toEqual(["同学", "明天", "参加", "英语考试"]);
    expect(tokenize("同学们明天参加英语考试", { nounsOnly: true })).toEqual(["同学", "英语考试"]);
  });

  it("loads jieba with the one-line IDF table shipped in data/ (keyword extraction is never used)", () => {
    const idf = dataFile("jieba-idf-unused.utf8");
    expect(idf).not.toBeNull();
    // jieba's loader asserts at least one "word weight" line with a positive average.
    expect(fs.readFileSync(idf!, "utf8")).toMatch(/^\S+ [0-9.]*[1-9][0-9.]*\n$/);
    expect(dataFile("stopwords-zh.txt")).not.toBeNull();
    expect(dataFile("no-such-file.txt")).toBeNull();
  });
});
