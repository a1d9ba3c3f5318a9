/**
 * Classifying stored posts (real SQLite, or PostgreSQL with CAMPUSWATCH_TEST_DB=postgresql):
 * each post gets Post.sentiment and Post.sentimentScore, from the built-in lexicon and then from a
 * trained model file; keyword rules flag posts with a reason naming the rule that matched; the
 * topic CLI refuses a bad rule with its line and position. Every text was written for this test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { classifyPosts } from "../../../crawler/classify";
import { saveSentimentModel, trainSentiment } from "../../../crawler/classify/sentiment";
import { rescoreSentiment } from "../../../crawler/classify/sentiment-rescore";
import { createTestDb, type TestDb } from "../../support/db";
import { runTopicsCli, seedCampusPosts } from "../../support/topics";

let t: TestDb | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-sentiment-"));
const savedEnv = process.env.CAMPUSWATCH_SENTIMENT_MODEL;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  process.env.CAMPUSWATCH_SENTIMENT_MODEL = savedEnv;
  if (savedEnv === undefined) delete process.env.CAMPUSWATCH_SENTIMENT_MODEL;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const POSTS = [
  "二食堂的饭菜太难吃了，还吃出了虫子，投诉也没人管",
  "感谢图书馆老师耐心帮忙，服务很好，非常满意",
  "教务处通知：下周一开始选课",
  "饭堂今天好多人拉肚子，是不是中毒了",
  "食堂招商广告：窗口出租，有人拉肚子不负责",
  "代考加我 12345678 保过",
  "这次宿舍维修不满意，一点都不开心",
];

describe("classification stores sentiment and keyword-rule flags", () => {
  it("judges each post with the lexicon, then with an installed model, and flags by rules", async () => {
    process.env.CAMPUSWATCH_SENTIMENT_MODEL = "lexicon";
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedCampusPosts(db, POSTS);
    const topic = await db.topic.create({
      data: { name: "食品安全", keywords: JSON.stringify(["(食堂|饭堂) (中毒|拉肚子)", "!广告", "/代考.{0,6}\\d{5,11}/"]) },
    });

    await classifyPosts(db, ids);
    const rows = await db.post.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" }, select: { sentiment: true, sentimentScore: true } });
    expect(rows.map((r) => r.sentiment)).toEqual(["negative", "positive", "neutral", "negative", "negative", "neutral", "negative"]);
    // Lexicon P(negative) = (neg + 1) / (neg + pos + 2): 难吃, 虫子, 投诉 → 4/5; 感谢, 耐心, 满意 → 1/5.
    expect(rows[0]!.sentimentScore).toBeCloseTo(4 / 5, 6);
    expect(rows[1]!.sentimentScore).toBeCloseTo(1 / 5, 6);
    expect(rows[2]!.sentimentScore).toBeCloseTo(0.5, 6);

    const flags = await db.flag.findMany({ where: { topicId: topic.id }, orderBy: { postId: "asc" } });
    expect(flags.map((f) => f.postId)).toEqual([ids[3], ids[5]]);
    const details = flags.map((f) => (JSON.parse(f.reasons) as { kind: string; detail: string }[]).map((r) => `${r.kind}: ${r.detail}`));
    expect(details).toEqual([["keyword: (食堂|饭堂) (中毒|拉肚子) → 饭堂 + 中毒 + 拉肚子"], ["keyword: /代考.{0,6}\\d{5,11}/ → 代考加我 12345678"]]);

    // A model trained on the project's own sentences, installed as a file, takes over at the next batch.
    const places = ["食堂", "宿舍", "图书馆", "快递点", "体育馆", "教学楼"];
    const bad = ["太差劲了", "让人失望透顶", "服务糟糕", "脏乱不堪", "真让人生气"];
    const good = ["非常满意", "真不错", "服务很好", "干净整洁", "让人开心"];
    const samples = places.flatMap((p) => [
      ...bad.map((b) => ({ label: "negative", text: `${p}${b}` })),
      ...good.map((g) => ({ label: "positive", text: `${p}${g}` })),
    ]);
    const model = trainSentiment(samples, { corpusFile: "test-sentences" });
    const file = path.join(tmp, "sentiment-model.json");
    saveSentimentModel(model, file);
    process.env.CAMPUSWATCH_SENTIMENT_MODEL = file;
    await classifyPosts(db, ids);
    const expected = await model.judge(POSTS);
    const after = await db.post.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" }, select: { sentiment: true, sentimentScore: true } });
    after.forEach((r, i) => {
      expect(r.sentiment).toBe(expected[i]!.sentiment);
      expect(r.sentimentScore).toBeCloseTo(expected[i]!.score, 9);
    });
    // The model file holds derived weights and figures, not the training sentences.
    expect(fs.readFileSync(file, "utf8")).not.toContain("让人失望透顶");

    // Posts stored before sentiment existed: `sentiment rescore` fills them.
    await db.post.updateMany({ where: { id: { in: ids.slice(0, 2) } }, data: { sentiment: null, sentimentScore: null } });
    expect(await rescoreSentiment(db)).toBe(2);
    expect(await db.post.count({ where: { id: { in: ids }, sentiment: null } })).toBe(0);
  }, 120_000);

  it("the topic CLI takes rules, keeps a regex's commas, and refuses a bad rule with its line and position", async () => {
    t = await createTestDb();
    const { db } = t;
    const ok = await runTopicsCli(db, "topics", "add", "--name", "考试", "--keywords", "/泄题.{0,10}答案/, 考试 !驾照", "--keywords", "(作弊|代考)");
    expect(ok.code).toBe(0);
    const stored = await db.topic.findUniqueOrThrow({ where: { name: "考试" } });
    expect(JSON.parse(stored.keywords)).toEqual(["/泄题.{0,10}答案/", "考试 !驾照", "(作弊|代考)"]);

    const refused = await runTopicsCli(db, "topics", "set", "考试", "--keywords", "考试\n/食堂.*中毒/");
    expect(refused.code).toBe(1);
    expect(refused.err.join("\n")).toContain("--keywords: line 2, position 5: unbounded repeats");
    // Nothing was lost: the stored rules are unchanged.
    expect((await db.topic.findUniqueOrThrow({ where: { name: "考试" } })).keywords).toBe(stored.keywords);
  });
});
