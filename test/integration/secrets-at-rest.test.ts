/**
 * Secrets at rest (issue 29, item 3): every credential column is sealed through the real write
 * paths (the topic form's queries, `accounts set`'s), bound to its row, and nowhere in the database
 * in plaintext: on SQLite the database file and its WAL are read byte by byte. Re-sealing under a
 * new secret (what `campuswatch secrets rotate` runs) leaves every value opening under the new
 * secret only; `db migrate`'s pass seals plaintext and v1 values left by older versions, and masks
 * robot URLs older versions logged whole in Notification.target. The robot and webhook URLs of a
 * topic are credentials too (their tokens). On SQLite and, with CAMPUSWATCH_TEST_DB=postgresql, on
 * PostgreSQL.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { testDbs, type TestDb } from "../support/db";
import { createAccount } from "../../server/accounts";
import { loadAccountCookies, setAccountCookies } from "../../server/account-access";
import { loadAccountProxy, setAccountProxy } from "../../server/account-proxy";
import { createTopic, topicFormSchema, updateTopic } from "../../server/topic-admin";
import { sessionSecret, sqlitePath } from "../../lib/config";
import { isCurrentSeal, seal, SealError, unseal } from "../../lib/secret-box";
import {
  ACCOUNT_COOKIES,
  ACCOUNT_PROXY,
  SEALED_COLUMNS,
  TOPIC_DINGTALK_SECRET,
  TOPIC_DINGTALK_WEBHOOK,
  TOPIC_FEISHU_SECRET,
  TOPIC_FEISHU_WEBHOOK,
  TOPIC_WEBHOOK_SECRET,
  TOPIC_WEBHOOK_URL,
  TOPIC_WECOM_WEBHOOK,
} from "../../lib/sealed-columns";
import { maskNotificationTargets, resealAll, ResealError, sealAtRest } from "../../lib/secret-rotate";
import { deliverNotification } from "../../lib/notify";
import { FatalError } from "../../crawler/errors";
import { CLI_ACTOR } from "../../lib/audit";

const openDb = testDbs();

// Distinct, greppable plaintexts (random, so that no other row can hold them by chance).
const tag = crypto.randomBytes(6).toString("hex");
const SECRETS = {
  webhook: `hook-secret-${tag}-0123456789`,
  dingtalk: `SECding${tag}0123456789abcdef`,
  feishu: `feishu-secret-${tag}`,
  cookie: `cookie-value-${tag}`,
  proxyPassword: `proxy-pw-${tag}`,
  // The tokens inside the robot URLs.
  hookToken: `hooktoken${tag}`,
  dingtalkToken: `dingtoken${tag}`,
  wecomKey: `wecomkey-${tag}`,
  feishuHook: `feishuhook-${tag}`,
};
/** The robot URLs, each with its token (and the generic webhook's own token in its path). */
const URLS = {
  webhookUrl: `http://127.0.0.1:9/hook/${SECRETS.hookToken}`,
  dingtalkWebhook: `http://127.0.0.1:9/robot/send?access_token=${SECRETS.dingtalkToken}`,
  wecomWebhook: `http://127.0.0.1:9/cgi-bin/webhook/send?key=${SECRETS.wecomKey}`,
  feishuWebhook: `http://127.0.0.1:9/open-apis/bot/v2/hook/${SECRETS.feishuHook}`,
};

/** A topic and an account written through the code the dashboard and the CLI use, with every kind of secret. */
async function writeEverything(t: TestDb) {
  const form = (extra: Record<string, string>) =>
    topicFormSchema.parse({
      name: `考试-${tag}`,
      ...URLS,
      webhookSecret: SECRETS.webhook,
      feishuSecret: SECRETS.feishu,
      ...extra,
    });
  const topic = await createTopic(t.db, form({}), CLI_ACTOR);
  // The DingTalk secret through an update (the other write path), the others kept (URL fields empty: kept too).
  await updateTopic(
    t.db,
    topic.id,
    form({
      webhookSecret: "",
      feishuSecret: "",
      dingtalkSecret: SECRETS.dingtalk,
      ...Object.fromEntries(Object.keys(URLS).map((k) => [k, ""])),
      dingtalkWebhookSet: "1",
    }),
    CLI_ACTOR,
  );
  const account = await createAccount(t.db, { url: "http://127.0.0.1:9/feed.atom", platform: "blog", fetchMode: "http" }, CLI_ACTOR);
  const other = await createAccount(t.db, { url: "http://127.0.0.1:9/other.atom", platform: "blog", fetchMode: "http" }, CLI_ACTOR);
  await setAccountCookies(t.db, account.id, `Cookie: sid=${SECRETS.cookie}`, CLI_ACTOR);
  await setAccountProxy(t.db, account.id, `http://ops:${SECRETS.proxyPassword}@127.0.0.1:3128`, CLI_ACTOR);
  return { topic, account, other };
}

