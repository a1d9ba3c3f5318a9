/**
 * Chat notifications: 钉钉 DingTalk, 企业微信 WeCom, 飞书 Feishu, and the signed generic webhook,
 * each against a local server that checks the signature as the platform documents it and answers
 * with the platform's own JSON (test/support/chat-robots.ts). Wrong secrets and keys are recorded
 * with the platform's code and never the secret; fixing the topic and retrying delivers; rate
 * limits are retried; the Chinese message lists at most 10 flags and escapes crawled text.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { deliverNotification, notifyNewFlags, type NotifyOptions } from "@/lib/notify";
import { linkUrl, markdownText, plainText, reasonsZh, shanghaiTime } from "@/lib/notify/message";
import { createTestDb, type TestDb } from "../../support/db";
import { sealChannelSecrets } from "@/server/topic-channels";
import { startDingtalk, startFeishu, startSignedWebhook, startWecom, type RobotServer } from "../../support/chat-robots";

let t: TestDb;
const servers: RobotServer<unknown>[] = [];
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await t.cleanup();
});
async function track<M>(s: Promise<RobotServer<M>>): Promise<RobotServer<M>> {
  const server = await s;
  servers.push(server);
  return server;
}

// The robots run on loopback: allowed as an in-house receiver would be (CAMPUSWATCH_ALLOW_INTERNAL).
const fast: NotifyOptions = { backoffMs: () => 5, timeoutMs: 2000, baseUrl: "https://cw.example.edu.cn", allowInternal: ["127.0.0.0/8"] };
const HOSTILE = `[点我](http://evil.example) **粗** <at user_id="all">所有人</at>`;

type TopicChannels = {
  webhookUrl?: string;
  webhookSecret?: string;
  dingtalkWebhook?: string;
  dingtalkSecret?: string;
  wecomWebhook?: string;
  feishuWebhook?: string;
  feishuSecret?: string;
};

/** A tieba account, a run of it that opened `n` flags for the topic 考试, and the topic's channels. */
async function runWithFlags(channels: TopicChannels, n = 2, firstTitle = "期末考试有人作弊") {
  const { db } = t;
  const account = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=x", name: "x吧" } });
  // Secrets stored as the settings form stores them: sealed, bound to the topic's row.
  const topic = await db.topic.create({ data: { name: "考试", ...channels, webhookSecret: null, dingtalkSecret: null, feishuSecret: null } });
  await db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets(channels, topic.id) });
  const run = await db.crawlRun.create({ data: { accountId: account.id, startedAt: new Date(Date.now() - 60_000) } });
  for (let i = 1; i <= n; i++) {
    const p = await db.post.create({
      data: {
        accountId: account.id,
        platformId: String(i),
        url: `https://tieba.baidu.com/p/${i}`,
        title: i === 1 ? firstTitle : `标题${i}`,
        author: i === 1 ? "张三\n[@all](x)" : "李四",
        publishedAt: new Date("2026-11-30T22:32:00Z"),
        text: `有人作弊 ${i}`,
        sha1: String(i),
      },
    });
    const reasons = [
      { kind: "keyword", detail: "期末, 考试" },
      { kind: "sensitive", detail: "作弊 @2–4" },
      { kind: "classifier", detail: "naive Bayes P(on-topic) 0.930 ≥ 0.5 (label 考试; terms 作弊)" },
      { kind: "cosine", detail: "cosine 0.412 ≥ 0.35" },
    ];
    await db.flag.create({ data: { postId: p.id, topicId: topic.id, reasons: JSON.stringify(reasons), score: 0.93 } });
  }
  await db.crawlRun.update({ where: { id: run.id }, data: { status: "ok", finishedAt: new Date(Date.now() + 1000) } });
  return { run, topic };
}

const only = async () => t.db.notification.findFirstOrThrow();

