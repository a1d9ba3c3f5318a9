import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { deliverNotification, notifyNewFlags } from "@/lib/notify";
import { createTestDb, type TestDb } from "../../support/db";

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

const fast = { backoffMs: () => 5, timeoutMs: 2000 };

async function runWithFlags(opts: { webhook?: string; email?: string } = {}) {
  const { db } = t;
  const account = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=x", name: "x吧" } });
  const other = await db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1234567", name: "w" } });
  const topic = await db.topic.create({ data: { name: "考试", webhookUrl: opts.webhook ?? null, notifyEmail: opts.email ?? null } });
  const quiet = await db.topic.create({ data: { name: "食堂" } });
  const run = await db.crawlRun.create({ data: { accountId: account.id, startedAt: new Date(Date.now() - 60_000) } });
  const mk = async (accountId: number, i: number, topicId: number, createdAt = new Date()) => {
    const p = await db.post.create({ data: { accountId, platformId: String(i), url: `https://x/${i}`, title: `标题${i}`, publishedAt: new Date(), text: `有人作弊 ${i}`, sha1: String(i) } });
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
    const payload = JSON.parse(received[0]!.body);
    expect(payload.topic).toEqual({ id: topic.id, name: "考试" });
    expect(payload.flags.map((f: { title: string }) => f.title)).toEqual(["标题1", "标题2"]);
    expect(payload.flags[0].dashboardUrl).toMatch(/^https:\/\/cw\.example\.edu\.cn\/posts\/\d+$/);
    const n = await t.db.notification.findFirstOrThrow();
    expect(n).toMatchObject({ status: "sent", attempts: 1, channel: "webhook", crawlRunId: run.id, lastError: null });
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
    expect(await t.db.notification.findFirstOrThrow()).toMatchObject({ channel: "email", status: "failed", lastError: expect.stringContaining("SMTP not configured") });
  });

  test("an unknown run or no topic with targets does nothing", async () => {
    expect(await notifyNewFlags(t.db, 999, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });
    const { run } = await runWithFlags();
    expect(await notifyNewFlags(t.db, run.id, fast)).toEqual({ notifications: 0, sent: 0, failed: 0 });
  });
});