/** Every sealed value stored, by column, with its row id. */
async function sealedValues(t: TestDb) {
  const topics = await t.db.topic.findMany({
    select: {
      id: true,
      webhookSecret: true,
      dingtalkSecret: true,
      feishuSecret: true,
      webhookUrl: true,
      dingtalkWebhook: true,
      wecomWebhook: true,
      feishuWebhook: true,
    },
  });
  const accounts = await t.db.account.findMany({ select: { id: true, cookies: true, proxy: true } });
  const out: { column: (typeof SEALED_COLUMNS)[number]; id: number; value: string }[] = [];
  for (const r of topics) {
    if (r.webhookSecret) out.push({ column: TOPIC_WEBHOOK_SECRET, id: r.id, value: r.webhookSecret });
    if (r.dingtalkSecret) out.push({ column: TOPIC_DINGTALK_SECRET, id: r.id, value: r.dingtalkSecret });
    if (r.feishuSecret) out.push({ column: TOPIC_FEISHU_SECRET, id: r.id, value: r.feishuSecret });
    if (r.webhookUrl) out.push({ column: TOPIC_WEBHOOK_URL, id: r.id, value: r.webhookUrl });
    if (r.dingtalkWebhook) out.push({ column: TOPIC_DINGTALK_WEBHOOK, id: r.id, value: r.dingtalkWebhook });
    if (r.wecomWebhook) out.push({ column: TOPIC_WECOM_WEBHOOK, id: r.id, value: r.wecomWebhook });
    if (r.feishuWebhook) out.push({ column: TOPIC_FEISHU_WEBHOOK, id: r.id, value: r.feishuWebhook });
  }
  for (const r of accounts) {
    if (r.cookies) out.push({ column: ACCOUNT_COOKIES, id: r.id, value: r.cookies });
    if (r.proxy) out.push({ column: ACCOUNT_PROXY, id: r.id, value: r.proxy });
  }
  return out;
}