describe("钉钉 DingTalk robot (加签)", () => {
  const token = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
  const secret = "SEC5b2c8f1e9a7d3c6b4e2f0a1d9c8b7a6e5f4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";

  test("a signed markdown message in Chinese; the dashboard links; crawled markup stays text", async () => {
    const robot = await track(startDingtalk({ token, secret }));
    const { run, topic } = await runWithFlags({ dingtalkWebhook: robot.webhook, dingtalkSecret: secret }, 2, HOSTILE);
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 1, sent: 1, failed: 0 });
    expect(await only()).toMatchObject({ channel: "dingtalk", status: "sent", attempts: 1, lastError: null });
    const { title, text } = robot.received[0]!.markdown;
    expect(title).toBe("【CampusWatch】考试：2 条新预警");
    expect(text).toContain("### 【CampusWatch】考试：2 条新预警\n\nx吧（贴吧）本次抓取新增 2 条预警。");
    expect(text).toMatch(
      /\n\n1\. \[［点我］（http:／／evil\.example） ＊＊粗＊＊ ＜at user＿id="all"＞所有人＜\/at＞\]\(https:\/\/cw\.example\.edu\.cn\/posts\/\d+\)\n\n/,
    );
    expect(text).toContain("> 贴吧 · x吧 · 作者 张三 ［＠all］（x） · 12月1日 06:32");
    expect(text).toContain("> 原因：关键词 期末、考试；敏感词 作弊；分类器 0.93；相关度 0.41");
    expect(text).toContain(`[在 CampusWatch 查看全部预警](https://cw.example.edu.cn/?topic=${topic.id})`);
    // The only links are the dashboard's; nothing bold, no mention.
    expect([...text.matchAll(/\]\(([^)]*)\)/g)].map((m) => new URL(m[1]!).origin)).toEqual(Array(3).fill("https://cw.example.edu.cn"));
    expect(text).not.toMatch(/\*\*|<at|\[点我\]|http:\/\/evil/);
  });

  test("a wrong secret: errcode 310000 recorded without the secret or token; fixed and retried, it is sent", async () => {
    const robot = await track(startDingtalk({ token, secret }));
    const wrong = "SEC0000000000000000000000000000000000000000000000000000000000000000";
    const { run, topic } = await runWithFlags({ dingtalkWebhook: robot.webhook, dingtalkSecret: wrong });
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 1, sent: 0, failed: 1 });
    const n = await only();
    // 310000 is final: one request, not three.
    expect(robot.requests).toBe(1);
    expect(n).toMatchObject({ status: "failed", attempts: 1 });
    expect(n.lastError).toMatch(/^钉钉 errcode 310000: sign not match/);
    expect(n.lastError).not.toContain(wrong);
    expect(n.lastError).not.toContain(token);
    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ dingtalkSecret: secret }, topic.id) });
    expect(await deliverNotification(t.db, n.id, fast)).toBe("sent");
    expect(await only()).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(robot.received).toHaveLength(1);
  });

  test("a timestamp more than an hour off is refused by the robot", async () => {
    const robot = await track(startDingtalk({ token, secret }));
    const { run } = await runWithFlags({ dingtalkWebhook: robot.webhook, dingtalkSecret: secret });
    await notifyNewFlags(t.db, run.id, { ...fast, now: () => Date.now() - 2 * 3_600_000 });
    expect((await only()).lastError).toMatch(/^钉钉 errcode 310000/);
  });

  test("130101 send too fast is retried; a wrong access token (300001) is final", async () => {
    const robot = await track(startDingtalk({ token, secret }));
    robot.script.push(130101);
    const { run, topic } = await runWithFlags({ dingtalkWebhook: robot.webhook, dingtalkSecret: secret });
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ sent: 1 });
    expect(await only()).toMatchObject({ status: "sent", attempts: 2 });

    const bad = await t.db.notification.create({ data: { topicId: topic.id, channel: "dingtalk", target: "x", payload: (await only()).payload } });
    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ dingtalkWebhook: robot.webhook.replace(token, "f".repeat(64)) }, topic.id) });
    expect(await deliverNotification(t.db, bad.id, fast)).toBe("failed");
    const failed = await t.db.notification.findUniqueOrThrow({ where: { id: bad.id } });
    expect(failed).toMatchObject({ attempts: 1, lastError: "钉钉 errcode 300001: token is not exist" });
  });
});

