import { afterEach, describe, expect, it } from "vitest";
import { parseCalibration, trainTopic } from "../../../crawler/classify";
import { createJobRunner, requestJob } from "../../../crawler/jobs";
import type { Db } from "../../../lib/db";
import { changeTopic, createTopic, topicToForm, updateTopic } from "../../../server/topic-admin";
import { topicThreshold } from "../../../server/topic-learning";
import { createTestDb, type TestDb } from "../../support/db";
import { runTopicsCli, seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES, CANTEEN, EXAM, SPORTS } from "../../unit/classify/fixtures";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/**
 * 72 review samples as a campus forum reads: 考试 posts confirmed, 食堂 and 体育 posts dismissed,
 * and 8 食堂 posts that mention the exam week dismissed too (the overlap a threshold has to weigh).
 */
const REVIEWS = [
  ...EXAM.flatMap((s) => [`${s}，求问`, `转：${s}`]).map((text) => ({ text, label: "考试" })),
  ...CANTEEN.map((s) => ({ text: `${s}，求问`, label: "off-topic" })),
  ...SPORTS.map((s) => ({ text: `转：${s}`, label: "off-topic" })),
  ...CANTEEN.slice(0, 8).map((s) => ({ text: `${s}，考试周也是这样`, label: "off-topic" })),
];

/** A 考试 topic trained on the fixtures, its review samples stored (as reviews and `topics feedback` store them), one open flag. */
async function setup(db: Db, settings: { nbThreshold?: number; calibrate?: boolean; targetPrecision?: number | null } = {}) {
  const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), ...settings } });
  await trainTopic(db, topic.id, CAMPUS_SAMPLES);
  await db.topicSample.createMany({ data: REVIEWS.map((r) => ({ topicId: topic.id, source: "review", ...r })) });
  const { ids } = await seedCampusPosts(db, ["补考安排已经公布"]);
  await db.flag.create({ data: { postId: ids[0] as number, topicId: topic.id, reasons: "[]", score: 0.6 } });
  return { topic, postId: ids[0] as number };
}

/** Ask for the topic's learn job and run it, as a worker would. */
async function learnJob(db: Db, topicId: number) {
  const { job } = await requestJob(db, { kind: "learn", topicId });
  return createJobRunner({ db }).run(job.id);
}

