/**
 * One alert per incident (issue 32 item 3) and heat / bursts (item 2), on a real database (SQLite,
 * then PostgreSQL in the second pass) with incidents written directly (test/support/incidents.ts:
 * what the online clustering would have written), real local receivers for all five channels
 * (DingTalk, WeCom and Feishu robots that check their signatures, the signed generic webhook, an
 * SMTP server) and a fixed clock.
 */
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { deliverPending, notifyRun, type IncidentAlertPayload, type NotifyOptions } from "../../../lib/notify";
import { evaluateIncidentAlerts, incidentsAfterRun, incidentsTick } from "../../../crawler/incidents/alerts";
import { recomputeHeat } from "../../../crawler/incidents/heat";
import { topicBursts } from "../../../crawler/incidents/bursts";
import { testDbs } from "../../support/db";
import { createTopicWithChannels } from "../../support/topics";
import { startDingtalk, startFeishu, startSignedWebhook, startWecom, type RobotServer } from "../../support/chat-robots";
import { addToIncident, createIncident, seedPosts } from "../../support/incidents";
import { decodeMail } from "../../support/mime";
import type { Db } from "../../../lib/db";

const openDb = testDbs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

// 10:00 in Shanghai (02:00Z): outside any quiet hours used below unless a test moves the clock.
const T0 = new Date("2026-12-03T02:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const BASE = "https://cw.example.edu.cn";

interface Receivers {
  dingtalk: RobotServer<{ markdown: { title: string; text: string } }>;
  wecom: RobotServer<{ markdown: { content: string } }>;
  feishu: RobotServer<unknown>;
  webhook: RobotServer<unknown>;
  mails: string[];
  smtpPort: number;
}

async function receivers(): Promise<Receivers> {
  const dingtalk = (await startDingtalk({ token: "ding-token-123456789", secret: "SECdingsecret" })) as Receivers["dingtalk"];
  const wecom = (await startWecom({ key: "wecom-key-123456789" })) as Receivers["wecom"];
  const feishu = await startFeishu({ hookId: "feishu-hook-123456789", secret: "feishusecret" });
  const webhook = await startSignedWebhook({ secret: "hook-secret-1" });
  const mails: string[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push(Buffer.concat(chunks).toString("utf8"));
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  closers.push(
    () => dingtalk.close(),
    () => wecom.close(),
    () => feishu.close(),
    () => webhook.close(),
    () => new Promise<void>((r) => smtp.close(() => r())),
  );
  return { dingtalk, wecom, feishu, webhook, mails, smtpPort: (smtp.server.address() as AddressInfo).port };
}

/** Delivery options: loopback receivers allowed, the fixed clock for quiet hours. */
const sendOpts = (r: Receivers, clock: Date): NotifyOptions => ({
  allowInternal: ["127.0.0.0/8"],
  backoffMs: () => 5,
  timeoutMs: 5000,
  baseUrl: BASE,
  clock: () => clock.getTime(),
  smtp: { host: "127.0.0.1", port: r.smtpPort, user: "", pass: "", from: "campuswatch@example.edu.cn" },
});

async function topicWithAllChannels(db: Db, r: Receivers, data: Record<string, unknown> = {}) {
  return createTopicWithChannels(
    db,
    { name: "食品安全", keywords: JSON.stringify(["食堂", "变质"]), notifyEmail: "office@example.edu.cn", ...data },
    {
      dingtalkWebhook: r.dingtalk.webhook,
      dingtalkSecret: "SECdingsecret",
      wecomWebhook: r.wecom.webhook,
      feishuWebhook: r.feishu.webhook,
      feishuSecret: "feishusecret",
      webhookUrl: r.webhook.webhook,
      webhookSecret: "hook-secret-1",
    },
  );
}

const received = (r: Receivers) => [r.dingtalk.received.length, r.wecom.received.length, r.feishu.received.length, r.webhook.received.length, r.mails.length];

describe("incident alerts", () => {
  it("an incident with a flagged post alerts once on all five channels: title, heat, platforms and its link", async () => {
    const { db } = await openDb();
    const r = await receivers();
    const topic = await topicWithAllChannels(db, r);
    const posts = await seedPosts(db, [
      { platform: "weibo", publishedAt: at(-50), flagTopicId: topic.id, sentiment: "negative" },
      { platform: "tieba", publishedAt: at(-30) },
    ]);
    const id = await createIncident(db, { postIds: posts, topicId: topic.id, title: "二食堂饭菜变质" });
    const opts = { now: at(0), baseUrl: BASE };
    await recomputeHeat(db, { ids: [id] }, at(0));
    expect(await evaluateIncidentAlerts(db, opts)).toEqual({ alerts: 1, updates: 0, messages: 5 });
    // Evaluated again (the next run, the periodic job): nothing more.
    expect(await evaluateIncidentAlerts(db, opts)).toEqual({ alerts: 0, updates: 0, messages: 0 });
    const sent = await deliverPending(db, sendOpts(r, at(0)));
    expect(sent).toMatchObject({ notifications: 5, sent: 5, failed: 0 });
    expect(received(r)).toEqual([1, 1, 1, 1, 1]);
    const incident = await db.incident.findUniqueOrThrow({ where: { id } });
    expect(incident.alertedAt?.toISOString()).toBe(at(0).toISOString());
    expect(incident.heat).toBeGreaterThan(0);
    const heat = incident.heat.toFixed(1);
    const link = `${BASE}/incidents/${id}`;
    const ding = r.dingtalk.received[0]!.markdown.text;
    for (const text of [ding, r.wecom.received[0]!.markdown.content, JSON.stringify(r.feishu.received[0]), decodeMail(r.mails[0]!).text]) {
      expect(text).toContain("二食堂饭菜变质");
      expect(text).toContain(`热度 ${heat}`);
      expect(text).toContain("微博、贴吧");
      expect(text).toContain(link);
    }
    expect(decodeMail(r.mails[0]!).subject).toContain("二食堂饭菜变质");
    expect(ding).toContain("含 1 条预警帖");
    expect(ding).toContain("已扩散至 2 个平台，共 2 条");
    const hook = r.webhook.received[0] as IncidentAlertPayload;
    expect(hook).toMatchObject({
      event: "campuswatch.incident",
      kind: "alert",
      incident: { id, title: "二食堂饭菜变质", heat: incident.heat, platforms: ["weibo", "tieba"], size: 2, flaggedCount: 1, negativeCount: 1 },
      incidentUrl: link,
    });
    expect(hook.reasons.map((x) => x.rule)).toEqual(["flagged", "spread"]);
  });

  it("after the alert, at most one update per period, and only when something changed: 30 more posts in an hour give the configured updates", async () => {
    const { db } = await openDb();
    const r = await receivers();
    const topic = await topicWithAllChannels(db, r, { alertUpdateMinutes: 30, alertOnFlag: false, alertMinPosts: 5, notifyEmail: null });
    const first = await seedPosts(
      db,
      Array.from({ length: 5 }, (_, i) => ({ platform: "weibo" as const, publishedAt: at(-20 + i) })),
    );
    const id = await createIncident(db, { postIds: first, topicId: topic.id });
    let queued = await evaluateIncidentAlerts(db, { now: at(0), baseUrl: BASE });
    expect(queued).toMatchObject({ alerts: 1, updates: 0 });
    // Thirty more posts over the next hour, one every two minutes, the last ten on Tieba and the BBS;
    // the rules are evaluated after each (as the end of every run would).
    const kinds: string[] = [];
    for (let i = 1; i <= 30; i++) {
      const platform = i <= 20 ? "weibo" : i % 2 ? "tieba" : "discuz";
      const [p] = await seedPosts(db, [{ platform, publishedAt: at(2 * i - 1) }]);
      await addToIncident(db, id, [p!]);
      queued = await evaluateIncidentAlerts(db, { now: at(2 * i), baseUrl: BASE });
      if (queued.updates) kinds.push(`update at +${2 * i} min`);
    }
    // Period 30 min: updates at +30 (grew 5 → 20) and +60 (spread to 3 platforms); nothing between.
    expect(kinds).toEqual(["update at +30 min", "update at +60 min"]);
    await deliverPending(db, sendOpts(r, at(60)));
    const texts = r.dingtalk.received.map((m) => m.markdown.text);
    expect(texts).toHaveLength(3);
    expect(texts[1]).toContain("新增 15 条，共 20 条");
    expect(texts[2]).toContain("已扩散至 3 个平台，共 35 条");
    expect(r.webhook.received).toHaveLength(3);
    // A quiet incident gets no more: nothing changed since the last update.
    expect(await evaluateIncidentAlerts(db, { now: at(200), baseUrl: BASE })).toMatchObject({ alerts: 0, updates: 0 });
  });

  it("quiet hours hold a channel's messages until they end (a night's updates as one message); an urgent topic is sent at once", async () => {
    const { db } = await openDb();
    const r = await receivers();
    // 23:00 in Shanghai.
    const night = new Date("2026-12-03T15:00:00Z");
    const later = (m: number) => new Date(night.getTime() + m * 60_000);
    const calm = await topicWithAllChannels(db, r, { name: "食堂", dingtalkQuiet: "22:00-07:30", alertUpdateMinutes: 60, notifyEmail: null });
    const posts = await seedPosts(db, [
      { platform: "weibo", publishedAt: later(-10), flagTopicId: calm.id },
      { platform: "weibo", publishedAt: later(-5) },
    ]);
    const id = await createIncident(db, { postIds: posts, topicId: calm.id });
    await evaluateIncidentAlerts(db, { now: night, baseUrl: BASE });
    expect(await deliverPending(db, sendOpts(r, night))).toMatchObject({ sent: 3, held: 1 });
    expect(r.dingtalk.received).toHaveLength(0);
    expect(r.wecom.received).toHaveLength(1);
    const held = await db.notification.findFirstOrThrow({ where: { channel: "dingtalk" } });
    expect(held).toMatchObject({ status: "held", incidentId: id });
    expect(held.notBefore?.toISOString()).toBe("2026-12-03T23:30:00.000Z");
    // An update due during the night refreshes the held message instead of queuing another.
    const more = await seedPosts(db, [{ platform: "tieba", publishedAt: later(70) }]);
    await addToIncident(db, id, more);
    expect(await evaluateIncidentAlerts(db, { now: later(90), baseUrl: BASE })).toMatchObject({ updates: 1, messages: 3 });
    expect(await db.notification.count({ where: { channel: "dingtalk" } })).toBe(1);
    // Still night: nothing goes to DingTalk.
    await deliverPending(db, sendOpts(r, later(120)));
    expect(r.dingtalk.received).toHaveLength(0);
    // 07:30: the one held message goes, with the newest figures.
    expect(await deliverPending(db, sendOpts(r, new Date("2026-12-03T23:30:00Z")))).toMatchObject({ sent: 1, failed: 0 });
    expect(r.dingtalk.received).toHaveLength(1);
    expect(r.dingtalk.received[0]!.markdown.text).toContain("已扩散至 2 个平台，共 3 条");

    // 心理危机 is urgent: the same quiet hours do not hold it.
    const urgent = await topicWithAllChannels(db, r, { name: "心理危机", urgent: true, dingtalkQuiet: "22:00-07:30", notifyEmail: null });
    const u = await seedPosts(db, [{ platform: "weibo", publishedAt: later(-1), flagTopicId: urgent.id, text: "不想活了" }]);
    await createIncident(db, { postIds: u, topicId: urgent.id, title: "宿舍楼 心理危机" });
    await evaluateIncidentAlerts(db, { now: later(121), baseUrl: BASE });
    await deliverPending(db, sendOpts(r, later(121)));
    expect(r.dingtalk.received).toHaveLength(2);
    expect(r.dingtalk.received[1]!.markdown.title).toContain("【紧急】");
  });

  it("notification modes: 'flags' keeps the per-run batches and no incident alerts; 'incidents' lists only flags outside open incidents", async () => {
    const { db } = await openDb();
    const r = await receivers();
    const byIncident = await topicWithAllChannels(db, r, { name: "考试", notifyEmail: null });
    const byFlags = await topicWithAllChannels(db, r, { name: "招生", notifyMode: "flags", notifyEmail: null });
    const started = new Date(Date.now() - 60_000);
    const posts = await seedPosts(db, [
      { platform: "weibo", publishedAt: at(-5), flagTopicId: byIncident.id, text: "期末考试泄题" },
      { platform: "weibo", publishedAt: at(-4), flagTopicId: byIncident.id, text: "四六级 报名" },
      { platform: "weibo", publishedAt: at(-3), flagTopicId: byFlags.id, text: "招生 咨询" },
    ]);
    const account = (await db.post.findUniqueOrThrow({ where: { id: posts[0]! } })).accountId;
    const run = await db.crawlRun.create({ data: { accountId: account, status: "ok", startedAt: started, finishedAt: new Date(Date.now() + 60_000) } });
    await createIncident(db, { postIds: [posts[0]!], topicId: byIncident.id, title: "期末考试泄题" });
    await createIncident(db, { postIds: [posts[2]!], topicId: byFlags.id, title: "招生咨询" });
    // The end of the run: heat, then the alerts due (the 'flags' topic gets none).
    expect(await incidentsAfterRun(db, run.id, at(0))).toMatchObject({ alerts: 1 });
    const result = await notifyRun(db, run.id, sendOpts(r, at(0)));
    expect(result.failed).toBe(0);
    const texts = r.dingtalk.received.map((m) => m.markdown.text);
    // 考试: its incident's alert, and a batch of the one flag outside any incident; 招生: its batch.
    expect(texts.filter((t) => t.includes("期末考试泄题") && t.includes("事件"))).toHaveLength(1);
    const batches = r.webhook.received.filter((p) => (p as { event: string }).event === "campuswatch.flags") as {
      topic: { name: string };
      flags: { postId: number }[];
    }[];
    expect(batches.map((b) => [b.topic.name, b.flags.map((f) => f.postId)])).toEqual([
      ["考试", [posts[1]]],
      ["招生", [posts[2]]],
    ]);
    expect(r.webhook.received.filter((p) => (p as { event: string }).event === "campuswatch.incident")).toHaveLength(1);
  });

  it("heat decays when nothing happens; a burst against the incident's own and its topic's rate is flagged", async () => {
    const { db } = await openDb();
    const r = await receivers();
    const topic = await topicWithAllChannels(db, r, { notifyEmail: null });
    // A slow start: one post an hour for 12 hours, then 12 in the last hour.
    const slow = await seedPosts(
      db,
      Array.from({ length: 12 }, (_, i) => ({ platform: "weibo" as const, publishedAt: at(-60 * (13 - i)), flagTopicId: topic.id })),
    );
    const fast = await seedPosts(
      db,
      Array.from({ length: 12 }, (_, i) => ({ platform: "tieba" as const, publishedAt: at(-55 + 4 * i), sentiment: "negative" as const })),
    );
    const id = await createIncident(db, { postIds: [...slow, ...fast], topicId: topic.id });
    await recomputeHeat(db, { ids: [id] }, at(0));
    const hot = await db.incident.findUniqueOrThrow({ where: { id } });
    expect(hot.bursting).toBe(true);
    expect(hot.burstScore).toBeGreaterThan(3);
    const updatedAt = hot.updatedAt;
    // A day later without a post: no burst, and heat well down (the periodic job).
    const { heated } = await incidentsTick(db, at(24 * 60));
    expect(heated).toBe(1);
    const cooled = await db.incident.findUniqueOrThrow({ where: { id } });
    expect(cooled.bursting).toBe(false);
    expect(cooled.heat).toBeLessThan(hot.heat / 2);
    // Heat is not a membership change: updatedAt stays.
    expect(cooled.updatedAt.toISOString()).toBe(updatedAt.toISOString());
    // The alert named the burst.
    const alert = await db.notification.findFirstOrThrow({ where: { incidentId: id, channel: "webhook" } });
    expect((JSON.parse(alert.payload) as IncidentAlertPayload).kind).toBe("alert");
  });

  it("topic and keyword bursts: 考试 mentions at many times their usual rate in the last hour", async () => {
    const { db } = await openDb();
    const topic = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "作弊", "!招生"]) } });
    // A week of one 考试 mention and one 作弊 mention an hour, then 12 考试 mentions in the last hour.
    const specs = [];
    for (let h = 1; h <= 168; h++)
      specs.push({ publishedAt: at(-60 * h - 10), text: `期末考试 安排 ${h}` }, { publishedAt: at(-60 * h - 40), text: `作弊 处分 ${h}` });
    for (let i = 0; i < 12; i++) specs.push({ publishedAt: at(-5 * i - 1), text: `考试 泄题 ${i}`, flagTopicId: topic.id });
    await seedPosts(db, specs);
    const [whole, ...words] = await topicBursts(db, topic, at(0));
    expect(words.map((w) => w.keyword)).toEqual(["考试", "作弊"]);
    const exam = words[0]!;
    expect(exam).toMatchObject({ recent: 12, bursting: true });
    expect(exam.ratio).toBeCloseTo(12, 0);
    expect(exam.last24).toHaveLength(24);
    expect(exam.last24.at(-1)).toBe(12);
    expect(words[1]).toMatchObject({ keyword: "作弊", recent: 0, bursting: false });
    // The topic as a whole: its flagged posts (12 new, none before).
    expect(whole).toMatchObject({ keyword: null, recent: 12, bursting: true });
  }, 60_000);
});
