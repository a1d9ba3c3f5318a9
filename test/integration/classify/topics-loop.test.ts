import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { runTopicsCli } from "../../support/topics";
import { TopicModel } from "../../../crawler/classify";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

/** Labelled lines written for these tests: 考试 notices and other campus news, as a reviewer labels them. */
const FEEDBACK = [
  { text: "期末考试安排已经公布", label: "考试" },
  { text: "二食堂新开了麻辣烫窗口", label: "off-topic" },
  { text: "英语四级考试报名截止", label: "考试" },
  { text: "校运会开幕式在体育场举行", label: "off-topic" },
  { text: "补考名单请到教务处查看", label: "考试" },
  { text: "图书馆周末延长开放时间", label: "off-topic" },
  { text: "考研自习室座位预约开始", label: "考试" },
  { text: "食堂饭菜价格上涨引发讨论", label: "off-topic" },
  { text: "期中考试成绩可以在教务系统查询", label: "考试" },
  { text: "社团招新活动本周六举行", label: "off-topic" },
  { text: "考试作弊将被记过处分", label: "考试" },
  { text: "宿舍楼下新开了一家奶茶店", label: "off-topic" },
];

let t: TestDb | undefined;
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-topics-loop-"));
});
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
  process.exitCode = undefined;
});

