/**
 * jieba on its worker thread (crawler/classify/segment-thread.ts) gives exactly the tokens of the
 * synchronous path, follows the user dictionary (added words, removed words: a reload), starts
 * again after it was stopped, and never loads jieba on the calling thread. The corpus comparison
 * reads ../shared/corpus and is skipped, with the reason printed, without it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classifyPosts, segment, setUserDictionary, addUserWords, cleanText, trainTopic } from "../../../crawler/classify";
import { prepareTexts, segmentMany, stopSegmentThread, enableSegmentThread } from "../../../crawler/classify/segment-thread";
import { jiebaLoadedHere } from "../../../crawler/classify/tokenizer";
import { createTestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES } from "./fixtures";

const TEXTS = [
  "南京大学的同学们明天参加英语四级考试",
  "有人在四六级考试作弊被监考老师抓住了",
  "南大食堂的鸭血粉丝汤真好喝[哈哈]",
  "ＡＢＣ大学２０２４年招生简章发布",
  "",
  "同学们明天参加英语考试",
  "Hello world，CampusWatch 测试 2026",
].map((t) => cleanText(t));

const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/lilybbs-top10-titles.jsonl");
const hasCorpus = fs.existsSync(corpus);
if (!hasCorpus) console.warn(`[segment-thread] corpus comparison skipped: ${corpus} is absent (../shared is not beside the repo)`);

/** The synchronous tokens, computed after the thread's (so the thread runs first, on a cold process). */
const here = (texts: readonly string[], nounsOnly = false) => texts.map((t) => segment(t, { nounsOnly }));

describe("segmentMany on the jieba thread", () => {
  afterAll(async () => {
    enableSegmentThread(false);
    await stopSegmentThread();
  });

  it("segments without loading jieba on this thread, with the synchronous path's tokens", async () => {
    enableSegmentThread();
    setUserDictionary([]);
    const cut = await segmentMany(TEXTS);
    const nouns = await segmentMany(TEXTS, { nounsOnly: true });
    expect(jiebaLoadedHere()).toBe(false);
    expect(cut).toEqual(here(TEXTS));
    expect(nouns).toEqual(here(TEXTS, true));
    expect(cut[0]).toEqual(["南京大学", "同学", "明天", "参加", "英语", "四级", "考试"]);
    expect(cut[4]).toEqual([]);
  });

  it("follows the user dictionary: words added, then removed (the worker reloads)", async () => {
    setUserDictionary(["考试作弊", "南大食堂"]);
    addUserWords(["鸭血粉丝汤"]);
    const withWords = await segmentMany(TEXTS);
    expect(withWords[1]).toContain("考试作弊");
    expect(withWords[2]).toEqual(["南大食堂", "鸭血粉丝汤", "真", "好喝"]);
    expect(withWords).toEqual(here(TEXTS));
    setUserDictionary(["考试作弊"]);
    const fewer = await segmentMany(TEXTS);
    expect(fewer[2]).toEqual(["南大", "食堂", "鸭", "血", "粉丝汤", "真", "好喝"]);
    expect(fewer).toEqual(here(TEXTS));
    setUserDictionary([]);
  });

  it("starts a new worker after the last one was stopped, and answers requests in flight together", async () => {
    setUserDictionary(["鸭血粉丝汤"]);
    const first = await segmentMany(TEXTS);
    await stopSegmentThread();
    const [a, b] = await Promise.all([segmentMany(TEXTS), segmentMany(TEXTS.slice(0, 2))]);
    expect(a).toEqual(first);
    expect(b).toEqual(first.slice(0, 2));
    expect(first[2]).toContain("鸭血粉丝汤");
    setUserDictionary([]);
  });

  it("prepareTexts cleans and segments like prepareText", async () => {
    const [p] = await prepareTexts(["<p>今晚图书馆<b>闭馆</b>，请大家提前离开</p>"]);
    expect(p).toEqual({ cleaned: cleanText("<p>今晚图书馆<b>闭馆</b>，请大家提前离开</p>"), tokens: ["今晚", "图书馆", "闭馆", "提前", "离开"] });
  });

  it("classifyPosts with a trained topic writes the same verdicts with the thread on and off", async () => {
    const texts = ["第一次模拟考试的成绩出来了", "食堂的早餐还是包子", "有人在考场作弊被抓", "图书馆周末开放到十点", "期末考试安排公布了"];
    const verdicts = async (thread: boolean) => {
      enableSegmentThread(thread);
      const t = await createTestDb();
      try {
        const { ids } = await seedCampusPosts(t.db, texts);
        const topic = await t.db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), userDict: JSON.stringify(["模拟考试"]) } });
        await trainTopic(t.db, topic.id, CAMPUS_SAMPLES);
        await classifyPosts(t.db, ids);
        const rows = await t.db.classification.findMany({ orderBy: { postId: "asc" } });
        return rows.map(({ createdAt: _c, id: _i, ...r }) => r);
      } finally {
        await t.cleanup();
      }
    };
    const off = await verdicts(false);
    const on = await verdicts(true);
    expect(on).toEqual(off);
    expect(on).toHaveLength(texts.length);
    enableSegmentThread(true);
  });

  it.skipIf(!hasCorpus)("gives the synchronous tokens on 5,000 LilyBBS titles, with user words", async () => {
    const titles = fs
      .readFileSync(corpus, "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(0, 5000)
      .map((l) => cleanText((JSON.parse(l) as { text: string }).text));
    setUserDictionary(["南大", "小百合", "鼓楼校区"]);
    const threaded = await segmentMany(titles);
    expect(threaded).toEqual(here(titles));
    setUserDictionary([]);
  });
});