describe("secrets at rest", () => {
  it("every credential is sealed (v2) and its plaintext is in neither the database file nor its WAL", async () => {
    const t = await openDb();
    const { topic, account } = await writeEverything(t);
    const stored = await sealedValues(t);
    expect(stored.map((s) => `${s.column.table}.${s.column.column}`).sort()).toEqual(
      [
        "Account.cookies",
        "Account.proxy",
        "Topic.dingtalkSecret",
        "Topic.feishuSecret",
        "Topic.webhookSecret",
        "Topic.webhookUrl",
        "Topic.dingtalkWebhook",
        "Topic.wecomWebhook",
        "Topic.feishuWebhook",
      ].sort(),
    );
    for (const s of stored) expect(isCurrentSeal(s.value)).toBe(true);
    // A sealed URL names neither its host nor its token; only its masked form beside it shows the origin.
    for (const s of stored.filter((x) => x.column.display)) {
      expect(s.value).toMatch(/^v2\.[\w-]+$/);
      for (const token of [SECRETS.hookToken, SECRETS.dingtalkToken, SECRETS.wecomKey, SECRETS.feishuHook]) expect(s.value).not.toContain(token);
    }
    expect(unseal(stored.find((s) => s.column === TOPIC_DINGTALK_WEBHOOK)!.value, TOPIC_DINGTALK_WEBHOOK, topic.id)).toBe(URLS.dingtalkWebhook);
    expect(await t.db.topic.findUniqueOrThrow({ where: { id: topic.id } })).toMatchObject({
      webhookUrlDisplay: "http://127.0.0.1:9/…",
      dingtalkWebhookDisplay: "http://127.0.0.1:9/…",
      wecomWebhookDisplay: "http://127.0.0.1:9/…",
      feishuWebhookDisplay: "http://127.0.0.1:9/…",
    });
    // The sender's and the crawler's reads open them.
    expect(unseal(stored.find((s) => s.column === TOPIC_DINGTALK_SECRET)!.value, TOPIC_DINGTALK_SECRET, topic.id)).toBe(SECRETS.dingtalk);
    expect(await loadAccountCookies(t.db, account.id)).toMatchObject([{ name: "sid", value: SECRETS.cookie }]);
    expect(await loadAccountProxy(t.db, account.id)).toMatchObject({ password: SECRETS.proxyPassword });

    if (t.kind === "sqlite") {
      const file = sqlitePath(t.url);
      const bytes = Buffer.concat([fs.readFileSync(file), fs.readFileSync(`${file}-wal`)]);
      // The WAL holds this test's writes (not yet checkpointed): what is searched is what was written.
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
      expect(bytes.includes(Buffer.from(`考试-${tag}`))).toBe(true); // the topic's name: not a secret, so found
      for (const [what, plaintext] of Object.entries(SECRETS)) expect(bytes.includes(Buffer.from(plaintext)), what).toBe(false);
    } else {
      // PostgreSQL's files are the server's: every text column of both tables, as the server returns them.
      const rows = JSON.stringify([await t.db.topic.findMany(), await t.db.account.findMany()]);
      expect(rows).toContain(`考试-${tag}`);
      for (const [what, plaintext] of Object.entries(SECRETS)) expect(rows.includes(plaintext), what).toBe(false);
    }
  });

  it("a sealed value copied into another row, or another column, does not open", async () => {
    const t = await openDb();
    const { account, other } = await writeEverything(t);
    const row = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
    await t.db.account.update({ where: { id: other.id }, data: { cookies: row.cookies, proxy: row.proxy } });
    const errors: string[] = [];
    expect(await loadAccountCookies(t.db, other.id, (m) => errors.push(m))).toEqual([]);
    expect(errors[0]).toMatch(/cannot be used \(.*belongs to another row.*\): set them again/);
    await expect(loadAccountProxy(t.db, other.id)).rejects.toBeInstanceOf(FatalError);
    // The proxy's sealed URL in the cookies column of its own row: another purpose, another key.
    await t.db.account.update({ where: { id: account.id }, data: { cookies: row.proxy } });
    expect(await loadAccountCookies(t.db, account.id)).toEqual([]);
    // The originals still open where they belong.
    expect(await loadAccountProxy(t.db, account.id)).toMatchObject({ password: SECRETS.proxyPassword });
  });

  it("re-sealing under a new secret: everything opens under the new secret and nothing under the old; a rerun changes nothing", async () => {
    const t = await openDb();
    await writeEverything(t);
    const old = sessionSecret();
    const next = new TextEncoder().encode(crypto.randomBytes(32).toString("hex"));
    const before = await sealedValues(t);
    const plain = before.map((s) => unseal(s.value, s.column, s.id, old));

    const counts = await resealAll(t.db, old, next);
    expect(counts.reduce((n, c) => n + c.resealed, 0)).toBe(before.length);
    const after = await sealedValues(t);
    expect(after.map((s) => unseal(s.value, s.column, s.id, next))).toEqual(plain);
    for (const s of after) {
      expect(isCurrentSeal(s.value)).toBe(true);
      expect(() => unseal(s.value, s.column, s.id, old)).toThrow(SealError);
    }
    // Finishing an interrupted rotation: values already under the new secret are left alone.
    const again = await resealAll(t.db, old, next);
    expect(again.reduce((n, c) => n + c.resealed, 0)).toBe(0);
    expect(again.reduce((n, c) => n + c.unchanged, 0)).toBe(before.length);
    expect(await sealedValues(t)).toEqual(after);
  });

  it("a value that opens under neither secret stops its table's rotation, names the row, and changes nothing in that table", async () => {
    const t = await openDb();
    const { account, other } = await writeEverything(t);
    const lost = new TextEncoder().encode("l".repeat(40));
    await t.db.account.update({ where: { id: other.id }, data: { cookies: seal("[]", ACCOUNT_COOKIES, other.id, lost) } });
    const before = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
    const err = await resealAll(t.db, sessionSecret(), new TextEncoder().encode("n".repeat(40))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResealError);
    expect((err as Error).message).toMatch(new RegExp(`^Account ${other.id}: its cookies cannot be opened`));
    // The Account table's transaction was rolled back (tables are taken in the list's order, Account first).
    expect(await t.db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ cookies: before.cookies, proxy: before.proxy });
  });

  it("db migrate's pass seals plaintext secrets, robot URLs and v1 values left by older versions, and skips what it cannot open", async () => {
    const t = await openDb();
    // A loopback receiver (allowed below as CAMPUSWATCH_ALLOW_INTERNAL would allow an in-house one).
    const bodies: string[] = [];
    const receiver = http.createServer((req, res) => {
      let b = "";
      req.on("data", (d: Buffer) => (b += d.toString("utf8")));
      req.on("end", () => (bodies.push(`${req.url} ${b}`), res.writeHead(204).end()));
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/${SECRETS.hookToken}`;
    const topic = await t.db.topic.create({
      data: { name: `旧-${tag}`, webhookUrl: hookUrl, dingtalkWebhook: URLS.dingtalkWebhook, dingtalkSecret: SECRETS.dingtalk },
    });
    // A notification an older version logged with the whole URL.
    const run = await t.db.crawlRun.create({
      data: { accountId: (await createAccount(t.db, { url: "http://127.0.0.1:9/n.atom", platform: "blog", fetchMode: "http" }, CLI_ACTOR)).id },
    });
    const payload = JSON.stringify({ event: "campuswatch.flags", topic: { id: topic.id, name: topic.name }, total: 0, flags: [] });
    const logged = await t.db.notification.create({ data: { topicId: topic.id, crawlRunId: run.id, channel: "webhook", target: hookUrl, payload } });
    const mail = await t.db.notification.create({ data: { topicId: topic.id, channel: "email", target: "duty@campus.test", payload } });
    const account = await createAccount(t.db, { url: "http://127.0.0.1:9/feed.atom", platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    const broken = await createAccount(t.db, { url: "http://127.0.0.1:9/b.atom", platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    // A v1 value as the previous version sealed it (HKDF purpose, AES-256-GCM, no associated data).
    const key = crypto.hkdfSync("sha256", sessionSecret(), Buffer.alloc(0), "campuswatch:account-proxy", 32);
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from(key), iv);
    const body = Buffer.concat([cipher.update(`http://ops:${SECRETS.proxyPassword}@127.0.0.1:3128`), cipher.final()]);
    const v1 = "v1." + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    await t.db.account.update({ where: { id: account.id }, data: { proxy: v1 } });
    await t.db.account.update({ where: { id: broken.id }, data: { cookies: "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });

    const done = await sealAtRest(t.db, sessionSecret);
    expect(done).toEqual([
      { table: "Account", column: "cookies", resealed: 0, unchanged: 0, unreadable: 1 },
      { table: "Account", column: "proxy", resealed: 1, unchanged: 0, unreadable: 0 },
      { table: "Topic", column: "dingtalkSecret", resealed: 1, unchanged: 0, unreadable: 0 },
      { table: "Topic", column: "webhookUrl", resealed: 1, unchanged: 0, unreadable: 0 },
      { table: "Topic", column: "dingtalkWebhook", resealed: 1, unchanged: 0, unreadable: 0 },
    ]);
    const row = await t.db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    expect(row.dingtalkSecret).toMatch(/^v2\./);
    expect(unseal(row.dingtalkSecret!, TOPIC_DINGTALK_SECRET, topic.id)).toBe(SECRETS.dingtalk);
    // The robot URLs: sealed (no host, no token in the column), their masked forms written beside them.
    for (const v of [row.webhookUrl!, row.dingtalkWebhook!]) expect(v).toMatch(/^v2\.[\w-]+$/);
    expect(unseal(row.webhookUrl!, TOPIC_WEBHOOK_URL, topic.id)).toBe(hookUrl);
    expect(row).toMatchObject({ webhookUrlDisplay: `${new URL(hookUrl).origin}/…`, dingtalkWebhookDisplay: "http://127.0.0.1:9/…" });
    // The log of notifications keeps only the origin of the URL; an e-mail address stays.
    expect(await maskNotificationTargets(t.db)).toBe(1);
    expect(await maskNotificationTargets(t.db)).toBe(0);
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: logged.id } })).target).toBe(`${new URL(hookUrl).origin}/…`);
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: mail.id } })).target).toBe("duty@campus.test");
    // Sending opens the sealed URL and still reaches the receiver, token and all.
    try {
      expect(await deliverNotification(t.db, logged.id, { attempts: 1, timeoutMs: 2000, allowInternal: ["127.0.0.1"] })).toBe("sent");
    } finally {
      await new Promise((r) => receiver.close(r));
    }
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(new RegExp(`^/hook/${SECRETS.hookToken} \\{"event":"campuswatch.flags"`));
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: logged.id } })).target).toBe(`${new URL(hookUrl).origin}/…`);
    expect((await t.db.account.findUniqueOrThrow({ where: { id: account.id } })).proxy).toMatch(/^v2\./);
    expect(await loadAccountProxy(t.db, account.id)).toMatchObject({ password: SECRETS.proxyPassword });
    // Idempotent: the unreadable value is reported again, nothing else is touched.
    expect(await sealAtRest(t.db, sessionSecret)).toEqual([{ table: "Account", column: "cookies", resealed: 0, unchanged: 0, unreadable: 1 }]);
  });
});