function write(name: string, lines: readonly unknown[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return file;
}

/** A topic "考试" trained on the campus fixtures; its database. */
async function trainedTopic(): Promise<TestDb> {
  const db = await createTestDb();
  expect((await runTopicsCli(db.db, "topics", "add", "--name", "考试")).code).toBe(0);
  const trained = await runTopicsCli(db.db, "topics", "train", "考试", "--data", write("train.jsonl", CAMPUS_SAMPLES), "--relevant", "考试", "--no-rescore");
  expect(trained.code).toBe(0);
  return db;
}

/** Candidates written for this test: two clear cases, a near-duplicate pair and mixed ones. */
const CANDIDATES = [
  { id: "a", text: "有同学在期末考试中作弊被抓", board: "校园" },
  { id: "b", text: "三食堂的红烧肉今天特别好吃" },
  { id: "c", text: "考试周食堂延长营业时间到晚上十点" },
  { id: "d", text: "【转】考试周食堂延长营业时间到晚上十点！" },
  { id: "e", text: "体育馆考试期间暂停开放" },
  { id: "f", text: "篮球比赛决赛在体育馆举行" },
];

describe("campuswatch topics queue / feedback", () => {
  it("queue prints the K lines the topic is least sure about, fields passed through, near-duplicates skipped", async () => {
    t = await trainedTopic();
    const data = write("candidates.jsonl", CANDIDATES);
    const q = await runTopicsCli(t.db, "topics", "queue", "考试", "--data", data, "--limit", "3");
    expect(q.code).toBe(0);
    const rows = q.out.map((l) => JSON.parse(l) as { id: string; text: string; score: number; board?: string });
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.score).toBeGreaterThanOrEqual(0);
    const ids = rows.map((r) => r.id);
    // Never both copies of the same notice.
    expect(ids.includes("c") && ids.includes("d")).toBe(false);
    const margins = rows.map((r) => Math.abs(r.score - 0.5));
    expect([...margins].sort((x, y) => x - y)).toEqual(margins);
    expect(q.err.at(-1)).toMatch(/^3 of 6 lines \(uncertain, threshold 0\.5, model v1\)$/);

    // Everything (K > n) comes back with the other fields as they were.
    const all = await runTopicsCli(t.db, "topics", "queue", "考试", "--data", data, "--limit", "50");
    const byId = new Map(all.out.map((l) => [(JSON.parse(l) as { id: string }).id, JSON.parse(l) as Record<string, unknown>]));
    expect(byId.get("a")).toMatchObject({ id: "a", text: CANDIDATES[0]!.text, board: "校园" });
    expect(byId.size).toBe(5);

    // Flagged: what the topic flags, least confident first.
    const f = await runTopicsCli(t.db, "topics", "queue", "考试", "--data", data, "--limit", "10", "--strategy", "flagged");
    expect(f.code).toBe(0);
    const scores = f.out.map((l) => (JSON.parse(l) as { score: number }).score);
    expect(scores.length).toBeGreaterThan(0);
    expect([...scores].sort((x, y) => x - y)).toEqual(scores);
    expect(f.out.map((l) => (JSON.parse(l) as { id: string }).id)).toContain("a");
    expect(f.out.map((l) => (JSON.parse(l) as { id: string }).id)).not.toContain("b");
  });

  it("queue refuses a bad file, an unknown strategy and an untrained topic", async () => {
    t = await trainedTopic();
    const bad = write("bad.jsonl", [{ text: "好" }, "{oops", { id: 3 }]);
    const r = await runTopicsCli(t.db, "topics", "queue", "考试", "--data", bad, "--limit", "2");
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toContain(`${bad}:2: not valid JSON`);
    expect(r.err).toContain(`${bad}:3: missing field "text"`);
    expect(r.err.at(-1)).toBe(`campuswatch: ${bad}: 2 bad lines (first: line 2, not valid JSON); nothing was printed`);
    const s = await runTopicsCli(t.db, "topics", "queue", "考试", "--data", write("ok.jsonl", CANDIDATES), "--limit", "2", "--strategy", "random");
    expect(s.code).toBe(1);
    expect(s.err.at(-1)).toBe("campuswatch: --strategy must be one of uncertain, flagged");
    await runTopicsCli(t.db, "topics", "add", "--name", "食堂");
    const u = await runTopicsCli(t.db, "topics", "queue", "食堂", "--data", write("ok2.jsonl", CANDIDATES), "--limit", "2");
    expect(u.err.at(-1)).toBe('campuswatch: topic "食堂" is not trained yet (campuswatch topics train)');
  });

  it("feedback stores each line as a review sample (a relevant label or on-topic → the relevant label, off-topic → off-topic) and folds it into the model", async () => {
    t = await trainedTopic();
    const reviews = write("reviews.jsonl", [
      { text: "体育馆考试期间暂停开放", label: "考试", id: 1 },
      { text: "考试周食堂延长营业时间到晚上十点", label: "off-topic" },
      // Issue 30: "on-topic" literally is on-topic, although the topic's relevant label is 考试.
      { text: "图书馆新到一批考研参考书", label: "on-topic" },
      { text: "校园跑步打卡活动开始报名", label: " Off-Topic " },
    ]);
    const r = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", reviews);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('stored 4 reviews of topic "考试": 2 relevant, 2 irrelevant');
    // Issue 16: feedback takes the learn path (folded in like a dashboard review), no longer a full retrain.
    expect(r.out[1]).toBe("model v2 (nb-svm) on 52 samples (4 from reviews): 4 reviews folded in");
    const topic = await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } });
    const stored = await t.db.topicSample.findMany({ where: { topicId: topic.id, source: "review" }, orderBy: { id: "asc" } });
    expect(stored.map((s) => s.label)).toEqual(["考试", "off-topic", "考试", "off-topic"]);
    expect(stored.every((s) => s.postId === null && s.learnedAt !== null)).toBe(true);
    // The uploads stay as they were (not replaced by the retrain).
    expect(await t.db.topicSample.count({ where: { topicId: topic.id, source: "upload" } })).toBe(48);

    // Feedback accumulates: the next file trains on both.
    const more = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", write("more.jsonl", [{ text: "补考名单已经公布", label: "考试" }]));
    expect(more.out).toEqual([
      'stored 1 reviews of topic "考试": 1 relevant, 0 irrelevant',
      "model v3 (nb-svm) on 53 samples (5 from reviews): 1 review folded in",
    ]);
    const after = await t.db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(after).toMatchObject({ reviewsLearned: 5, reviewsSinceRetrain: 5, trainUploadSamples: 48 });
    expect(TopicModel.fromJSON(after.model).toJSON()).toMatchObject({ samples: 53, folded: 5 });
  });

  it("feedback counts toward the every-N full retrain, which calibrates the threshold; no sample is counted twice", async () => {
    t = await trainedTopic();
    const before = process.env.CAMPUSWATCH_RETRAIN_EVERY;
    process.env.CAMPUSWATCH_RETRAIN_EVERY = "10";
    try {
      const first = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", write("a.jsonl", FEEDBACK.slice(0, 6)));
      expect(first.out[1]).toBe("model v2 (nb-svm) on 54 samples (6 from reviews): 6 reviews folded in");
      const second = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", write("b.jsonl", FEEDBACK.slice(6)));
      expect(second.code).toBe(0);
      const n = FEEDBACK.length;
      expect(second.out[1]).toBe(
        `model v3 (nb-svm) on ${48 + n} samples (${n} from reviews): retrained in full (${n} review samples since the last full training (every 10))`,
      );
      // A fifth of the reviews is held out of the probe: too few to calibrate on, said so.
      expect(second.out[2]).toMatch(/^threshold 0\.5: \d held-out reviews \(calibration needs 10\): threshold 0\.5 kept$/);
      const topic = await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } });
      expect(topic).toMatchObject({ reviewsLearned: n, reviewsSinceRetrain: 0, trainReviewSamples: n, trainUploadSamples: 48 });
      expect(TopicModel.fromJSON(topic.model).toJSON()).toMatchObject({ samples: 48 + n });
      expect(await t.db.topicSample.count({ where: { topicId: topic.id, source: "review", learnedAt: null } })).toBe(0);
    } finally {
      if (before === undefined) delete process.env.CAMPUSWATCH_RETRAIN_EVERY;
      else process.env.CAMPUSWATCH_RETRAIN_EVERY = before;
    }
  });

  it("rows an earlier feedback stored (source feedback, trained on as uploads) become review samples, counted once by a full retrain", async () => {
    t = await trainedTopic();
    const topic = await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } });
    await t.db.topicSample.createMany({ data: FEEDBACK.slice(0, 2).map((f) => ({ topicId: topic.id, text: f.text, label: f.label, source: "feedback" })) });
    const r = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", write("c.jsonl", FEEDBACK.slice(2, 3)));
    expect(r.out[1]).toBe("model v2 (nb-svm) on 51 samples (3 from reviews): retrained in full (a review already in the model was replaced)");
    expect(await t.db.topicSample.count({ where: { topicId: topic.id, source: "feedback" } })).toBe(0);
    expect(TopicModel.fromJSON((await t.db.topic.findUniqueOrThrow({ where: { id: topic.id } })).model).toJSON()).toMatchObject({ samples: 51 });
  });

  it("feedback refuses any label but on-topic, off-topic and the relevant ones, naming the line, and stores nothing", async () => {
    t = await trainedTopic();
    const bad = write("labels.jsonl", [
      { text: "补考名单已经公布", label: "on-topic" },
      { text: "二食堂新开了麻辣烫窗口", label: "食堂" },
      { text: "期末考试安排已经公布", label: "on topic" },
      { text: "校运会开幕式在体育场举行", label: "相关" },
    ]);
    const r = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", bad);
    expect(r.code).toBe(1);
    expect(r.err).toEqual(
      expect.arrayContaining([
        `${bad}:2: unknown label "食堂": use 考试, on-topic, off-topic`,
        `${bad}:3: label "on topic" is ambiguous: write on-topic or off-topic (or one of the topic's relevant labels: 考试)`,
        `${bad}:4: label "相关" is ambiguous: write on-topic or off-topic (or one of the topic's relevant labels: 考试)`,
      ]),
    );
    expect(await t.db.topicSample.count({ where: { source: { in: ["feedback", "review"] } } })).toBe(0);
  });

  it("feedback refuses a file with any bad line, naming the line, and stores nothing", async () => {
    t = await trainedTopic();
    const bad = write("bad.jsonl", [
      { text: "补考名单已经公布", label: "考试" },
      { label: "考试" },
      { text: "食堂涨价了" },
      "not json",
      { text: "  ", label: "考试" },
    ]);
    const r = await runTopicsCli(t.db, "topics", "feedback", "考试", "--data", bad);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual(
      expect.arrayContaining([
        `${bad}:2: missing field "text"`,
        `${bad}:3: missing field "label"`,
        expect.stringMatching(new RegExp(`^${bad}:4: `)),
        `${bad}:5: empty text`,
      ]),
    );
    expect(r.err.at(-1)).toBe(`campuswatch: ${bad}: 4 bad lines (first: line 2, missing field "text"); nothing was stored`);
    expect(await t.db.topicSample.count({ where: { source: { in: ["feedback", "review"] } } })).toBe(0);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } })).modelVersion).toBe(1);
  });
});
