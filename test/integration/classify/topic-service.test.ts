import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";
import {
  classifyPosts,
  DISMISSED_LABEL,
  rescoreTopic,
  samplesFromReviews,
  TopicModel,
  trainTopic,
  TrainingError,
  type FlagReason,
  type TopicProgress,
} from "../../../crawler/classify";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const seedPosts = seedCampusPosts;

const reasonsOf = (json: string) => (JSON.parse(json) as FlagReason[]).map((r) => r.kind);

describe("classifyPosts", () => {
  it("an untrained topic flags on keywords and sensitive words, with reasons", async () => {
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedPosts(db, [
      "期末考试下周开始，大家加油", // keyword
      "二食堂的麻辣烫涨价了", // nothing
      "听说有人在四六级考试作弊", // keyword + overlapping sensitive words
      "有人在群里卖答案，说能代考", // sensitive only
    ]);
    const topic = await db.topic.create({
      data: {
        name: "考试",
        keywords: JSON.stringify(["考试", "补考"]),
        sensitiveWords: JSON.stringify(["考试作弊", "作弊", "代考"]),
      },
    });
    const r = await classifyPosts(db, ids);
    expect(r).toMatchObject({ posts: 4, classifications: 4, flagsOpened: 3, flagsClosed: 0 });

    const cls = await db.classification.findMany({ where: { topicId: topic.id }, orderBy: { postId: "asc" } });
    expect(cls.map((c) => [c.label, c.relevant, c.score, c.modelVersion])).toEqual([
      ["on-topic", true, 0, 0],
      ["off-topic", false, 0, 0],
      ["on-topic", true, 0, 0],
      ["off-topic", false, 0, 0],
    ]);
    expect(JSON.parse(cls[2]?.sensitiveHits ?? "")).toEqual(["考试作弊", "作弊"]);

    const flags = await db.flag.findMany({ where: { topicId: topic.id }, orderBy: { postId: "asc" } });
    expect(flags.map((f) => [f.postId, reasonsOf(f.reasons)])).toEqual([
      [ids[0], ["keyword"]],
      [ids[2], ["sensitive", "keyword"]],
      [ids[3], ["sensitive"]],
    ]);
    const sensitive = (JSON.parse(flags[1]?.reasons ?? "[]") as FlagReason[]).find((x) => x.kind === "sensitive");
    // Offsets are in the cleaned text: "听说有人在四六级考试作弊".
    expect(sensitive?.detail).toBe("考试作弊 @8–12, 作弊 @10–12");
  });

  it("a trained topic flags by classifier; re-classifying closes open flags but never reviewed ones", async () => {
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedPosts(db, ["明天的高数考试我还没复习完，好慌", "三食堂的红烧肉今天特别好吃", "监考老师发现有人带小抄"]);
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    const progress: TopicProgress[] = [];
    const trained = await trainTopic(db, topic.id, CAMPUS_SAMPLES, { onProgress: (p) => progress.push(p) });
    expect(trained.modelVersion).toBe(1);
    expect(trained.samples).toBe(48);
    expect(trained.evaluation?.samples).toBe(5);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(["train", "evaluate", "store"]));
    const stored = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(TopicModel.fromJSON(stored.model ?? "").relevantLabels).toEqual(["考试"]);
    expect(JSON.parse(stored.evaluation ?? "{}")).toHaveProperty("classifier.f1");
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "upload" } })).toBe(48);

    await classifyPosts(db, ids);
    const cls = await db.classification.findMany({ where: { topicId: topic.id }, orderBy: { postId: "asc" } });
    expect(cls.map((c) => [c.label, c.relevant, c.modelVersion])).toEqual([
      ["on-topic", true, 1],
      ["off-topic", false, 1],
      ["on-topic", true, 1],
    ]);
    expect(cls[0]?.score).toBeGreaterThan(0.5);
    expect(cls[1]?.score).toBeLessThan(0.5);
    expect(JSON.parse(cls[0]?.topTerms ?? "[]")).not.toEqual([]);
    let flags = await db.flag.findMany({ where: { topicId: topic.id }, orderBy: { postId: "asc" } });
    expect(flags.map((f) => f.postId)).toEqual([ids[0], ids[2]]);
    expect(reasonsOf(flags[0]?.reasons ?? "[]")).toContain("classifier");
    expect(flags[0]?.score).toBeCloseTo(cls[0]?.score ?? 0, 12);

    // A reviewer confirms the first flag; then both posts are edited into canteen talk.
    await db.flag.update({ where: { id: flags[0]?.id }, data: { status: "confirmed", reviewedAt: new Date() } });
    await db.post.updateMany({ where: { id: { in: [ids[0] as number, ids[2] as number] } }, data: { text: "食堂的早餐包子很好吃" } });
    const r = await classifyPosts(db, ids);
    expect(r.flagsClosed).toBe(1);
    flags = await db.flag.findMany({ where: { topicId: topic.id } });
    expect(flags.map((f) => [f.postId, f.status])).toEqual([[ids[0], "confirmed"]]);
    // Still one Classification per post × topic after re-classifying.
    expect(await db.classification.count({ where: { topicId: topic.id } })).toBe(3);
  });

  it("skips disabled topics and only scores the topics asked for", async () => {
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedPosts(db, ["期末考试成绩公布了", "食堂涨价"]);
    const exam = await db.topic.create({ data: { name: "考试", keywords: '["考试"]' } });
    const canteen = await db.topic.create({ data: { name: "食堂", keywords: '["食堂"]' } });
    await db.topic.create({ data: { name: "停用", keywords: '["考试"]', enabled: false } });
    await classifyPosts(db, ids, { topics: [canteen.id] });
    expect((await db.classification.findMany()).map((c) => c.topicId)).toEqual([canteen.id, canteen.id]);
    await classifyPosts(db, ids);
    const topicIds = (await db.classification.findMany()).map((c) => c.topicId).sort();
    expect(topicIds).toEqual([exam.id, exam.id, canteen.id, canteen.id].sort());
  });
});