describe("企业微信 WeCom robot", () => {
  const key = "693a91f6-7aoc-4bc4-97a0-0ec2sifa5aaa";

  test("markdown content within 4096 bytes: 10 flags listed, 还有 N 条, escaped", async () => {
    const robot = await track(startWecom({ key }));
    const { run } = await runWithFlags({ wecomWebhook: robot.webhook }, 13, HOSTILE);
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ sent: 1 });
    const content = robot.received[0]!.markdown.content;
    expect(content.startsWith("### 【CampusWatch】考试：13 条新预警\nx吧（贴吧）本次抓取新增 13 条预警。\n")).toBe(true);
    expect(content.match(/^\d+\. /gm)).toHaveLength(10);
    expect(content).toContain("\n10. [标题10](https://cw.example.edu.cn/posts/");
    expect(content).not.toContain("标题11");
    expect(content).toContain("\n还有 3 条未列出。\n");
    expect(content).not.toMatch(/\*\*|<at|<@|\[点我\]|http:\/\/evil/);
    expect(Buffer.byteLength(content, "utf8")).toBeLessThanOrEqual(4096);
  });

  test("long titles: flags are dropped until the content fits 4096 bytes, and counted", async () => {
    const robot = await track(startWecom({ key }));
    const { run } = await runWithFlags({ wecomWebhook: robot.webhook }, 12, "很".repeat(500));
    await t.db.post.updateMany({ data: { title: "长".repeat(500), author: "作".repeat(100) } });
    expect(await notifyNewFlags(t.db, run.id, { ...fast, baseUrl: `https://cw.example.edu.cn/${"a".repeat(400)}` })).toMatchObject({ sent: 1 });
    const content = robot.received[0]!.markdown.content;
    expect(Buffer.byteLength(content, "utf8")).toBeLessThanOrEqual(4096);
    const listed = content.match(/^\d+\. /gm)!.length;
    expect(listed).toBeLessThan(10);
    expect(content).toContain(`还有 ${12 - listed} 条未列出。`);
  });

  test("a wrong key: errcode 93000 without the key; the key fixed, Retry sends; 45009 is retried", async () => {
    const robot = await track(startWecom({ key }));
    const wrongKey = "00000000-1111-2222-3333-444444444444";
    const { run, topic } = await runWithFlags({ wecomWebhook: robot.webhook.replace(key, wrongKey) });
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ failed: 1 });
    const n = await only();
    expect(n).toMatchObject({ status: "failed", attempts: 1 });
    expect(n.lastError).toMatch(/^企业微信 errcode 93000: invalid webhook url/);
    expect(n.lastError).not.toContain(wrongKey);
    expect(n.lastError).toContain("https://open.work.weixin.qq.com/…");
    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ wecomWebhook: robot.webhook }, topic.id) });
    robot.script.push(45009);
    expect(await deliverNotification(t.db, n.id, fast)).toBe("sent");
    // One more failed attempt (45009) before the one that went through.
    // The row shows the robot's origin only: the key stays sealed in the topic.
    expect(await only()).toMatchObject({ status: "sent", attempts: 3, target: `${new URL(robot.webhook).origin}/…` });
  });
});

