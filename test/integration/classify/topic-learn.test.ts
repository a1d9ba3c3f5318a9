import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts, learnTopic, TopicModel, trainTopic, type TopicProgress } from "../../../crawler/classify";
import { createJobRunner, jobHandlers, requestJob } from "../../../crawler/jobs";
import { createInProcessQueue } from "../../../crawler/queue/in-process";
import { Scheduler } from "../../../crawler/scheduler";
import type { Db } from "../../../lib/db";
import { reviewFlagsReport } from "../../../server/reviews";
import { topicLearning } from "../../../server/topic-learning";
import { createTestDb, type TestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES, CANTEEN, EXAM } from "../../unit/classify/fixtures";

const root = path.resolve(import.meta.dirname, "../../..");
let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** A trained 考试 topic (with `sensitiveWords`), a reviewer, and one flag per post of `texts` (open, score 0.6). */
async function setup(db: Db, texts: readonly string[], sensitiveWords: string[] = []) {
  const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), sensitiveWords: JSON.stringify(sensitiveWords) } });
  await trainTopic(db, topic.id, CAMPUS_SAMPLES);
  const reviewer = await db.user.create({ data: { username: "reviewer", passwordHash: "x", role: "reviewer" } });
  const { ids } = await seedCampusPosts(db, texts);
  const flags = [];
  for (const postId of ids) flags.push(await db.flag.create({ data: { postId, topicId: topic.id, reasons: "[]", score: 0.6 } }));
  return { topic, reviewer, postIds: ids, flagIds: flags.map((f) => f.id) };
}

const review = (db: Db, flagIds: number[], decision: "confirm" | "dismiss", reviewerId: number) =>
  reviewFlagsReport(db, { flagIds, decision, note: "" }, { id: reviewerId, username: "reviewer" });

/** Run the topic's queued job (what the scheduler hands to a worker within a second). */
async function runQueued(db: Db, topicId: number) {
  const job = await db.job.findFirstOrThrow({ where: { key: `topic:${topicId}`, status: "queued" } });
  return createJobRunner({ db }).run(job.id);
}