describe("calibrated thresholds", () => {
  it("the full retrain of the learn job chooses the threshold of maximum F1 on held-out reviews, stores the curve, re-scores open flags", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, postId } = await setup(db, { nbThreshold: 0.97 });
    const done = await learnJob(db, topic.id);
    expect(done).toMatchObject({ status: "done", result: { step: "relearned" } });
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    const row = await db.topicEvaluation.findFirstOrThrow({ where: { topicId: topic.id }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ version: after.modelVersion, heldOut: 14, threshold: 0.97 });
    const c = parseCalibration(row.curve);
    expect(c).toMatchObject({ method: "f1", applied: true, previous: 0.97, heldOut: 14, targetPrecision: null });
    expect(after.nbThreshold).toBe(c?.chosen);
    expect(after.nbThreshold).not.toBe(0.97);
    expect(c?.points.length).toBeGreaterThan(1);
    expect(c?.points.length).toBeLessThanOrEqual(50);
    const best = Math.max(...(c?.points ?? []).map((p) => p.f1));
    expect(c?.points.find((p) => p.threshold === c.chosen)?.f1).toBe(best);
    // The open flag was scored again with the new model (and threshold).
    expect((await db.classification.findFirstOrThrow({ where: { topicId: topic.id, postId } })).modelVersion).toBe(after.modelVersion);
    expect(await topicThreshold(db, topic.id)).toMatchObject({ current: after.nbThreshold, source: "f1", calibrate: true, version: after.modelVersion });

    // The admin types another threshold: it is theirs ("manual") until the next full retrain.
    await changeTopic(db, topic.id, { nbThreshold: 0.8 }, CLI_ACTOR);
    expect(await topicThreshold(db, topic.id)).toMatchObject({ current: 0.8, source: "manual" });
    expect(await topicThreshold(db, 999)).toBeNull();
  });

  it("with crawled posts nobody reviewed, the threshold is chosen on the expected curve over them, fitted on the held-out reviews", async () => {
    t = await createTestDb();
    const { db } = t;
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), nbThreshold: 0.97 } });
    await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    await db.topicSample.createMany({ data: REVIEWS.map((r) => ({ topicId: topic.id, source: "review", ...r })) });
    // 60 crawled posts as a board reads: exam questions among canteen and sports chatter.
    const crawled = ["？", "！", "，有人知道吗"].flatMap((end) => [...EXAM, ...CANTEEN, ...SPORTS].map((x) => `${x}${end}`)).slice(0, 60);
    const { ids } = await seedCampusPosts(db, crawled);
    expect(ids.length).toBeGreaterThanOrEqual(50);
    const result = await trainTopic(db, topic.id);
    const c = result.calibration;
    expect(c).toMatchObject({ basis: "posts", posts: ids.length, heldOut: 14, method: "f1", applied: true, previous: 0.97 });
    expect(c.reason).toMatch(new RegExp(`over ${ids.length} crawled posts, P\\(on-topic \\| score\\) fitted on 14 held-out reviews`));
    const best = Math.max(...c.points.map((p) => p.f1));
    expect(c.points.find((p) => p.threshold === c.chosen)?.f1).toBe(best);
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after.nbThreshold).toBe(c.chosen);
    const row = await db.topicEvaluation.findFirstOrThrow({ where: { topicId: topic.id }, orderBy: { id: "desc" } });
    expect(parseCalibration(row.curve)).toEqual(c);
    expect((await topicThreshold(db, topic.id))?.calibration).toMatchObject({ basis: "posts", posts: ids.length });
  });

  it("the dashboard's Train job re-scores the open flags when calibration moved the threshold", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic, postId } = await setup(db, { nbThreshold: 0.97 });
    const { job } = await requestJob(db, { kind: "train", topicId: topic.id });
    expect(await createJobRunner({ db }).run(job.id)).toMatchObject({ status: "done", result: { step: "trained" } });
    const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after.nbThreshold).not.toBe(0.97);
    expect((await db.classification.findFirstOrThrow({ where: { topicId: topic.id, postId } })).modelVersion).toBe(after.modelVersion);
  });

  it("a target precision: the lowest threshold that holds it (or the best precision, said so)", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic } = await setup(db);
    await changeTopic(db, topic.id, { targetPrecision: 0.9 }, CLI_ACTOR);
    await learnJob(db, topic.id);
    const th = await topicThreshold(db, topic.id);
    const c = th?.calibration;
    expect(c?.targetPrecision).toBe(0.9);
    expect(["target", "target-unreached"]).toContain(c?.method);
    const at = c?.points.find((p) => p.threshold === c.chosen);
    if (c?.method === "target") {
      expect(at?.precision).toBeGreaterThanOrEqual(0.9);
      // No lower threshold on the curve holds it.
      for (const p of c.points) if (p.threshold < (c.chosen as number)) expect(p.precision).toBeLessThan(0.9);
    } else {
      for (const p of c?.points ?? []) expect(p.precision).toBeLessThan(0.9);
    }
    expect(th).toMatchObject({ current: c?.chosen, source: c?.method, targetPrecision: 0.9 });
  });

  it("calibration off: the curve is stored, the admin's threshold stays", async () => {
    t = await createTestDb();
    const { db } = t;
    const { topic } = await setup(db, { nbThreshold: 0.7 });
    await changeTopic(db, topic.id, { calibrate: false }, CLI_ACTOR);
    await learnJob(db, topic.id);
    expect((await db.topic.findUniqueOrThrow({ where: { id: topic.id } })).nbThreshold).toBe(0.7);
    const th = await topicThreshold(db, topic.id);
    expect(th).toMatchObject({
      current: 0.7,
      calibrate: false,
      source: "manual",
      calibration: { method: "f1", applied: false, previous: 0.7, threshold: 0.7 },
    });
    expect(th?.calibration?.points.length).toBeGreaterThan(1);
  });

  it("too few held-out reviews: the threshold is kept and the page says why", async () => {
    t = await createTestDb();
    const { db } = t;
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]), nbThreshold: 0.6 } });
    const r = await trainTopic(db, topic.id, CAMPUS_SAMPLES);
    expect(r.calibration).toMatchObject({ method: "too-few", heldOut: 0, threshold: 0.6, applied: false });
    expect(r.calibration.reason).toBe("0 held-out reviews (calibration needs 10): threshold 0.6 kept");
    expect(await topicThreshold(db, topic.id)).toMatchObject({ current: 0.6, source: "too-few", calibration: { points: [] } });
  });
});