describe("飞书 Feishu bot (签名校验)", () => {
  const hookId = "2f5a4e7c-8b1d-4c3e-9a6f-0d1e2b3c4d5e";
  const secret = "mG0kRvWr1rVuPz2YQ4p7Ab";

  test("a signed post message: plain text elements, links only to the dashboard", async () => {
    const robot = await track(startFeishu({ hookId, secret }));
    const { run, topic } = await runWithFlags({ feishuWebhook: robot.webhook, feishuSecret: secret }, 12, HOSTILE);
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ sent: 1 });
    const m = robot.received[0]!;
    expect(m.timestamp).toMatch(/^\d{10}$/);
    const post = m.content.post.zh_cn;
    expect(post.title).toBe("【CampusWatch】考试：12 条新预警");
    const elements = post.content.flat();
    expect(elements.every((e) => e.tag === "text" || e.tag === "a")).toBe(true);
    expect(elements.filter((e) => e.tag === "a").map((e) => new URL(e.href!).origin)).toEqual(Array(11).fill("https://cw.example.edu.cn"));
    expect(elements.at(-1)).toEqual({ tag: "a", text: "在 CampusWatch 查看全部预警", href: `https://cw.example.edu.cn/?topic=${topic.id}` });
    const first = post.content[1]!;
    expect(first[1]).toMatchObject({ tag: "a", text: '[点我](http:／／evil.example) **粗** ＜at user_id="all"＞所有人＜/at＞' });
    const all = JSON.stringify(post);
    expect(all).not.toMatch(/<at|http:\/\/evil/);
    expect(all).toContain("还有 2 条未列出。");
    expect(all).toContain("原因：关键词 期末、考试；敏感词 作弊；分类器 0.93；相关度 0.41");
  });

  test("a wrong secret: code 19021 recorded; fixed and retried, it is sent", async () => {
    const robot = await track(startFeishu({ hookId, secret }));
    const { run, topic } = await runWithFlags({ feishuWebhook: robot.webhook, feishuSecret: "wrong-secret-123" });
    await notifyNewFlags(t.db, run.id, fast);
    const n = await only();
    expect(n).toMatchObject({ status: "failed", attempts: 1 });
    expect(n.lastError).toBe("飞书 code 19021: sign match fail or timestamp is not within one hour from current time");
    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ feishuSecret: secret }, topic.id) });
    expect(await deliverNotification(t.db, n.id, fast)).toBe("sent");
    expect(await only()).toMatchObject({ status: "sent", attempts: 2 });
  });

  test("rate limits (9499 too many request with HTTP 400, 11232) are retried; a stale timestamp is refused", async () => {
    const robot = await track(startFeishu({ hookId, secret }));
    robot.script.push(9499, 11232);
    const { run, topic } = await runWithFlags({ feishuWebhook: robot.webhook, feishuSecret: secret });
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ sent: 1 });
    expect(await only()).toMatchObject({ status: "sent", attempts: 3 });

    const stale = await t.db.notification.create({ data: { topicId: topic.id, channel: "feishu", target: "x", payload: (await only()).payload } });
    expect(await deliverNotification(t.db, stale.id, { ...fast, now: () => Date.now() - 3_700_000 })).toBe("failed");
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: stale.id } })).lastError).toMatch(/^飞书 code 19021/);
  });

  test("a wrong hook id is final, and the hook id is not recorded", async () => {
    const robot = await track(startFeishu({ hookId }));
    const wrong = "ffffffff-8b1d-4c3e-9a6f-0d1e2b3c4d5e";
    const { run } = await runWithFlags({ feishuWebhook: robot.webhook.replace(hookId, wrong) });
    await notifyNewFlags(t.db, run.id, fast);
    const n = await only();
    expect(n).toMatchObject({ status: "failed", attempts: 1, lastError: "飞书 code 19001: param invalid: incoming webhook access token invalid" });
  });
});

describe("generic webhook signature", () => {
  const secret = "4a1f0c3e9b2d7e6f5a4b3c2d1e0f9a8b";

  test("X-CampusWatch-Signature over timestamp.body verifies; a wrong secret gets 401, final; fixed, Retry sends", async () => {
    const receiver = await track(startSignedWebhook({ secret }));
    const { run, topic } = await runWithFlags({ webhookUrl: receiver.webhook, webhookSecret: secret });
    expect(await notifyNewFlags(t.db, run.id, fast)).toMatchObject({ sent: 1 });
    expect(receiver.received[0]).toMatchObject({
      event: "campuswatch.flags",
      topic: { id: topic.id, name: "考试" },
      total: 2,
      topicUrl: `https://cw.example.edu.cn/?topic=${topic.id}`,
    });

    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ webhookSecret: "not-the-shared-secret-at-all" }, topic.id) });
    const again = await t.db.notification.create({
      data: { topicId: topic.id, channel: "webhook", target: receiver.webhook, payload: (await only()).payload },
    });
    expect(await deliverNotification(t.db, again.id, fast)).toBe("failed");
    expect(await t.db.notification.findUniqueOrThrow({ where: { id: again.id } })).toMatchObject({ attempts: 1, lastError: "HTTP 401 Unauthorized" });
    await t.db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets({ webhookSecret: secret }, topic.id) });
    expect(await deliverNotification(t.db, again.id, fast)).toBe("sent");
    expect(receiver.received).toHaveLength(2);
  });

  test("without a secret, no signature headers: the receiver refuses", async () => {
    const receiver = await track(startSignedWebhook({ secret }));
    const { run } = await runWithFlags({ webhookUrl: receiver.webhook });
    await notifyNewFlags(t.db, run.id, fast);
    expect(await only()).toMatchObject({ status: "failed", lastError: "HTTP 401 Unauthorized" });
  });
});

