import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { runTopicsCli } from "../../support/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-topics-cli-"));
});
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
  process.exitCode = undefined;
});

const run = runTopicsCli;

function writeJsonl(name: string, rows: unknown[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return file;
}

describe("campuswatch topics", () => {
  it("adds, trains, evaluates and lists a topic", async () => {
    t = await createTestDb();
    const add = await run(
      t.db,
      "topics",
      "add",
      "--name",
      "考试",
      "--keywords",
      "考试,补考",
      "--sensitive",
      "作弊,代考",
      "--user-dict",
      "四六级",
      "--nb-threshold",
      "0.6",
    );
    expect(add).toMatchObject({ code: 0, out: ['added topic 1 "考试" (nb threshold 0.6, cosine threshold 0.35)'] });
    const topic = await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } });
    expect(JSON.parse(topic.keywords)).toEqual(["考试", "补考"]);
    expect(JSON.parse(topic.userDict)).toEqual(["四六级"]);

    const account = await t.db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=x", name: "x吧" } });
    await t.db.post.create({
      data: { accountId: account.id, platformId: "1", url: "https://tieba.baidu.com/p/1", publishedAt: new Date(), text: "高数补考的考场在哪里", sha1: "a" },
    });

    const data = writeJsonl("train.jsonl", CAMPUS_SAMPLES);
    const trained = await run(t.db, "topics", "train", "考试", "--data", data, "--relevant", "考试");
    expect(trained.code).toBe(0);
    expect(trained.out[0]).toMatch(/^trained topic "考试" model v1 on 48 samples \(0 from reviews\)/);
    expect(trained.out).toContain("labels: 考试 16, 食堂 16, 体育 16");
    expect(trained.out.at(-1)).toBe("re-scored 1 posts: 1 flags opened, 0 updated, 0 closed");
    expect(trained.err.some((l) => l.startsWith("rescore: re-scored 1/1 posts"))).toBe(true);

    const test = writeJsonl("test.jsonl", [
      { label: "考试", text: "明天的高数考试我还没复习完" },
      { label: "考试", text: "监考老师发现有人带小抄作弊" },
      { label: "食堂", text: "三食堂的红烧肉今天特别好吃" },
      { label: "体育", text: "篮球比赛决赛在体育馆举行" },
    ]);
    const evaluated = await run(t.db, "topics", "eval", "考试", "--data", test, "--relevant", "考试", "--json");
    expect(evaluated.code).toBe(0);
    const e = JSON.parse(evaluated.out[0] ?? "{}") as Record<string, number>;
    expect(e).toMatchObject({ topic: "考试", modelVersion: 1, accuracy: 1, precision: 1, recall: 1, f1: 1, samples: 4, onTopic: 2, nbThreshold: 0.6 });
    expect(e.docsPerSecond).toBeGreaterThan(0);

    const text = await run(t.db, "topics", "eval", "考试", "--data", test);
    expect(text.out[2]).toMatch(/^classifier \(P\(on-topic\) >= 0\.6\): accuracy 100\.00%, precision 100\.00%, recall 100\.00%, F1 100\.00%/);

    const list = await run(t.db, "topics", "list", "--json");
    expect(JSON.parse(list.out[0] ?? "{}")).toMatchObject({ name: "考试", modelVersion: 1, relevantLabels: ["考试"], sensitiveWords: ["作弊", "代考"] });
  });

  it("refuses a bad sample file with line numbers and exit code 1, changing nothing", async () => {
    t = await createTestDb();
    await run(t.db, "topics", "add", "--name", "考试", "--relevant", "考试");
    const bad = writeJsonl("bad.jsonl", [
      { label: "考试", text: "期末考试下周开始" },
      '{"label": "考试", "text": ',
      { label: "食堂" },
      { label: "食堂", text: "" },
    ]);
    const r = await run(t.db, "topics", "train", "考试", "--data", bad);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      `${bad}:2: invalid JSON: ${r.err[0]?.split("invalid JSON: ")[1]}`,
      `${bad}:3: missing field "text"`,
      `${bad}:4: empty text`,
      `campuswatch: ${bad}: 3 bad records (first: line 2, invalid JSON: ${r.err[0]?.split("invalid JSON: ")[1]}); nothing was changed`,
    ]);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: "考试" } })).modelVersion).toBe(0);
  });

  it("refuses training on a single class with a clear message", async () => {
    t = await createTestDb();
    await run(t.db, "topics", "add", "--name", "考试");
    const one = writeJsonl(
      "one.jsonl",
      CAMPUS_SAMPLES.filter((s) => s.label === "考试"),
    );
    const r = await run(t.db, "topics", "train", "考试", "--data", one, "--relevant", "考试");
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['campuswatch: all 16 samples have the label "考试"; training needs at least two labels (on-topic and off-topic examples)']);
  });

  it("wrong arguments exit non-zero with a one-line reason", async () => {
    t = await createTestDb();
    const noName = await run(t.db, "topics", "add");
    expect(noName.code).toBe(1);
    expect(noName.err.join("\n")).toMatch(/required option '--name <name>' not specified/);

    const badThreshold = await run(t.db, "topics", "add", "--name", "x", "--nb-threshold", "1.5");
    expect(badThreshold.code).toBe(1);
    expect(badThreshold.err.join("\n")).toMatch(/--nb-threshold must be a number from 0 to 1/);

    await run(t.db, "topics", "add", "--name", "考试");
    const dup = await run(t.db, "topics", "add", "--name", "考试");
    expect(dup).toMatchObject({ code: 1, err: ['campuswatch: a topic named "考试" already exists'] });

    const unknown = await run(t.db, "topics", "train", "没有这个", "--data", writeJsonl("x.jsonl", CAMPUS_SAMPLES));
    expect(unknown).toMatchObject({ code: 1, err: ['campuswatch: no topic named "没有这个" (see: campuswatch topics list)'] });

    const untrained = await run(t.db, "topics", "eval", "考试", "--data", writeJsonl("y.jsonl", CAMPUS_SAMPLES), "--relevant", "考试");
    expect(untrained).toMatchObject({ code: 1, err: ['campuswatch: topic "考试" is not trained yet (campuswatch topics train)'] });

    const missing = await run(t.db, "topics", "train", "考试", "--data", path.join(dir, "nope.jsonl"), "--relevant", "考试");
    expect(missing).toMatchObject({ code: 1, err: [`campuswatch: cannot read ${path.join(dir, "nope.jsonl")}: ENOENT`] });
  });
});
