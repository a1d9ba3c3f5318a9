/**
 * A topic's notification channels in the settings form (server/topics.ts): validation of each
 * platform's URL and secret, secrets and robot URLs that are write-only (sealed; an empty field
 * keeps the stored one, the checkbox removes it, removing the channel removes its secret), and
 * nothing that reaches a page — the topic as loaded for the page, the form's values, the channel
 * list — carrying a secret or a URL's token.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createTopic, getTopic, listTopics, notificationChannels, topicFormSchema, topicToForm, updateTopic } from "@/server/topics";
import { createTestDb, type TestDb } from "../../support/db";
import { unseal } from "@/lib/secret-box";
import {
  TOPIC_DINGTALK_SECRET,
  TOPIC_DINGTALK_WEBHOOK,
  TOPIC_FEISHU_SECRET,
  TOPIC_FEISHU_WEBHOOK,
  TOPIC_WEBHOOK_SECRET,
  TOPIC_WEBHOOK_URL,
  TOPIC_WECOM_WEBHOOK,
  type SealedColumn,
} from "@/lib/sealed-columns";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

const DING = "https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const DING_SECRET = "SEC5b2c8f1e9a7d3c6b4e2f0a1d9c8b7a6e5f4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";
const FEISHU = "https://open.feishu.cn/open-apis/bot/v2/hook/2f5a4e7c-8b1d-4c3e-9a6f-0d1e2b3c4d5e";
const FEISHU_SECRET = "mG0kRvWr1rVuPz2YQ4p7Ab";
const HOOK_SECRET = "4a1f0c3e9b2d7e6f5a4b3c2d1e0f9a8b";
const WECOM_KEY = "693a91f6-7a0c-4bc4-97a0-0ec2f1fa5aaa";

/** The form as the browser posts it: every field present, empty when not filled. */
function form(over: Record<string, string> = {}) {
  return {
    id: "1",
    name: "考试",
    description: "",
    enabled: "on",
    keywords: "考试",
    sensitiveWords: "作弊",
    userDict: "",
    relevantLabels: "on-topic",
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
const parse = (over: Record<string, string>) => topicFormSchema.parse(form(over));
const errorsOf = (over: Record<string, string>) => {
  const r = topicFormSchema.safeParse(form(over));
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("validation", () => {
  test("each platform's URL and secret, with a clear message on the field", () => {
    expect(errorsOf({ dingtalkWebhook: "https://oapi.dingtalk.com/robot/send" })).toEqual({
      dingtalkWebhook: expect.stringContaining("https://oapi.dingtalk.com/robot/send?access_token="),
    });
    expect(errorsOf({ dingtalkWebhook: "http://oapi.dingtalk.com/robot/send?access_token=abc" })).toHaveProperty("dingtalkWebhook");
    expect(errorsOf({ dingtalkWebhook: `${DING}&timestamp=1&sign=x` })).toEqual({ dingtalkWebhook: expect.stringContaining("without timestamp and sign") });
    expect(errorsOf({ dingtalkWebhook: DING, dingtalkSecret: "0f1e2d3c4b5a" })).toEqual({ dingtalkSecret: expect.stringContaining("starts with SEC") });
    expect(errorsOf({ dingtalkSecret: DING_SECRET })).toEqual({ dingtalkSecret: "a secret needs the DingTalk webhook: enter it too" });
    // A stored URL (the form's marker) counts, unless it is being removed.
    expect(errorsOf({ dingtalkSecret: DING_SECRET, dingtalkWebhookSet: "1" })).toEqual({});
    expect(errorsOf({ dingtalkSecret: DING_SECRET, dingtalkWebhookSet: "1", dingtalkWebhookClear: "on" })).toHaveProperty("dingtalkSecret");
    expect(errorsOf({ feishuWebhook: "https://open.feishu.cn/open-apis/bot/v2/hook/" })).toEqual({
      feishuWebhook: expect.stringContaining("open-apis/bot/v2/hook/"),
    });
    expect(errorsOf({ feishuWebhook: "ftp://open.feishu.cn/x" })).toEqual({ feishuWebhook: "enter a full http(s) URL" });
    expect(errorsOf({ wecomWebhook: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send" })).toEqual({ wecomWebhook: expect.stringContaining("key=") });
    expect(errorsOf({ webhookUrl: "https://hooks.example.edu.cn/x", webhookSecret: "short" })).toEqual({
      webhookSecret: expect.stringContaining("at least 16 characters"),
    });
    // Local relays and test servers are fine; so is Lark.
    expect(
      errorsOf({
        dingtalkWebhook: "http://127.0.0.1:8080/robot/send?access_token=t",
        feishuWebhook: "https://open.larksuite.com/open-apis/bot/v2/hook/abc-123",
      }),
    ).toEqual({});
  });

  test("a WeCom key pasted alone becomes the robot's URL", () => {
    expect(parse({ wecomWebhook: ` ${WECOM_KEY} ` }).wecomWebhook).toBe(`https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${WECOM_KEY}`);
  });
});

describe("write-only secrets", () => {
  async function created() {
    const topic = await createTopic(
      t.db,
      parse({
        webhookUrl: "https://hooks.example.edu.cn/cw",
        webhookSecret: HOOK_SECRET,
        dingtalkWebhook: DING,
        dingtalkSecret: DING_SECRET,
        feishuWebhook: FEISHU,
        feishuSecret: FEISHU_SECRET,
      }),
      CLI_ACTOR,
    );
    return topic.id;
  }
  /** The stored secrets, opened (each is sealed, bound to its topic and column). */
  const stored = async (id: number) => (await storedAll(id)).secrets;
  /** The stored secrets and URLs, opened, and the URLs' masked forms. */
  const storedAll = async (id: number) => {
    const row = await t.db.topic.findUniqueOrThrow({
      where: { id },
      select: {
        webhookSecret: true,
        dingtalkSecret: true,
        feishuSecret: true,
        webhookUrl: true,
        dingtalkWebhook: true,
        wecomWebhook: true,
        feishuWebhook: true,
      },
    });
    for (const v of Object.values(row)) if (v !== null) expect(v).toMatch(/^v2\./);
    const open = (v: string | null, column: SealedColumn) => (v === null ? null : unseal(v, column, id));
    const shown = await t.db.topic.findUniqueOrThrow({
      where: { id },
      select: { webhookUrlDisplay: true, dingtalkWebhookDisplay: true, wecomWebhookDisplay: true, feishuWebhookDisplay: true },
    });
    return {
      secrets: {
        webhookSecret: open(row.webhookSecret, TOPIC_WEBHOOK_SECRET),
        dingtalkSecret: open(row.dingtalkSecret, TOPIC_DINGTALK_SECRET),
        feishuSecret: open(row.feishuSecret, TOPIC_FEISHU_SECRET),
      },
      urls: {
        webhookUrl: open(row.webhookUrl, TOPIC_WEBHOOK_URL),
        dingtalkWebhook: open(row.dingtalkWebhook, TOPIC_DINGTALK_WEBHOOK),
        wecomWebhook: open(row.wecomWebhook, TOPIC_WECOM_WEBHOOK),
        feishuWebhook: open(row.feishuWebhook, TOPIC_FEISHU_WEBHOOK),
      },
      shown,
    };
  };

  test("the page's topic and form values never carry a secret, only whether one is set", async () => {
    const id = await created();
    expect(await stored(id)).toEqual({ webhookSecret: HOOK_SECRET, dingtalkSecret: DING_SECRET, feishuSecret: FEISHU_SECRET });
    const page = (await getTopic(t.db, id))!;
    const values = topicToForm(page);
    const everything = JSON.stringify([page, values, await listTopics(t.db), notificationChannels(page)]);
    // Neither the secrets nor the URLs' tokens (nor the sealed values) reach a page.
    for (const secret of [HOOK_SECRET, DING_SECRET, FEISHU_SECRET, "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "2f5a4e7c-8b1d-4c3e-9a6f-0d1e2b3c4d5e", "/cw", "v2."])
      expect(everything).not.toContain(secret);
    expect(page.secretsSet).toEqual({ webhook: true, dingtalk: true, feishu: true });
    expect(values).toMatchObject({
      webhookSecretSet: "1",
      dingtalkSecretSet: "1",
      feishuSecretSet: "1",
      dingtalkWebhook: "",
      dingtalkWebhookSet: "1",
      dingtalkWebhookShown: "https://oapi.dingtalk.com/…",
      wecomWebhookSet: "",
    });
    expect(values).not.toHaveProperty("dingtalkSecret");
    expect((await storedAll(id)).urls).toEqual({
      webhookUrl: "https://hooks.example.edu.cn/cw",
      dingtalkWebhook: DING,
      wecomWebhook: null,
      feishuWebhook: FEISHU,
    });
  });

  test("saving with empty secret fields keeps them; the checkbox removes one; a new one replaces", async () => {
    const id = await created();
    const values = topicToForm((await getTopic(t.db, id))!);
    // What the browser posts back: the form's values with the secret inputs empty.
    await updateTopic(t.db, id, topicFormSchema.parse({ ...values, description: "改了描述" }), CLI_ACTOR);
    expect(await stored(id)).toEqual({ webhookSecret: HOOK_SECRET, dingtalkSecret: DING_SECRET, feishuSecret: FEISHU_SECRET });
    // The URLs, posted back empty, are kept too.
    expect((await storedAll(id)).urls).toMatchObject({ webhookUrl: "https://hooks.example.edu.cn/cw", dingtalkWebhook: DING, feishuWebhook: FEISHU });
    await updateTopic(t.db, id, topicFormSchema.parse({ ...values, dingtalkSecretClear: "on", feishuSecret: "a-new-feishu-secret" }), CLI_ACTOR);
    expect(await stored(id)).toEqual({ webhookSecret: HOOK_SECRET, dingtalkSecret: null, feishuSecret: "a-new-feishu-secret" });
    expect((await getTopic(t.db, id))!.secretsSet).toEqual({ webhook: true, dingtalk: false, feishu: true });
  });

  test("removing a channel's URL removes its secret; a new URL replaces the stored one and its masked form", async () => {
    const id = await created();
    const values = topicToForm((await getTopic(t.db, id))!);
    await updateTopic(t.db, id, topicFormSchema.parse({ ...values, webhookUrlClear: "on", feishuWebhookClear: "on" }), CLI_ACTOR);
    const after = await storedAll(id);
    expect(after.secrets).toEqual({ webhookSecret: null, dingtalkSecret: DING_SECRET, feishuSecret: null });
    expect(after.urls).toEqual({ webhookUrl: null, dingtalkWebhook: DING, wecomWebhook: null, feishuWebhook: null });
    expect(after.shown).toEqual({
      webhookUrlDisplay: null,
      dingtalkWebhookDisplay: "https://oapi.dingtalk.com/…",
      wecomWebhookDisplay: null,
      feishuWebhookDisplay: null,
    });

    const relay = "http://relay.campus.test:8080/robot/send?access_token=99887766554433221100";
    await updateTopic(t.db, id, topicFormSchema.parse({ ...topicToForm((await getTopic(t.db, id))!), dingtalkWebhook: relay }), CLI_ACTOR);
    const replaced = await storedAll(id);
    expect(replaced.urls.dingtalkWebhook).toBe(relay);
    expect(replaced.secrets.dingtalkSecret).toBe(DING_SECRET);
    expect(replaced.shown.dingtalkWebhookDisplay).toBe("http://relay.campus.test:8080/…");
  });

  test("reviewers' view of the channels: names, origins and whether signed", async () => {
    const id = await created();
    await updateTopic(
      t.db,
      id,
      parse({ ...topicToForm((await getTopic(t.db, id))!), wecomWebhook: WECOM_KEY, notifyEmail: "it-office@example.edu.cn" }),
      CLI_ACTOR,
    );
    expect(notificationChannels((await getTopic(t.db, id))!)).toEqual([
      { channel: "webhook", label: "Webhook", where: "https://hooks.example.edu.cn/…", signed: true },
      { channel: "email", label: "E-mail", where: "it-office@example.edu.cn", signed: null },
      { channel: "dingtalk", label: "钉钉 DingTalk robot", where: "https://oapi.dingtalk.com/…", signed: true },
      { channel: "wecom", label: "企业微信 WeCom robot", where: "https://qyapi.weixin.qq.com/…", signed: null },
      { channel: "feishu", label: "飞书 Feishu bot", where: "https://open.feishu.cn/…", signed: true },
    ]);
  });
});
