import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SMTPServer } from "smtp-server";
import { decodeMail } from "../../support/mime";
import { deliverNotification, notifyNewFlags, retryFailedNotifications, type SmtpSettings } from "@/lib/notify";
import { createTestDb, type TestDb } from "../../support/db";
import { createTopicWithChannels } from "../../support/topics";

let t: TestDb;
let server: http.Server;
let base: string;
let statuses: number[];
let received: { path: string; body: string; type: string | undefined }[];

beforeEach(async () => {
  t = await createTestDb();
  received = [];
  statuses = [];
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body, type: req.headers["content-type"] });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  await t.cleanup();
});

// The test servers run on loopback: allowed as an in-house receiver or relay would be (CAMPUSWATCH_ALLOW_INTERNAL).
const fast = { backoffMs: () => 5, timeoutMs: 2000, allowInternal: ["127.0.0.0/8"] };

async function runWithFlags(opts: { webhook?: string; email?: string } = {}) {
  const { db } = t;
  const account = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=x", name: "x吧" } });
  const other = await db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1234567", name: "w" } });
  const topic = await createTopicWithChannels(db, { name: "考试", notifyEmail: opts.email ?? null }, { webhookUrl: opts.webhook ?? null });
  const quiet = await db.topic.create({ data: { name: "食堂" } });
  const run = await db.crawlRun.create({ data: { accountId: account.id, startedAt: new Date(Date.now() - 60_000) } });
  const mk = async (accountId: number, i: number, topicId: number, createdAt = new Date()) => {
    const p = await db.post.create({
      data: { accountId, platformId: String(i), url: `https://x/${i}`, title: `标题${i}`, publishedAt: new Date(), text: `有人作弊 ${i}`, sha1: String(i) },
    });
    return db.flag.create({ data: { postId: p.id, topicId, reasons: JSON.stringify([{ kind: "sensitive", detail: "作弊" }]), score: 0.9, createdAt } });
  };
  await mk(account.id, 1, topic.id);
  await mk(account.id, 2, topic.id);
  await mk(account.id, 3, quiet.id);
  await mk(other.id, 4, topic.id); // another account's flag
  await mk(account.id, 5, topic.id, new Date(Date.now() - 3_600_000)); // before the run
  await db.crawlRun.update({ where: { id: run.id }, data: { status: "ok", finishedAt: new Date(Date.now() + 1000) } });
  return { run, topic };
}

describe("notifyNewFlags", () => {
  test("posts one JSON message per topic with the run's new flags", async () => {
    const { run, topic } = await runWithFlags({ webhook: `${base}/hook` });
    const r = await notifyNewFlags(t.db, run.id, { ...fast, baseUrl: "https://cw.example.edu.cn" });
    expect(r).toEqual({ notifications: 1, sent: 1, failed: 0 });
    expect(received).toHaveLength(1);
    expect(received[0]!.type).toContain("application/json");
    const payload = JSON.parse(received[0]!.body) as { topic: unknown; flags: { title: string; dashboardUrl: string }[] };
    expect(payload.topic).toEqual({ id: topic.id, name: "考试" });
    expect(payload.flags.map((f) => f.title)).toEqual(["标题1", "标题2"]);
    expect(payload.flags[0]!.dashboardUrl).toMatch(/^https:\/\/cw\.example\.edu\.cn\/posts\/\d+$/);
    const n = await t.db.notification.findFirstOrThrow();
    // The row shows where it went masked to the origin (the URL stays sealed in the topic).
    expect(n).toMatchObject({ status: "sent", attempts: 1, channel: "webhook", crawlRunId: run.id, lastError: null, target: `${base}/…` });
    // Called again for the same run: nothing is sent twice.
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });
  });

  test("retries 5xx and records the attempts", async () => {
    statuses = [503, 502];
    const { run } = await runWithFlags({ webhook: `${base}/hook` });
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 1, sent: 1, failed: 0 });
    expect(received).toHaveLength(3);
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ status: "sent", attempts: 3 });
  });

  test("a failure is recorded, never thrown, and can be retried later", async () => {
    statuses = [500, 500, 500];
    const { run } = await runWithFlags({ webhook: `${base}/hook` });
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 1, sent: 0, failed: 1 });
    const n = await t.db.notification.findFirstOrThrow();
    expect(n).toMatchObject({ status: "failed", attempts: 3, lastError: "HTTP 500 Internal Server Error" });
    expect(await deliverNotification(t.db, n.id, fast)).toBe("sent");
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ status: "sent", attempts: 4 });
  });

  test("a 4xx answer is not retried", async () => {
    statuses = [404];
    const { run } = await runWithFlags({ webhook: `${base}/hook` });
    await notifyNewFlags(t.db, run.id, fast);
    expect(received).toHaveLength(1);
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ status: "failed", attempts: 1 });
  });

  test("an unreachable webhook fails with the network reason", async () => {
    const { run } = await runWithFlags({ webhook: "http://127.0.0.1:9/hook" });
    expect(await notifyNewFlags(t.db, run.id, { ...fast, attempts: 2 })).toMatchObject({ failed: 1 });
    expect((await t.db.notification.findFirstOrThrow()).lastError).toMatch(/^network error/);
  });

  test("e-mail without SMTP settings is recorded as failed, honestly", async () => {
    const { run } = await runWithFlags({ email: "it-office@example.edu.cn" });
    delete process.env.SMTP_HOST;
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 1, sent: 0, failed: 1 });
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({
      channel: "email",
      status: "failed",
      lastError: expect.stringContaining("SMTP not configured"),
    });
  });

  test("an unknown run or no topic with targets does nothing", async () => {
    expect(await notifyNewFlags(t.db, 999, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });
    const { run } = await runWithFlags();
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });
  });
});