describe("reviews train the topic", () => {
  it("a review stores a sample with the OCR text and queues a learn job that folds it in and re-scores open flags", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds, flagIds } = await setup(db, ["补考安排已经公布", "二食堂今天的包子很好吃"]);
    await db.post.update({ where: { id: postIds[0] }, data: { ocrText: "图片里的补考名单" } });
    const before = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });

    const r = await review(db, [flagIds[0] as number], "confirm", reviewer.id);
    expect(r).toEqual({ reviewed: 1, missing: [], learnTopics: [topic.id] });
    const sample = await db.topicSample.findFirstOrThrow({ where: { topicId: topic.id, source: "review" } });
    expect(sample).toMatchObject({ label: "考试", text: "补考安排已经公布\n图片里的补考名单", learnedAt: null });
    const job = await db.job.findFirstOrThrow({ where: { kind: "learn" } });
    expect(job).toMatchObject({ key: `topic:${topic.id}`, status: "queued", requestedBy: reviewer.id });

    const done = await runQueued(db, topic.id);
    expect(done?.status).toBe("done");
    expect(done?.result).toMatchObject({ step: "learned", values: { version: before.modelVersion + 1, reviews: 1, closed: 1 } });
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after).toMatchObject({
      modelVersion: before.modelVersion + 1,
      reviewsLearned: 1,
      reviewsSinceRetrain: 1,
      trainUploadSamples: CAMPUS_SAMPLES.length,
    });
    expect(TopicModel.fromJSON(after.model).toJSON()).toMatchObject({ folded: 1, samples: CAMPUS_SAMPLES.length + 1 });
    expect((await db.topicSample.findUniqueOrThrow({ where: { id: sample.id } })).learnedAt).not.toBeNull();
    // The canteen post's open flag had no reason left under the new model: re-scoring closed it.
    expect(await db.flag.count({ where: { id: flagIds[1] } })).toBe(0);

    // Nothing new: a second learn changes nothing.
    expect(await learnTopic(db, topic.id)).toMatchObject({ mode: "nothing", reason: "no review samples to learn", modelVersion: after.modelVersion });
  });

  it("a review stored after the learn job's last look, while its row still says running, is learned by a job asked for when it finishes", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["补考安排已经公布", "期末考试的考场安排"]);
    await review(db, [flagIds[0] as number], "confirm", reviewer.id);
    const first = await db.job.findFirstOrThrow({ where: { key: `topic:${topic.id}`, status: "queued" } });
    // The second answer lands after learnTopic's last look but before the runner marks the job
    // done: its request finds the running job and makes none (one job per key).
    let late: Awaited<ReturnType<typeof requestJob>> | undefined;
    const handlers = {
      ...jobHandlers,
      learn: async (ctx: Parameters<typeof jobHandlers.learn>[0], spec: Parameters<typeof jobHandlers.learn>[1]) => {
        const out = await jobHandlers.learn(ctx, spec);
        await review(db, [flagIds[1] as number], "confirm", reviewer.id);
        late = await requestJob(db, { kind: "learn", topicId: topic.id });
        return out;
      },
    };
    expect((await createJobRunner({ db, handlers }).run(first.id))?.status).toBe("done");
    expect(late?.created).toBe(false);
    const waiting = await db.topicSample.findFirstOrThrow({ where: { topicId: topic.id, source: "review", learnedAt: null } });
    // The runner asked for the next job once the first was finished; it folds the late answer in.
    const next = await runQueued(db, topic.id);
    expect(next?.result).toMatchObject({ step: "learned", values: { reviews: 1 } });
    expect((await db.topicSample.findUniqueOrThrow({ where: { id: waiting.id } })).learnedAt).not.toBeNull();
    // Nothing waits now: no further job.
    expect(await db.job.count({ where: { key: `topic:${topic.id}`, status: { in: ["queued", "running"] } } })).toBe(0);
  });

  it("reviews weighing W (CAMPUSWATCH_REVIEW_WEIGHT) are folded in W times, the counts a full retrain makes", async () => {
    const saved = process.env.CAMPUSWATCH_REVIEW_WEIGHT;
    process.env.CAMPUSWATCH_REVIEW_WEIGHT = "5";
    try {
      t = await createTestDb();
      const { db } = t;
      const { topic, reviewer, flagIds } = await setup(db, ["补考安排已经公布", "二食堂今天的包子很好吃"]);
      await review(db, [flagIds[0] as number], "confirm", reviewer.id);
      await review(db, [flagIds[1] as number], "dismiss", reviewer.id);
      expect(await learnTopic(db, topic.id)).toMatchObject({ mode: "folded", learned: 2 });
      const folded = TopicModel.fromJSON((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).model).toJSON();
      expect(folded).toMatchObject({ folded: 2, samples: CAMPUS_SAMPLES.length + 2 });
      const sum = (xs: number[]) => xs.reduce((p, q) => p + q, 0);
      expect(sum(folded.naiveBayes.classDocs)).toBe(CAMPUS_SAMPLES.length + 2 * 5);

      expect(await trainTopic(db, topic.id)).toMatchObject({ reviewSamples: 2, reviewWeight: 5, samples: CAMPUS_SAMPLES.length + 2 });
      const full = TopicModel.fromJSON((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).model).toJSON();
      const counted = (m: typeof full) => {
        const { classes, classDocs, words, grams, counts } = m.naiveBayes;
        return { classes, classDocs, words, grams, counts };
      };
      expect(counted(folded)).toEqual(counted(full));
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_REVIEW_WEIGHT;
      else process.env.CAMPUSWATCH_REVIEW_WEIGHT = saved;
    }
  });

  it("every N review samples the learn job retrains in full, with an evaluation on held-out reviews, read by topicLearning", async () => {
    t = await createTestDb();
    const { db } = t;
    const texts = [...EXAM.slice(0, 6).map((s) => `${s}（论坛）`), ...CANTEEN.slice(0, 6).map((s) => `${s}（论坛）`)];
    // Every post carries a sensitive word, so re-scoring keeps their flags open for the reviews to come.
    const { topic, reviewer, flagIds } = await setup(db, texts, ["论坛"]);
    await review(db, flagIds.slice(0, 2), "confirm", reviewer.id);
    expect(await learnTopic(db, topic.id, { retrainEvery: 10 })).toMatchObject({ mode: "folded", learned: 2 });
    await review(db, flagIds.slice(2, 6), "confirm", reviewer.id);
    await review(db, flagIds.slice(6), "dismiss", reviewer.id);
    const r = await learnTopic(db, topic.id, { retrainEvery: 10 });
    expect(r).toMatchObject({ mode: "retrained", learned: 12, reason: "12 review samples since the last full training (every 10)" });
    expect(await db.topicSample.count({ where: { topicId: topic.id, learnedAt: null, source: "review" } })).toBe(0);

    const learning = await topicLearning(db, topic.id);
    expect(learning).toMatchObject({
      modelVersion: r.modelVersion,
      trainSize: { uploaded: CAMPUS_SAMPLES.length, reviews: 12, total: CAMPUS_SAMPLES.length + 12 },
      reviewsLearned: 12,
      reviewsSinceRetrain: 0,
      reviewsPending: 0,
      retrainDue: false,
    });
    // One row per full training: the first (no reviews yet, nothing held out) and this one (a fifth of 12 reviews held out).
    expect(learning?.evaluations.map((e) => [e.version, e.trainSize, e.reviewSamples, e.heldOut])).toEqual([
      [1, CAMPUS_SAMPLES.length, 0, 0],
      [r.modelVersion, CAMPUS_SAMPLES.length + 12, 12, 2],
    ]);
    const last = learning?.evaluations[1];
    expect(last?.threshold).toBe(0.5);
    for (const x of [last?.precision, last?.recall, last?.f1]) expect(x === null || (typeof x === "number" && x >= 0 && x <= 1)).toBe(true);
    expect(await topicLearning(db, 999)).toBeNull();
  });

  it("the scheduler's daily training retrains in full a topic with folded reviews, and leaves the others", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["补考安排已经公布", "二食堂今天的包子很好吃"]);
    const idle = await db.topic.create({ data: { name: "食堂", relevantLabels: JSON.stringify(["食堂"]) } });
    await trainTopic(db, idle.id, CAMPUS_SAMPLES);
    await review(db, [flagIds[0] as number], "confirm", reviewer.id);
    expect((await runQueued(db, topic.id))?.result).toMatchObject({ step: "learned" });
    const folded = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(folded.reviewsSinceRetrain).toBe(1);

    const scheduler = new Scheduler({ db, queue: createInProcessQueue(async () => undefined), dailyRetrainCron: null });
    expect(await scheduler.dailyRetrain()).toEqual([topic.id]);
    const done = await runQueued(db, topic.id);
    expect(done).toMatchObject({ status: "done", result: { step: "relearned", values: { version: folded.modelVersion + 1 } } });
    expect(done?.result?.message).toContain("the daily full training");
    expect(await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).toMatchObject({ reviewsSinceRetrain: 0, modelVersion: folded.modelVersion + 1 });
    // Trained in full: nothing to do the next day.
    expect(await scheduler.dailyRetrain()).toEqual([]);
  });

  it("reviews made before samples were stored count once; a model from before review tracking retrains in full", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["期末考试延期一周", "食堂新开了窗口"]);
    // Written past server/reviews.ts, as every review was before samples were stored.
    await db.review.create({ data: { flagId: flagIds[0] as number, reviewerId: reviewer.id, decision: "confirm" } });
    await db.review.create({ data: { flagId: flagIds[1] as number, reviewerId: reviewer.id, decision: "dismiss" } });
    // A model trained by that older code: it says nothing of what it holds.
    await db.topic.update({ where: { id: topic.id }, data: { trainUploadSamples: 0, trainReviewSamples: 0 } });
    const r = await learnTopic(db, topic.id);
    expect(r).toMatchObject({ mode: "retrained", reason: "the model predates review tracking", learned: 2 });
    expect(await trainTopic(db, topic.id)).toMatchObject({ reviewSamples: 2, samples: CAMPUS_SAMPLES.length + 2 });
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review" } })).toBe(2);
  });

  it("reviews by a user disabled later still count", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["四六级考试报名开始", "食堂的面条太咸"]);
    await review(db, [flagIds[0] as number], "confirm", reviewer.id);
    await review(db, [flagIds[1] as number], "dismiss", reviewer.id);
    await db.user.update({ where: { id: reviewer.id }, data: { disabledAt: new Date() } });
    expect(await learnTopic(db, topic.id)).toMatchObject({ mode: "folded", learned: 2 });
    expect(await trainTopic(db, topic.id)).toMatchObject({ reviewSamples: 2 });
  });

  it("replacing a learned sample (a changed mind) makes the next learn a full retrain", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["补考成绩出来了"]);
    await review(db, flagIds, "confirm", reviewer.id);
    await learnTopic(db, topic.id);
    await review(db, flagIds, "dismiss", reviewer.id);
    expect((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).retrainDue).toBe(true);
    expect(await learnTopic(db, topic.id)).toMatchObject({ mode: "retrained", reason: "a review already in the model was replaced", learned: 1 });
    expect(await db.topicSample.findMany({ where: { topicId: topic.id, source: "review" }, select: { label: true } })).toEqual([{ label: "off-topic" }]);
  });
});

