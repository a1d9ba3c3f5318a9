/**
 * One owner of topic settings (server/topic-admin.ts): a topic created, changed and deleted
 * through the CLI (a real `campuswatch` process) gives the same rows as the same topic made with
 * the functions the dashboard's form calls, with the same defaults, word-list normalisation,
 * refusals and cascade on delete.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeTopic, createTopic, deleteTopic, getTopic, topicFormSchema, topicToForm, updateTopic } from "@/server/topics";
import { ValidationError } from "@/lib/validation";
import { runCli } from "../../support/cli";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  t = await createTestDb();
  env = { ...process.env, DATABASE_URL: t.url };
});
afterAll(async () => {
  await t.cleanup();
});

const cw = (...args: string[]) => runCli(args, { cwd: process.cwd(), env });

/** A topic row without what differs by construction (id, name, timestamps). */
async function settingsOf(name: string) {
  const row = await t.db.topic.findUniqueOrThrow({ where: { name } });
  const { id: _id, name: _name, createdAt: _c, updatedAt: _u, ...rest } = row;
  return rest;
}

/** The settings form as the browser posts it (every field present, empty when not filled). */
function form(over: Record<string, string>) {
  return {
    name: "",
    description: "",
    enabled: "on",
    keywords: "",
    sensitiveWords: "",
    userDict: "",
    relevantLabels: "",
    nbThreshold: "0.5",
    cosineThreshold: "0.35",
    webhookUrl: "",
    webhookSecret: "",
    notifyEmail: "",
    dingtalkWebhook: "",
    dingtalkSecret: "",
    wecomWebhook: "",
    feishuWebhook: "",
    feishuSecret: "",
    ...over,
  };
}

/** A flag with a review, a classification, a sample and a notification on the topic. */
async function giveHistory(topicId: number, postId: number, reviewerId: number) {
  const flag = await t.db.flag.create({ data: { postId, topicId, reasons: "[]", score: 0.9 } });
  await t.db.review.create({ data: { flagId: flag.id, reviewerId, decision: "confirm" } });
  await t.db.classification.create({ data: { postId, topicId, score: 0.9, label: "on-topic", relevant: true } });
  await t.db.topicSample.create({ data: { topicId, text: "期末考试", label: "on-topic" } });
  await t.db.notification.create({ data: { topicId, channel: "email", target: "it@example.edu.cn", payload: "{}" } });
}