describe("training from reviews and re-scoring", () => {
  it("turns the latest review decision per flag into a sample", async () => {
    t = await createTestDb();
    const { db } = t;
    const { ids } = await seedPosts(db, ["考试周图书馆通宵开放", "食堂的饭菜又涨价了", "补考名单出来了"]);
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    const user = await db.user.create({ data: { username: "reviewer", passwordHash: "x" } });
    const flag = (postId: number) => db.flag.create({ data: { postId, topicId: topic.id, reasons: "[]", score: 0.6 } });
    const [f1, f2, f3] = [await flag(ids[0] as number), await flag(ids[1] as number), await flag(ids[2] as number)];
    await db.review.create({ data: { flagId: f1.id, reviewerId: user.id, decision: "confirm", createdAt: new Date("2025-06-01T00:00:00Z") } });
    await db.review.create({ data: { flagId: f2.id, reviewerId: user.id, decision: "confirm", createdAt: new Date("2025-06-01T00:00:00Z") } });
    // Changed their mind: the later dismissal wins.
    await db.review.create({ data: { flagId: f2.id, reviewerId: user.id, decision: "dismiss", createdAt: new Date("2025-06-02T00:00:00Z") } });
    void f3; // flagged but never reviewed: no sample
    const samples = await samplesFromReviews(db, topic.id);
    expect(samples.sort((a, b) => a.text.localeCompare(b.text))).toEqual(
      [
        { text: "考试周图书馆通宵开放", label: "考试" },
        { text: "食堂的饭菜又涨价了", label: DISMISSED_LABEL },
      ].sort((a, b) => a.text.localeCompare(b.text)),
    );

    // The next training uses them on top of the uploaded samples.
    const r = await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    expect(r.reviewSamples).toBe(2);
    expect(r.samples).toBe(50);
    expect(r.labels[DISMISSED_LABEL]).toBe(1);
  });

  it("re-scores every stored post in batches with progress", async () => {
    t = await createTestDb();
    const { db } = t;
    const texts = Array.from({ length: 7 }, (_, i) => (i % 2 === 0 ? `第${i + 1}次模拟考试的成绩出来了` : `第${i + 1}天食堂的早餐还是包子`));
    await seedPosts(db, texts);
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    const progress: TopicProgress[] = [];
    const r = await rescoreTopic(db, topic.id, { batchSize: 3, onProgress: (p) => progress.push(p) });
    expect(r.posts).toBe(7);
    expect(progress.map((p) => p.done)).toEqual([3, 6, 7]);
    expect(progress.at(-1)?.total).toBe(7);
    expect(await db.flag.count({ where: { topicId: topic.id } })).toBe(4);
  });

  it("refuses to train without relevant labels, or on a single class", async () => {
    t = await createTestDb();
    const { db } = t;
    const topic = await db.topic.create({ data: { name: "考试" } });
    await expect(trainTopic(db, topic.id, CAMPUS_SAMPLES)).rejects.toThrow(/has no relevant labels/);
    const exams = CAMPUS_SAMPLES.filter((s) => s.label === "考试");
    await expect(trainTopic(db, topic.id, exams, { relevantLabels: ["考试"] })).rejects.toBeInstanceOf(TrainingError);
    expect((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).modelVersion).toBe(0);
  });
});