describe("calibration settings", () => {
  it("topics add/set --target-precision and --(no-)calibrate go through the settings schema, refusals named by option", async () => {
    t = await createTestDb();
    const { db } = t;
    const added = await runTopicsCli(db, "topics", "add", "--name", "考试", "--target-precision", "0.9");
    expect(added.out).toEqual([
      'added topic 1 "考试" (nb threshold 0.5, cosine threshold 0.35)',
      "threshold: calibrated on held-out reviews after each full retrain (target precision 0.9)",
    ]);
    expect(await db.topic.findUniqueOrThrow({ where: { name: "考试" } })).toMatchObject({ calibrate: true, targetPrecision: 0.9 });
    const off = await runTopicsCli(db, "topics", "set", "考试", "--no-calibrate");
    expect(off.out.at(-1)).toBe("threshold: kept as set (calibration off)");
    expect(await db.topic.findUniqueOrThrow({ where: { name: "考试" } })).toMatchObject({ calibrate: false, targetPrecision: 0.9 });
    // Other settings leave them as they are.
    await runTopicsCli(db, "topics", "set", "考试", "--keywords", "考试");
    expect(await db.topic.findUniqueOrThrow({ where: { name: "考试" } })).toMatchObject({ calibrate: false, targetPrecision: 0.9 });
    const on = await runTopicsCli(db, "topics", "set", "考试", "--calibrate", "--target-precision", "none");
    expect(on.out.at(-1)).toBe("threshold: calibrated on held-out reviews after each full retrain (maximum F1)");
    expect(await db.topic.findUniqueOrThrow({ where: { name: "考试" } })).toMatchObject({ calibrate: true, targetPrecision: null });
    const bad = await runTopicsCli(db, "topics", "set", "考试", "--target-precision", "0.3");
    expect(bad.code).toBe(1);
    expect(bad.err.at(-1)).toBe("campuswatch: --target-precision: the target precision is between 0.5 and 0.99");
    // A topic added without them: calibrated, no target.
    await runTopicsCli(db, "topics", "add", "--name", "食堂");
    expect(await db.topic.findUniqueOrThrow({ where: { name: "食堂" } })).toMatchObject({ calibrate: true, targetPrecision: null });
  });

  it("the form's hidden field and checkbox: unchecked is off, checked is on, absent (a form without the field) is on", async () => {
    t = await createTestDb();
    const { db } = t;
    const base = { name: "考试", enabled: "on" };
    const unchecked = await createTopic(db, { ...base, calibrate: "off", targetPrecision: "" }, CLI_ACTOR);
    expect(unchecked).toMatchObject({ calibrate: false, targetPrecision: null });
    const checked = await updateTopic(db, unchecked.id, { ...base, calibrate: "on", targetPrecision: "0.85" }, CLI_ACTOR);
    expect(checked).toMatchObject({ calibrate: true, targetPrecision: 0.85 });
    expect(topicToForm({ ...checked, secretsSet: { webhook: false, dingtalk: false, feishu: false } })).toMatchObject({
      calibrate: "on",
      targetPrecision: "0.85",
    });
    expect(await updateTopic(db, unchecked.id, base, CLI_ACTOR)).toMatchObject({ calibrate: true, targetPrecision: null });
    await expect(updateTopic(db, unchecked.id, { ...base, targetPrecision: "abc" }, CLI_ACTOR)).rejects.toMatchObject({
      fieldErrors: { targetPrecision: ["the target precision must be a number"] },
    });
  });
});
