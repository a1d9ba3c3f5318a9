/**
 * What reviewers type (issue 30): `on-topic` and `off-topic` mean what they say for a topic whose
 * relevant label is something else (体育), other labels are refused with their line — through the
 * real CLI (`topics feedback`) and through the dashboard's upload query on a real database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli";
import { createTestDb, type TestDb } from "../../support/db";
import { uploadSamples } from "@/server/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";
import { CLI_ACTOR } from "../../../lib/audit";

let dir = "";
let env: NodeJS.ProcessEnv = { ...process.env };
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });
const write = (name: string, rows: readonly object[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return file;
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-review-labels-"));
  env = { ...process.env, DATABASE_URL: "file:./x.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("campuswatch topics feedback (the real CLI)", () => {
  it("takes on-topic and off-topic literally and refuses any other label with its line", async () => {
    expect((await cw("db", "migrate")).code).toBe(0);
    expect((await cw("topics", "add", "--name", "考试")).code).toBe(0);
    // The fixtures' relevant class is 考试: "on-topic" is not one of the topic's labels.
    const trained = await cw("topics", "train", "考试", "--data", write("train.jsonl", CAMPUS_SAMPLES), "--relevant", "考试", "--no-rescore");
    expect(trained.code, trained.err).toBe(0);

    const bad = write("bad.jsonl", [
      { text: "补考名单已经公布", label: "on-topic" },
      { text: "二食堂新开了麻辣烫窗口", label: "食堂" },
    ]);
    const refused = await cw("topics", "feedback", "考试", "--data", bad);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${bad}:2: unknown label "食堂": use 考试, on-topic, off-topic`);
    expect(refused.err).toMatch(/1 bad line \(first: line 2, unknown label "食堂"[^)]*\); nothing was stored/);

    const good = write("good.jsonl", [
      { text: "补考名单已经公布", label: "on-topic" },
      { text: "二食堂新开了麻辣烫窗口", label: "off-topic" },
      { text: "期末考试安排已经公布", label: "考试" },
    ]);
    const stored = await cw("topics", "feedback", "考试", "--data", good);
    expect(stored.code, stored.err).toBe(0);
    expect(stored.out).toContain('stored 3 reviews of topic "考试": 2 relevant, 1 irrelevant');
  }, 180_000);
});

describe("the dashboard's sample upload (server/topics uploadSamples, real database)", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.cleanup());

  it("stores on-topic as the topic's relevant label, keeps a corpus's own classes, refuses look-alikes with their line", async () => {
    const topic = await t.db.topic.create({ data: { name: "运动", relevantLabels: JSON.stringify(["体育"]) } });
    const csv = [
      "label,text",
      "on-topic,校运会开幕式在体育场举行",
      "off-topic,二食堂新开了麻辣烫窗口",
      "财经,股市今天大涨",
      "相关,篮球赛决赛",
      "体育,足球联赛开赛",
    ].join("\n");
    const r = await uploadSamples(t.db, topic.id, csv, "csv", CLI_ACTOR);
    expect(r!.kept).toBe(4);
    expect(r!.errors).toMatchObject([{ line: 5, code: "lookalikeLabel", values: { label: "相关" } }]);
    const rows = await t.db.topicSample.findMany({ where: { topicId: topic.id }, orderBy: { id: "asc" }, select: { label: true, source: true } });
    expect(rows).toEqual([
      { label: "体育", source: "upload" },
      { label: "off-topic", source: "upload" },
      { label: "财经", source: "upload" },
      { label: "体育", source: "upload" },
    ]);
    expect(await uploadSamples(t.db, topic.id + 1000, csv, "csv", CLI_ACTOR)).toBeNull();
  });
});