describe("channels together", () => {
  test("one notification per channel; a channel removed from the topic fails on Retry with the reason", async () => {
    const ding = await track(startDingtalk({ token: "a".repeat(64) }));
    const wecom = await track(startWecom({ key: "k-123456789" }));
    const feishu = await track(startFeishu({ hookId: "h-123456789" }));
    const { run, topic } = await runWithFlags({ dingtalkWebhook: ding.webhook, wecomWebhook: wecom.webhook, feishuWebhook: feishu.webhook });
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 3, sent: 3, failed: 0 });
    expect((await t.db.notification.findMany({ orderBy: { id: "asc" } })).map((n) => n.channel)).toEqual(["dingtalk", "wecom", "feishu"]);
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });

    await t.db.topic.update({ where: { id: topic.id }, data: { wecomWebhook: null } });
    const n = await t.db.notification.create({ data: { topicId: topic.id, channel: "wecom", target: wecom.webhook, payload: "{}" } });
    expect(await deliverNotification(t.db, n.id, fast)).toBe("failed");
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: n.id } })).lastError).toMatch(/no longer has this channel/);
    expect(wecom.requests).toBe(1);
  });
});

describe("message text", () => {
  test("crawled text cannot make a link, bold text, a heading, a quote or a mention in markdown", () => {
    const out = markdownText(`${HOSTILE}\n# 标题\n> 引用 \`code\` _斜_ ~~删~~ ![img](http://evil.example/x.png) <@zhangsan> www.evil.example \\`, 200);
    expect(out).not.toMatch(/[[\]()*_#>`<~!\\\n]|:\/\/|www\./);
    expect(out).toBe(
      '［点我］（http:／／evil.example） ＊＊粗＊＊ ＜at user＿id="all"＞所有人＜/at＞ ＃ 标题 ＞ 引用 ｀code｀ ＿斜＿ ～～删～～ ！［img］（http:／／evil.example/x.png） ＜＠zhangsan＞ www．evil.example ＼',
    );
  });

  test("plain text (Feishu): one line, invisible characters gone, capped, no mention", () => {
    expect(plainText('a\r\n\tb\u202e\u200bc <at user_id="all"></at>', 100)).toBe('a bc ＜at user_id="all"＞＜/at＞');
    expect(plainText("一二三四五六", 4)).toBe("一二三…");
    expect(Array.from(markdownText("考".repeat(100), 60))).toHaveLength(60);
  });

  test("links: http(s) only, markdown-breaking characters percent-encoded", () => {
    expect(linkUrl("javascript:alert(1)")).toBeNull();
    expect(linkUrl("not a url")).toBeNull();
    expect(linkUrl("https://bbs.example.edu.cn/a_(b)[c]*d?x=<y> z")).toBe("https://bbs.example.edu.cn/a%5F%28b%29%5Bc%5D%2Ad?x=%3Cy%3E%20z");
  });

  test("why flagged, in Chinese, from the classifier's reasons; time in Asia/Shanghai", () => {
    expect(
      reasonsZh(
        [
          { kind: "keyword", detail: "期末, 考试" },
          { kind: "sensitive", detail: "作弊 @3–5, 替考 @9–11, 作弊 @20–22" },
        ],
        0,
      ),
    ).toBe("关键词 期末、考试；敏感词 作弊、替考");
    expect(
      reasonsZh(
        [
          { kind: "classifier", detail: "P(on-topic) = 0.934" },
          { kind: "cosine", detail: "r = 0.41" },
        ],
        0.5,
      ),
    ).toBe("分类器 0.93；相关度 0.41");
    expect(reasonsZh([{ kind: "sensitive", detail: "作弊" }], 0.9)).toBe("敏感词 作弊");
    expect(shanghaiTime("2026-11-30T22:32:00.000Z")).toBe("12月1日 06:32");
    expect(shanghaiTime("2026-01-05T15:59:00.000Z")).toBe("1月5日 23:59");
  });
});