describe("topic settings: the CLI and the dashboard's functions", () => {
  it("create, change and delete give identical rows either way", { timeout: 180_000 }, async () => {
    // Create: the CLI's comma lists and the form's lines (with a duplicate and a 、) end up the same words.
    const add = await cw(
      "topics",
      "add",
      "--name",
      "考试 cli",
      "--keywords",
      "考试,补考,考试",
      "--sensitive",
      "作弊、代考",
      "--user-dict",
      "四六级",
      "--nb-threshold",
      "0.6",
      "--description",
      "exam cheating",
    );
    expect(add.err).toBe("");
    expect(add.out.trim()).toMatch(/^added topic \d+ "考试 cli" \(nb threshold 0\.6, cosine threshold 0\.35\)$/);
    const viaForm = topicFormSchema.parse(
      form({ name: "考试 form", keywords: "考试\n补考", sensitiveWords: "作弊\n代考", userDict: "四六级", nbThreshold: "0.6", description: "exam cheating" }),
    );
    const formTopic = await createTopic(t.db, viaForm, CLI_ACTOR);
    expect(await settingsOf("考试 cli")).toEqual(await settingsOf("考试 form"));
    expect(await settingsOf("考试 cli")).toMatchObject({
      enabled: true,
      keywords: '["考试","补考"]',
      sensitiveWords: '["作弊","代考"]',
      relevantLabels: '["on-topic"]',
      cosineThreshold: 0.35,
    });

    // Change: `topics set` changes only what it is given; the form saves the whole page.
    const set = await cw("topics", "set", "考试 cli", "--keywords", "期末", "--relevant", "考试", "--disable", "--cosine-threshold", "0.4");
    expect(set.err).toBe("");
    expect(set.out.trim()).toMatch(/^changed topic \d+ "考试 cli" \(off, nb threshold 0\.6, cosine threshold 0\.4, relevant: 考试\)$/);
    const page = topicToForm((await getTopic(t.db, formTopic.id))!);
    await updateTopic(
      t.db,
      formTopic.id,
      topicFormSchema.parse({ ...page, keywords: "期末", relevantLabels: "考试", enabled: "", cosineThreshold: "0.4" }),
      CLI_ACTOR,
    );
    expect(await settingsOf("考试 cli")).toEqual(await settingsOf("考试 form"));
    expect(await settingsOf("考试 form")).toMatchObject({
      enabled: false,
      keywords: '["期末"]',
      sensitiveWords: '["作弊","代考"]',
      relevantLabels: '["考试"]',
    });

    // The CLI's partial change is the same function the dashboard could call.
    await changeTopic(t.db, formTopic.id, { description: "exams" }, CLI_ACTOR);
    expect(await cw("topics", "set", "考试 cli", "--description", "exams")).toMatchObject({ code: 0 });
    expect(await settingsOf("考试 cli")).toEqual(await settingsOf("考试 form"));

    // Delete: flags with their reviews, scores, samples and notifications go; posts stay.
    const account = await t.db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=x", name: "x吧" } });
    const post = await t.db.post.create({
      data: { accountId: account.id, platformId: "1", url: "https://tieba.baidu.com/p/1", publishedAt: new Date(), text: "期末考试有人作弊", sha1: "a" },
    });
    const reviewer = await t.db.user.create({ data: { username: "r", passwordHash: "x" } });
    const cliTopic = await t.db.topic.findUniqueOrThrow({ where: { name: "考试 cli" } });
    await giveHistory(cliTopic.id, post.id, reviewer.id);
    await giveHistory(formTopic.id, post.id, reviewer.id);

    const removed = await cw("topics", "remove", "考试 cli");
    expect(removed.err).toBe("");
    expect(removed.out.trim()).toBe(
      `removed topic ${cliTopic.id} "考试 cli" with 1 flags (1 reviews), 1 samples, 1 notifications and 0 discovery runs; posts stay`,
    );
    expect(await deleteTopic(t.db, formTopic.id, CLI_ACTOR)).toEqual({
      id: formTopic.id,
      name: "考试 form",
      flags: 1,
      reviews: 1,
      samples: 1,
      classifications: 1,
      notifications: 1,
      discoveryRuns: 0,
    });
    expect(await t.db.topic.count()).toBe(0);
    for (const n of await Promise.all([
      t.db.flag.count(),
      t.db.review.count(),
      t.db.classification.count(),
      t.db.topicSample.count(),
      t.db.notification.count(),
    ]))
      expect(n).toBe(0);
    expect(await t.db.post.count()).toBe(1);
    await expect(deleteTopic(t.db, formTopic.id, CLI_ACTOR)).rejects.toThrow(`no topic with id ${formTopic.id}`);
  });

  it("refuses a taken name and bad settings the same way, in the CLI with the option's name", { timeout: 120_000 }, async () => {
    await createTopic(t.db, form({ name: "食堂" }), CLI_ACTOR);
    const dup = await cw("topics", "add", "--name", "食堂");
    expect(dup).toMatchObject({ code: 1, err: 'campuswatch: a topic named "食堂" already exists\n' });
    const clash = await createTopic(t.db, form({ name: "食堂" }), CLI_ACTOR).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(ValidationError);
    expect((clash as ValidationError).fieldErrors).toEqual({ name: ["a topic with this name already exists"] });

    const long = await cw("topics", "add", "--name", "x", "--keywords", "很".repeat(201));
    expect(long).toMatchObject({ code: 1, err: "campuswatch: --keywords: line 1, position 201: a rule has at most 200 characters\n" });
    const nothing = await cw("topics", "set", "食堂");
    expect(nothing).toMatchObject({ code: 1, err: "campuswatch: nothing to change: give at least one option (campuswatch topics set --help)\n" });
    const renamed = await cw("topics", "set", "食堂", "--name", "食堂 2", "--relevant", "");
    expect(renamed.code).toBe(0);
    // An emptied label list takes the default, as an empty form field does.
    expect(await t.db.topic.findUniqueOrThrow({ where: { name: "食堂 2" } })).toMatchObject({ relevantLabels: '["on-topic"]', enabled: true });
  });
});
