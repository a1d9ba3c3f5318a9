/**
 * Topics without a model (keywords and sensitive words only) read the cleaned text alone, so a
 * process whose topics are all untrained never loads jieba (about 220 MiB and half a second): the
 * demo's topic and every new topic until it is trained. Once a topic has a model, posts are
 * segmented again. This file runs in a process of its own, so jieba's state here is its own.
 */
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts, trainTopic } from "../../../crawler/classify";
import { jiebaLoadedHere } from "../../../crawler/classify/tokenizer";
import { createTestDb, type TestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe("keyword-only topics", () => {
  it("flag on keywords and sensitive words without loading jieba; a trained topic segments", async () => {
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedCampusPosts(db, ["期末考试下周开始", "二食堂的麻辣烫涨价了", "有人在群里说能代考"]);
    const exams = await db.topic.create({
      data: { name: "考试", keywords: JSON.stringify(["考试"]), sensitiveWords: JSON.stringify(["代考"]), userDict: JSON.stringify(["麻辣烫"]) },
    });
    const r = await classifyPosts(db, ids);
    expect(r).toMatchObject({ posts: 3, classifications: 3, flagsOpened: 2 });
    const flags = await db.flag.findMany({ where: { topicId: exams.id }, orderBy: { postId: "asc" } });
    expect(flags.map((f) => f.postId)).toEqual([ids[0], ids[2]]);
    expect(flags.map((f) => (JSON.parse(f.reasons) as { kind: string }[]).map((x) => x.kind))).toEqual([["keyword"], ["sensitive"]]);
    expect(jiebaLoadedHere()).toBe(false);

    const trained = await db.topic.create({ data: { name: "考试（训练）", relevantLabels: JSON.stringify(["考试"]) } });
    await trainTopic(db, trained.id, CAMPUS_SAMPLES);
    await classifyPosts(db, ids);
    expect(jiebaLoadedHere()).toBe(true);
    const verdicts = await db.classification.findMany({ where: { topicId: trained.id } });
    expect(verdicts).toHaveLength(3);
    expect(verdicts.some((v) => (JSON.parse(v.topTerms) as unknown[]).length > 0)).toBe(true);
  });
});
