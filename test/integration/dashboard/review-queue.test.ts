import { afterEach, describe, expect, it } from "vitest";
import { trainTopic } from "../../../crawler/classify";
import { createJobRunner } from "../../../crawler/jobs";
import type { Db } from "../../../lib/db";
import { answerQueue, QUEUE_POOL, reviewQueue, reviewQueueSize } from "../../../server/review-queue";
import { createTestDb, type TestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** A trained 考试 topic (threshold 0.5), a reviewer, and `texts` as posts (one a day, newest last) with the given stored scores. */
async function setup(db: Db, texts: readonly string[], scores: readonly number[]) {
  const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
  await trainTopic(db, topic.id, CAMPUS_SAMPLES);
  const reviewer = await db.user.create({ data: { username: "reviewer", passwordHash: "x", role: "reviewer" } });
  const { ids } = await seedCampusPosts(db, texts);
  for (const [i, postId] of ids.entries()) {
    const score = scores[i] as number;
    await db.classification.create({
      data: { postId, topicId: topic.id, score, cosine: 0.1, label: score >= 0.5 ? "考试" : "off-topic", relevant: score >= 0.5 },
    });
  }
  return { topic, reviewer, postIds: ids };
}

describe("the 待复核 queue", () => {
  it("lists the least sure posts first, skips near-duplicates, deleted and answered posts; an untrained topic has none", async () => {
    t = await createTestDb();
    const { db } = t;
    const texts = ["期末考试时间表公布了", "【转】期末考试时间表公布了", "食堂今天的面条很好吃", "图书馆考试周通宵开放", "<script>alert(1)</script> 补考名单"];
    const { topic, postIds } = await setup(db, texts, [0.52, 0.5, 0.05, 0.4, 0.7]);
    const q = await reviewQueue(db, topic.id);
    expect(q).toMatchObject({ topicId: topic.id, topicName: "考试", threshold: 0.5, pool: 5 });
    expect(q?.modelVersion).toBeGreaterThan(0);
    // Margins: 0 (the 【转】 copy), 0.02 (its near-duplicate: skipped), 0.1, 0.2, 0.45.
    expect(q?.items.map((i) => i.postId)).toEqual([postIds[1], postIds[3], postIds[4], postIds[2]]);
    const first = q?.items[0];
    expect(first).toMatchObject({
      excerpt: "【转】期末考试时间表公布了",
      accountName: "校园论坛",
      platform: "discuz",
      score: 0.5,
      margin: 0,
      flagStatus: null,
    });
    expect(first?.margin).toBe(0);
    // Crawled text is passed through as plain text (the page renders it as text, never HTML).
    expect(q?.items[2]?.excerpt).toBe("<script>alert(1)</script> 补考名单");
    expect((await reviewQueue(db, topic.id, { limit: 2 }))?.items).toHaveLength(2);
    expect(await reviewQueueSize(db, topic.id)).toBe(5);

    await db.post.update({ where: { id: postIds[3] }, data: { deletedAt: new Date() } });
    const reviewer = await db.user.findFirstOrThrow();
    expect(await answerQueue(db, topic.id, postIds[1] as number, true, { id: reviewer.id, username: "reviewer" })).toMatchObject({ ok: true });
    const after = await reviewQueue(db, topic.id);
    // The answered copy and the deleted post are gone; the original is no longer shadowed by its copy.
    expect(after?.items.map((i) => i.postId)).toEqual([postIds[0], postIds[4], postIds[2]]);
    expect(after?.pool).toBe(3);
    expect(await reviewQueueSize(db, topic.id)).toBe(3);

    const untrained = await db.topic.create({ data: { name: "食堂" } });
    await db.classification.create({ data: { postId: postIds[0] as number, topicId: untrained.id, score: 0, label: "off-topic", relevant: false } });
    expect(await reviewQueue(db, untrained.id)).toMatchObject({ modelVersion: 0, pool: 0, items: [] });
    expect(await reviewQueueSize(db, untrained.id)).toBe(0);
    expect(await reviewQueue(db, 9999)).toBeNull();
  });

  it("fills its pool past answered posts, newest first, up to the pool size", async () => {
    t = await createTestDb();
    const { db } = t;
    const n = QUEUE_POOL + 60;
    // Texts with no shingle in common (a fixed-seed generator), so the diversity filter keeps all.
    let seed = 42;
    const word = () => Array.from({ length: 12 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), "abcdefghijklmnopqrstuvwxyz"[seed % 26])).join("");
    const texts = Array.from({ length: n }, () => word());
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    const account = await db.account.create({ data: { platform: "discuz", entryUrl: "https://bbs.example.edu.cn/forum-2-1.html", name: "校园论坛" } });
    await db.post.createMany({
      data: texts.map((text, i) => ({
        accountId: account.id,
        platformId: `p${i}`,
        url: `https://bbs.example.edu.cn/t-${i}`,
        publishedAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
        text,
        sha1: `s${i}`,
      })),
    });
    const postIds = (await db.post.findMany({ orderBy: { publishedAt: "asc" }, select: { id: true } })).map((p) => p.id);
    await db.classification.createMany({ data: postIds.map((postId) => ({ postId, topicId: topic.id, score: 0.5, label: "考试", relevant: true })) });
    // The 40 newest are answered already: the pool reaches back past them to older posts.
    const newest = postIds.slice(-40);
    await db.topicSample.createMany({ data: newest.map((postId) => ({ topicId: topic.id, postId, source: "review", label: "考试", text: "x" })) });
    const q = await reviewQueue(db, topic.id, { limit: 3 });
    // 1,020 unanswered: the pool stops at its size.
    expect(q?.pool).toBe(QUEUE_POOL);
    // Equal margins: newest unanswered first.
    expect(q?.items.map((i) => i.postId)).toEqual(postIds.slice(-43, -40).reverse());
  });

  it("an answer is a review sample with the OCR text, replaced by a second answer, and asks for a learn job that folds it in", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds } = await setup(db, ["补考安排已经公布", "二食堂今天的包子很好吃"], [0.45, 0.55]);
    await db.post.update({ where: { id: postIds[0] }, data: { ocrText: "图片里的补考名单" } });
    const before = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });

    const r = await answerQueue(db, topic.id, postIds[0] as number, true, { id: reviewer.id, username: "reviewer" });
    expect(r).toEqual({ ok: true, replaced: false, flagReviewed: false, learnRequested: true });
    expect(
      await db.topicSample.findMany({ where: { topicId: topic.id, source: "review" }, select: { postId: true, label: true, text: true, learnedAt: true } }),
    ).toEqual([{ postId: postIds[0], label: "考试", text: "补考安排已经公布\n图片里的补考名单", learnedAt: null }]);
    const job = await db.job.findFirstOrThrow({ where: { kind: "learn" } });
    expect(job).toMatchObject({ key: `topic:${topic.id}`, status: "queued", requestedBy: reviewer.id });

    // A changed mind before the job ran: one sample, the second answer; the same queued job reads it.
    expect(await answerQueue(db, topic.id, postIds[0] as number, false, { id: reviewer.id, username: "reviewer" })).toMatchObject({ ok: true, replaced: true });
    expect(await db.topicSample.findMany({ where: { topicId: topic.id, source: "review" }, select: { label: true } })).toEqual([{ label: "off-topic" }]);
    expect(await db.job.count({ where: { kind: "learn" } })).toBe(1);

    const done = await createJobRunner({ db }).run(job.id);
    expect(done?.status).toBe("done");
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after).toMatchObject({ modelVersion: before.modelVersion + 1, reviewsLearned: 1 });
    // Answering a learned post again: replaced, and the next learn retrains in full.
    expect(await answerQueue(db, topic.id, postIds[0] as number, true, { id: reviewer.id, username: "reviewer" })).toMatchObject({ ok: true, replaced: true });
    expect((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).retrainDue).toBe(true);
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review" } })).toBe(1);
  });

  it("a flagged post is answered through its flag: the flag is reviewed, one sample, the flagged list agrees", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds } = await setup(db, ["期末考试延期一周"], [0.55]);
    const flag = await db.flag.create({ data: { postId: postIds[0] as number, topicId: topic.id, reasons: "[]", score: 0.55 } });
    expect((await reviewQueue(db, topic.id))?.items[0]).toMatchObject({ postId: postIds[0], flagStatus: "open" });
    const r = await answerQueue(db, topic.id, postIds[0] as number, false, { id: reviewer.id, username: "reviewer" });
    expect(r).toEqual({ ok: true, replaced: false, flagReviewed: true, learnRequested: true });
    expect(await db.flag.findUniqueOrThrow({ where: { id: flag.id } })).toMatchObject({ status: "dismissed" });
    expect(await db.review.findMany({ select: { flagId: true, reviewerId: true, decision: true } })).toEqual([
      { flagId: flag.id, reviewerId: reviewer.id, decision: "dismiss" },
    ]);
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review" } })).toBe(1);
    expect((await reviewQueue(db, topic.id))?.items).toEqual([]);
  });

  it("a deleted post or topic is refused with the reason and changes nothing", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds } = await setup(db, ["期末考试时间表", "考试周食堂延长营业", "四六级报名"], [0.5, 0.5, 0.5]);
    await db.post.update({ where: { id: postIds[1] }, data: { deletedAt: new Date() } });
    await db.post.delete({ where: { id: postIds[0] } });
    expect(await answerQueue(db, topic.id, postIds[0] as number, true, { id: reviewer.id, username: "reviewer" })).toEqual({
      ok: false,
      reason: "post-gone",
      message: `post ${postIds[0]} no longer exists`,
    });
    expect(await answerQueue(db, topic.id, postIds[1] as number, true, { id: reviewer.id, username: "reviewer" })).toEqual({
      ok: false,
      reason: "post-deleted",
      message: `post ${postIds[1]} was deleted on its platform`,
    });
    await db.topic.delete({ where: { id: topic.id } });
    expect(await answerQueue(db, topic.id, postIds[2] as number, true, { id: reviewer.id, username: "reviewer" })).toEqual({
      ok: false,
      reason: "topic-gone",
      message: `topic ${topic.id} no longer exists`,
    });
    expect(await db.topicSample.count({ where: { source: "review" } })).toBe(0);
    expect(await db.job.count({ where: { kind: "learn" } })).toBe(0);
  });
});
