/**
 * Self-training on crawled posts in a topic's full training (crawler/classify/self-train.ts): which
 * posts are offered, and that trainTopic uses them only with enough of them. SQLite, or PostgreSQL
 * with CAMPUSWATCH_TEST_DB.
 */
import { afterEach, describe, expect, it } from "vitest";
import { trainTopic } from "../../../crawler/classify";
import { MIN_SELF_TRAIN_POSTS } from "../../../crawler/classify/self-train";
import { unlabelledPostTexts } from "../../../crawler/classify/self-train-pool";
import type { Db } from "../../../lib/db";
import { createTestDb, type TestDb } from "../../support/db";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const CHATTER = ["今天好累啊，不想说话", "有人一起去看电影吗", "宿舍楼下的猫又来了", "期末考试复习资料哪里可以借到", "食堂的包子又涨价了"];

/** `n` posts (texts cycling through CHATTER, numbered), oldest first; returns their ids. */
async function seedPosts(db: Db, n: number): Promise<number[]> {
  const account = await db.account.create({ data: { platform: "discuz", entryUrl: "https://bbs.example.edu.cn/forum-2-1.html", name: "校园论坛" } });
  const data = Array.from({ length: n }, (_, i) => ({
    accountId: account.id,
    platformId: `p${i + 1}`,
    url: `https://bbs.example.edu.cn/thread-${i + 1}-1-1.html`,
    title: "",
    publishedAt: new Date(Date.UTC(2025, 5, 1)),
    text: `${CHATTER[i % CHATTER.length] as string} ${i + 1}`,
    sha1: `sha${i + 1}`,
  }));
  for (let i = 0; i < data.length; i += 500) await db.post.createMany({ data: data.slice(i, i + 500) });
  return (await db.post.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((p) => p.id);
}

describe("self-training on crawled posts", () => {
  it("offers the newest posts with their OCR text, leaving out those the topic has a review sample of", async () => {
    t = await createTestDb();
    const { db } = t;
    const ids = await seedPosts(db, 6);
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    await db.post.update({ where: { id: ids[5] }, data: { ocrText: "图片里的字" } });
    await db.topicSample.create({ data: { topicId: topic.id, postId: ids[4] as number, source: "review", label: "off-topic", text: "x" } });
    expect(await unlabelledPostTexts(db, topic.id, 3)).toEqual([
      "今天好累啊，不想说话 6\n图片里的字",
      "期末考试复习资料哪里可以借到 4",
      "宿舍楼下的猫又来了 3",
    ]);
    expect(await unlabelledPostTexts(db, topic.id, 0)).toEqual([]);
  });

  it("trainTopic pseudo-labels a share of the uploads' worth of posts once there are enough, and none when turned off", async () => {
    t = await createTestDb();
    const { db } = t;
    await seedPosts(db, MIN_SELF_TRAIN_POSTS);
    // The kind that self-trains (crawler/classify/self-train.ts: SELF_TRAIN_KINDS).
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), classifier: "nb" } });
    const r = await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    // 0.8 × the uploads, one sample each (a small topic is not swamped by the crawl).
    expect(r.selfTrain).toMatchObject({ offered: MIN_SELF_TRAIN_POSTS, used: Math.floor(0.8 * CAMPUS_SAMPLES.length), weight: 1 });
    expect(r.samples).toBe(CAMPUS_SAMPLES.length);

    const saved = process.env.CAMPUSWATCH_SELF_TRAIN_POSTS;
    process.env.CAMPUSWATCH_SELF_TRAIN_POSTS = "0";
    try {
      expect((await trainTopic(db, topic.id)).selfTrain).toEqual({ offered: 0, used: 0, onTopic: 0, weight: 0 });
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_SELF_TRAIN_POSTS;
      else process.env.CAMPUSWATCH_SELF_TRAIN_POSTS = saved;
    }
  });
});