describe("a killed retrain leaves the previous model in use", () => {
  it("a failure before the store step changes nothing: posts are still scored with the old version", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds, flagIds } = await setup(db, ["考试周图书馆通宵开放"]);
    await review(db, flagIds, "confirm", reviewer.id);
    const before = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    const dieAtStore = (p: TopicProgress) => {
      if (p.phase === "store") throw new Error("killed");
    };
    await expect(trainTopic(db, topic.id, undefined, { onProgress: dieAtStore })).rejects.toThrow("killed");
    await expect(learnTopic(db, topic.id, { onProgress: dieAtStore })).rejects.toThrow("killed");
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect({ model: after.model, modelVersion: after.modelVersion, reviewsLearned: after.reviewsLearned }).toEqual({
      model: before.model,
      modelVersion: before.modelVersion,
      reviewsLearned: 0,
    });
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review", learnedAt: null } })).toBe(1);
    expect(await db.topicEvaluation.count({ where: { topicId: topic.id } })).toBe(1);
    await classifyPosts(db, postIds, { topics: [topic.id] });
    expect((await db.classification.findFirstOrThrow({ where: { topicId: topic.id } })).modelVersion).toBe(before.modelVersion);
  });

  it("a learn job whose process is SIGKILLed mid-job leaves the old model; the samples wait for the next attempt", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, flagIds } = await setup(db, ["补考安排已经公布"]);
    await review(db, flagIds, "confirm", reviewer.id);
    const before = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    const job = await db.job.findFirstOrThrow({ where: { kind: "learn" } });
    // job-child.ts runs the real handler and freezes at its first progress report (before the store).
    const child = spawn(process.execPath, [path.join(root, "bin/tsx.mjs"), path.join(root, "test/support/job-child.ts"), String(job.id)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("stalled")) resolve();
        else if (out.includes("finished")) reject(new Error(`finished before the kill: ${out}`));
      });
      void exited.then(() => reject(new Error(`job-child exited early: ${out}`)));
    });
    child.kill("SIGKILL");
    await exited;
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after.modelVersion).toBe(before.modelVersion);
    expect(after.model).toBe(before.model);
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review", learnedAt: null } })).toBe(1);
    // The next attempt (here: a direct call) folds them in.
    expect(await learnTopic(db, topic.id)).toMatchObject({ mode: "folded", learned: 1, modelVersion: before.modelVersion + 1 });
  });
});

describe("bad input changes nothing and says why", () => {
  it("reviews of a deleted post or topic: no review, no sample, no job; a learn job of a deleted topic fails with the reason", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, reviewer, postIds, flagIds } = await setup(db, ["期末考试时间表", "考试周食堂延长营业"]);
    await db.post.delete({ where: { id: postIds[0] } });
    const r = await review(db, [flagIds[0] as number], "confirm", reviewer.id);
    expect(r).toEqual({ reviewed: 0, missing: [flagIds[0]], learnTopics: [] });
    const { job } = await requestJob(db, { kind: "learn", topicId: topic.id });
    await db.topic.delete({ where: { id: topic.id } });
    expect(await review(db, [flagIds[1] as number], "dismiss", reviewer.id)).toEqual({ reviewed: 0, missing: [flagIds[1]], learnTopics: [] });
    expect(await db.review.count()).toBe(0);
    expect(await db.topicSample.count()).toBe(0);
    const failed = await createJobRunner({ db }).run(job.id);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed?.error).toMatch(`no topic with id ${topic.id}`);
  });
});
