/**
 * A topic's chosen classifier (Topic.classifier) trains and flags through the product path: set
 * by topic-admin (the dashboard's form) or by `campuswatch topics add/set --model`, trained by
 * trainTopic, applied by classifyPosts. Runs on SQLite and on PostgreSQL (CAMPUSWATCH_TEST_DB).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts, TopicModel, trainTopic, type FlagReason } from "../../../crawler/classify";
import { changeTopic, createTopic, topicFormSchema } from "../../../server/topic-admin";
import { ValidationError } from "../../../lib/validation";
import { createTestDb, type TestDb } from "../../support/db";
import { runTopicsCli, seedCampusPosts } from "../../support/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  process.exitCode = undefined;
});

const cli = runTopicsCli;

const POSTS = ["明天的高数考试我还没复习完，好慌", "三食堂的红烧肉今天特别好吃", "监考老师发现有人带小抄"];

const seedPosts = async (db: TestDb["db"]) => (await seedCampusPosts(db, POSTS)).ids;

/** Train the topic, classify the posts, and return the stored model and the flagged posts' texts with their reasons. */
async function trainAndFlag(db: TestDb["db"], topicId: number, ids: number[]) {
  await trainTopic(db, topicId, CAMPUS_SAMPLES);
  await classifyPosts(db, ids);
  const stored = await db.topic.findUniqueOrThrow({ where: { id: topicId } });
  const flags = await db.flag.findMany({ where: { topicId }, include: { post: { select: { text: true } } }, orderBy: { postId: "asc" } });
  return {
    model: TopicModel.fromJSON(stored.model ?? ""),
    flagged: flags.map((f) => f.post.text),
    reasons: flags.map((f) => (JSON.parse(f.reasons) as FlagReason[]).find((r) => r.kind === "classifier")?.detail ?? ""),
  };
}

describe("a topic's classifier", () => {
  it("set to nb-nbsvm by topic-admin, trains that kind and flags posts with it", async () => {
    t = await createTestDb();
    const ids = await seedPosts(t.db);
    const topic = await createTopic(t.db, { name: "考试", relevantLabels: "考试", enabled: "on", classifier: "nb-nbsvm" }, CLI_ACTOR);
    expect(topic.classifier).toBe("nb-nbsvm");
    const r = await trainAndFlag(t.db, topic.id, ids);
    expect(r.model.classifier).toBe("nb-nbsvm");
    expect(r.flagged).toEqual([POSTS[0], POSTS[2]]);
    for (const detail of r.reasons) expect(detail).toMatch(/^naive Bayes \+ NBSVM P\(on-topic\) [01]\.\d{3} ≥ 0\.5/);
  });

  it("defaults to nb-svm (issue 16); a changed classifier takes effect only at the next training", async () => {
    t = await createTestDb();
    const ids = await seedPosts(t.db);
    const topic = await createTopic(t.db, { name: "考试", relevantLabels: "考试", enabled: "on" }, CLI_ACTOR);
    expect(topic.classifier).toBe("nb-svm");
    expect((await trainAndFlag(t.db, topic.id, ids)).model.classifier).toBe("nb-svm");
    await changeTopic(t.db, topic.id, { classifier: "nb-chi2" }, CLI_ACTOR);
    // Still the nb-svm model until trained again.
    const before = await t.db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(TopicModel.fromJSON(before.model ?? "").classifier).toBe("nb-svm");
    expect((await trainAndFlag(t.db, topic.id, ids)).model.classifier).toBe("nb-chi2");
  });

  it("refuses an unknown classifier with one schema, for the form and the CLI", async () => {
    t = await createTestDb();
    expect(topicFormSchema.safeParse({ name: "x", classifier: "svm" }).success).toBe(false);
    await expect(createTopic(t.db, { name: "x", classifier: "svm" }, CLI_ACTOR)).rejects.toThrow(ValidationError);
    const bad = await cli(t.db, "topics", "add", "--name", "x", "--model", "svm");
    expect(bad.code).toBe(1);
    expect(bad.err.join("\n")).toContain("--model: the classifier is one of nb, nb-chi2, nb-nbsvm");
    expect(await t.db.topic.count()).toBe(0);
  });

  it("set by the CLI (topics add/set --model) trains and flags the same way", async () => {
    t = await createTestDb();
    const ids = await seedPosts(t.db);
    const add = await cli(t.db, "topics", "add", "--name", "考试", "--relevant", "考试");
    expect(add.code).toBe(0);
    const name = "考试";
    const first = await t.db.topic.findUniqueOrThrow({ where: { name } });
    expect(first.classifier).toBe("nb-svm");
    await trainTopic(t.db, first.id, CAMPUS_SAMPLES);

    const set = await cli(t.db, "topics", "set", name, "--model", "nb-nbsvm");
    expect(set.code).toBe(0);
    expect(set.out[0]).toMatch(/^changed topic \d+ "考试" \(on, classifier nb-nbsvm, nb threshold 0\.5/);
    expect(set.out[1]).toBe("train again to use nb-nbsvm: model v1 (nb-svm) keeps scoring until then");

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-topic-classifier-"));
    try {
      const data = path.join(dir, "samples.jsonl");
      fs.writeFileSync(data, CAMPUS_SAMPLES.map((s) => JSON.stringify(s)).join("\n") + "\n");
      const trained = await cli(t.db, "topics", "train", name, "--data", data, "--no-rescore");
      expect(trained.code).toBe(0);
      expect(trained.out[0]).toMatch(/^trained topic "考试" model v2 on 48 samples .*\(classifier nb-nbsvm\)$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await classifyPosts(t.db, ids);
    const flags = await t.db.flag.findMany({ where: { topicId: first.id }, include: { post: { select: { text: true } } }, orderBy: { postId: "asc" } });
    expect(flags.map((f) => f.post.text)).toEqual([POSTS[0], POSTS[2]]);
    const stored = await t.db.topic.findUniqueOrThrow({ where: { name } });
    expect(TopicModel.fromJSON(stored.model ?? "").classifier).toBe("nb-nbsvm");

    const list = await cli(t.db, "topics", "list", "--json");
    expect(JSON.parse(list.out[0] ?? "{}")).toMatchObject({ name, classifier: "nb-nbsvm", modelVersion: 2 });
  });
});