/**
 * E-mail through a real SMTP server on 127.0.0.1 (smtp-server, the server half of nodemailer's
 * project): what arrives, login, and which SMTP replies are retried.
 */
describe("e-mail notifications", () => {
  interface Received {
    from: string;
    to: string[];
    raw: string;
  }
  let smtp: SMTPServer;
  let port = 0;
  let mails: Received[];
  let rcptReplies: number[];
  let requireLogin: boolean;

  beforeEach(async () => {
    mails = [];
    rcptReplies = [];
    requireLogin = false;
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authOptional: true,
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === "cw" && auth.password === "secret-pass") return cb(null, { user: auth.username });
        cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
      onMailFrom(_address, session, cb) {
        if (requireLogin && !session.user) return cb(Object.assign(new Error("Authentication required"), { responseCode: 530 }));
        cb();
      },
      onRcptTo(_address, _session, cb) {
        const code = rcptReplies.shift();
        if (code) return cb(Object.assign(new Error(code < 500 ? "Try again later" : "No such user here"), { responseCode: code }));
        cb();
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  const settings = (over: Partial<SmtpSettings> = {}): SmtpSettings => ({
    host: "127.0.0.1",
    port,
    user: "",
    pass: "",
    from: "campuswatch@example.edu.cn",
    ...over,
  });

  const decode = decodeMail;

  test("one plain-text message per run and topic: the flags, why, and links; crawled markup stays text", async () => {
    const { run } = await runWithFlags({ email: "it-office@example.edu.cn" });
    await t.db.post.updateMany({ where: { platformId: "1" }, data: { title: `<b onmouseover="alert(1)">标题1</b>` } });
    const r = await notifyNewFlags(t.db, run.id, { ...fast, smtp: settings(), baseUrl: "https://cw.example.edu.cn" });
    expect(r).toEqual({ notifications: 1, sent: 1, failed: 0 });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: "campuswatch@example.edu.cn", to: ["it-office@example.edu.cn"] });
    const m = decode(mails[0]!.raw);
    expect(m.contentType).toMatch(/^text\/plain; charset=utf-8/i);
    expect(m.subject).toBe("【CampusWatch】考试：2 条新预警（x吧）");
    expect(m.text).toContain(`1. <b onmouseover="alert(1)">标题1</b> — 得分 0.90\n   原因：敏感词 作弊\n`);
    expect(m.text).toContain("   有人作弊 1\n   原帖：https://x/1\n   复核：https://cw.example.edu.cn/posts/");
    expect(m.text).toContain("2. 标题2");
    expect(m.text).not.toContain("标题4"); // another account's flag
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ channel: "email", status: "sent", attempts: 1, lastError: null });
  });

  test("a 4xx reply is retried; a 5xx reply is final", async () => {
    const { run } = await runWithFlags({ email: "it-office@example.edu.cn" });
    rcptReplies = [451];
    expect(await notifyNewFlags(t.db, run.id, { ...fast, smtp: settings() })).toMatchObject({ sent: 1 });
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ status: "sent", attempts: 2 });

    const n = await t.db.notification.create({
      data: {
        topicId: (await t.db.topic.findFirstOrThrow()).id,
        channel: "email",
        target: "nobody@example.edu.cn",
        payload: (await t.db.notification.findFirstOrThrow()).payload,
        status: "pending",
      },
    });
    rcptReplies = [550];
    expect(await deliverNotification(t.db, n.id, { ...fast, smtp: settings() })).toBe("failed");
    expect(await t.db.notification.findUniqueOrThrow({ where: { id: n.id } })).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: expect.stringMatching(/^SMTP 550: .*No such user here/),
    });
    expect(mails).toHaveLength(1);
  });

  test("login: a wrong password is final and says so; the right one sends; failed e-mail can be retried", async () => {
    const { run } = await runWithFlags({ email: "it-office@example.edu.cn" });
    requireLogin = true;
    expect(await notifyNewFlags(t.db, run.id, { ...fast, smtp: settings({ user: "cw", pass: "wrong" }) })).toMatchObject({ failed: 1 });
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: expect.stringMatching(/^SMTP 535: .*Invalid username or password/),
    });
    expect(await retryFailedNotifications(t.db, { ...fast, smtp: settings({ user: "cw", pass: "secret-pass" }) })).toEqual({
      notifications: 1,
      sent: 1,
      failed: 0,
    });
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ status: "sent", attempts: 2 });
    expect(mails).toHaveLength(1);
  });

  test("an unreachable server is retried, then recorded with the network reason", async () => {
    const { run } = await runWithFlags({ email: "it-office@example.edu.cn" });
    expect(await notifyNewFlags(t.db, run.id, { ...fast, attempts: 2, smtp: settings({ port: 9 }) })).toMatchObject({ failed: 1 });
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({
      status: "failed",
      attempts: 2,
      lastError: expect.stringMatching(/^network error: ESOCKET connect ECONNREFUSED/),
    });
  });
});
