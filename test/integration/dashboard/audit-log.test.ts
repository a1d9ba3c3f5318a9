/**
 * The audit log (issue 33): every kind of change the dashboard's server functions (and the CLI)
 * make leaves exactly one entry, with who, the kind, the action and the before/after values, and
 * no secret ever reaches the table. Real database (SQLite, or PostgreSQL with
 * CAMPUSWATCH_TEST_DB=postgresql), the same functions the server actions call.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { isSealed } from "@/lib/secret-box";
import { auditChoices, auditCsv, CLI_ACTOR, listAudit, recordAudit, userActor, type AuditActor } from "@/lib/audit";
import { createApiToken, revokeApiToken } from "@/lib/api-tokens";
import { createAccount, removeAccount, setAccountEnabled, updateAccount } from "@/server/accounts";
import { clearAccountCookies, setAccountCookies, setRobotsPolicy } from "@/server/account-access";
import { clearAccountProxy, setAccountProxy } from "@/server/account-proxy";
import { changeTopic, clearUploadedSamples, createTopic, deleteTopic, updateTopic, uploadSamples, topicToForm } from "@/server/topics";
import { addUser, changeRole, deleteUser, resetPassword, setUserDisabled } from "@/server/users";
import { reviewFlags } from "@/server/reviews";
import { answerQueue } from "@/server/review-queue";
import { createSeedSet, deleteSeedSet, importSeedUrls, removeSeedUrl } from "@/server/seeds";

const DING = "https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const DING_SECRET = "SEC5b2c8f1e9a7d3c6b4e2f0a1d9c8b7a6e5f4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";
const DING_TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const COOKIE_VALUE = "member-7-very-secret";
const PROXY_PASSWORD = "pr0xy-Pa55";
const USER_PASSWORD = "password-123-secret";

let t: TestDb;
let admin: { id: number; username: string; role: "admin" };
let actor: AuditActor;
let accountId: number;
let topicId: number;
let seedSetId: number;
let flagIds: number[] = [];
let postIds: number[] = [];
let otherUserId: number;

function topicForm(over: Record<string, string> = {}) {
  return {
    name: "考试",
    description: "",
    enabled: "on",
    keywords: "考试",
    sensitiveWords: "作弊",
    userDict: "",
    relevantLabels: "on-topic",
    nbThreshold: "0.5",
    cosineThreshold: "0.35",
    ...over,
  };
}

beforeAll(async () => {
  t = await createTestDb();
  const u = await t.db.user.create({ data: { username: "chief", passwordHash: "x", role: "admin" } });
  admin = { id: u.id, username: u.username, role: "admin" };
  actor = userActor(admin);
});
afterAll(async () => {
  await t?.cleanup();
});

/** A change, the entry it must leave (kind, action), and what the entry's values must say. */
interface Case {
  name: string;
  run: () => Promise<unknown>;
  kind: string;
  action: string;
  check?: (e: Awaited<ReturnType<typeof listAudit>>[number]) => void;
  by?: () => AuditActor;
}

const cases: Case[] = [
  {
    name: "account created",
    run: async () => {
      accountId = (await createAccount(t.db, { url: "https://tieba.baidu.com/f?kw=审计", cron: "*/15 * * * *" }, actor)).id;
      const post = (n: number) =>
        t.db.post.create({
          data: {
            accountId,
            platformId: `p${n}`,
            url: `https://tieba.baidu.com/p/${n}`,
            title: `帖子${n}`,
            publishedAt: new Date(),
            text: "考试 作弊",
            sha1: `s${n}`,
          },
        });
      postIds = [(await post(1)).id, (await post(2)).id, (await post(3)).id];
    },
    kind: "account",
    action: "create",
    check: (e) => expect(e.after).toMatchObject({ cron: "*/15 * * * *", enabled: true }),
  },
  {
    name: "account interval changed",
    run: () => updateAccount(t.db, accountId, { url: "https://tieba.baidu.com/f?kw=审计", platform: undefined, name: undefined, cron: "*/30 * * * *" }, actor),
    kind: "account",
    action: "update",
    check: (e) => {
      expect(e.before).toEqual({ cron: "*/15 * * * *" });
      expect(e.after).toEqual({ cron: "*/30 * * * *" });
    },
  },
  {
    name: "account disabled",
    run: () => setAccountEnabled(t.db, accountId, false, actor),
    kind: "account",
    action: "update",
    check: (e) => expect([e.before, e.after]).toEqual([{ enabled: true }, { enabled: false }]),
  },
  {
    name: "cookies set",
    run: () => setAccountCookies(t.db, accountId, `Cookie: sid=${COOKIE_VALUE}; theme=dark`, actor),
    kind: "cookies",
    action: "set",
    check: (e) => expect(e.after).toMatchObject({ cookies: "set", count: 2 }),
  },
  {
    name: "cookies cleared",
    run: () => clearAccountCookies(t.db, accountId, actor),
    kind: "cookies",
    action: "clear",
    check: (e) => expect([e.before.cookies, e.after.cookies]).toEqual(["set", ""]),
  },
  {
    name: "proxy set",
    run: () => setAccountProxy(t.db, accountId, `http://op:${PROXY_PASSWORD}@127.0.0.1:3128`, actor),
    kind: "proxy",
    action: "set",
    check: (e) => expect(String(e.after.proxy)).not.toContain(PROXY_PASSWORD),
  },
  { name: "proxy cleared", run: () => clearAccountProxy(t.db, accountId, actor), kind: "proxy", action: "clear" },
  {
    name: "robots ignored",
    run: () => setRobotsPolicy(t.db, accountId, "ignore", admin.username, actor),
    kind: "robots",
    action: "ignore",
    check: (e) => expect([e.before, e.after]).toEqual([{ robotsPolicy: "obey" }, { robotsPolicy: "ignore" }]),
  },
  {
    name: "topic created",
    run: async () => {
      topicId = (await createTopic(t.db, topicForm(), actor)).id;
      const flag = (postId: number) => t.db.flag.create({ data: { postId, topicId, reasons: "[]", score: 0.9 } });
      flagIds = [(await flag(postIds[0]!)).id, (await flag(postIds[1]!)).id];
    },
    kind: "topic",
    action: "create",
    check: (e) => expect(e.after).toMatchObject({ name: "考试", keywords: ["考试"], dingtalkWebhook: "" }),
  },
  {
    name: "topic threshold changed (form)",
    run: () => updateTopic(t.db, topicId, topicForm({ nbThreshold: "0.7" }), actor),
    kind: "topic",
    action: "update",
    check: (e) => expect([e.before, e.after]).toEqual([{ nbThreshold: 0.5 }, { nbThreshold: 0.7 }]),
  },
  {
    name: "topic keywords changed (CLI's changeTopic)",
    run: () => changeTopic(t.db, topicId, { keywords: "考试\n期末" }, CLI_ACTOR),
    by: () => CLI_ACTOR,
    kind: "topic",
    action: "update",
    check: (e) => expect(e.after).toEqual({ keywords: ["考试", "期末"] }),
  },
  {
    name: "channel set (DingTalk robot with a secret)",
    run: async () => {
      const row = await t.db.topic.findUniqueOrThrow({ where: { id: topicId } });
      const form = topicToForm({ ...row, secretsSet: { webhook: false, dingtalk: false, feishu: false } });
      await updateTopic(t.db, topicId, { ...form, name: row.name, dingtalkWebhook: DING, dingtalkSecret: DING_SECRET }, actor);
    },
    kind: "channel",
    action: "update",
    check: (e) => {
      expect(e.before).toMatchObject({ dingtalkWebhook: "", dingtalkSecret: "" });
      expect(e.after).toMatchObject({ dingtalkWebhook: "https://oapi.dingtalk.com/…", dingtalkSecret: "set" });
    },
  },
  {
    name: "channel cleared",
    run: async () => {
      const row = await t.db.topic.findUniqueOrThrow({ where: { id: topicId } });
      const form = topicToForm({ ...row, secretsSet: { webhook: false, dingtalk: true, feishu: false } });
      await updateTopic(t.db, topicId, { ...form, name: row.name, dingtalkWebhookClear: "on" }, actor);
    },
    kind: "channel",
    action: "update",
    check: (e) => expect(e.after).toMatchObject({ dingtalkWebhook: "", dingtalkSecret: "" }),
  },
  {
    name: "samples uploaded",
    run: () => uploadSamples(t.db, topicId, '{"text":"期末考试","label":"on-topic"}\n{"text":"食堂","label":"off-topic"}\n', "jsonl", actor),
    kind: "samples",
    action: "upload",
    check: (e) => expect(e.after).toMatchObject({ kept: 2 }),
  },
  { name: "samples cleared", run: () => clearUploadedSamples(t.db, topicId, actor), kind: "samples", action: "clear" },
  {
    name: "flag confirmed",
    run: () => reviewFlags(t.db, { flagIds: [flagIds[0]!], decision: "confirm", note: "核实" }, admin),
    kind: "review",
    action: "confirm",
    check: (e) => expect([e.targetId, e.before, e.after]).toEqual([String(flagIds[0]), { status: "open" }, { status: "confirmed", note: "核实" }]),
  },
  {
    name: "queue answered (unflagged post)",
    run: () => answerQueue(t.db, topicId, postIds[2]!, false, admin),
    kind: "review",
    action: "label-irrelevant",
  },
  {
    name: "user created",
    run: async () => {
      otherUserId = (await addUser(t.db, { username: "counsellor", password: USER_PASSWORD, role: "reviewer" }, actor)).id;
    },
    kind: "user",
    action: "create",
    check: (e) => expect(e.after).toEqual({ role: "reviewer", password: "set" }),
  },
  {
    name: "role changed",
    run: () => changeRole(t.db, actor, otherUserId, "admin"),
    kind: "user",
    action: "role",
    check: (e) => expect([e.before, e.after]).toEqual([{ role: "reviewer" }, { role: "admin" }]),
  },
  { name: "password reset", run: () => resetPassword(t.db, otherUserId, USER_PASSWORD + "2", actor), kind: "user", action: "password" },
  { name: "user disabled", run: () => setUserDisabled(t.db, actor, otherUserId, true), kind: "user", action: "disable" },
  {
    name: "API token created",
    run: () => createApiToken(t.db, admin, { name: "OA", scope: "read" }, actor),
    kind: "token",
    action: "create",
    check: (e) => expect(e.after).toMatchObject({ name: "OA", scope: "read" }),
  },
  {
    name: "API token revoked",
    run: async () => {
      const tok = await t.db.apiToken.findFirstOrThrow({ where: { userId: admin.id } });
      await revokeApiToken(t.db, tok.id, admin, actor);
    },
    kind: "token",
    action: "revoke",
  },
  {
    name: "seed set created",
    run: async () => {
      seedSetId = (await createSeedSet(t.db, "高校", actor)).id;
    },
    kind: "seed",
    action: "create",
  },
  {
    name: "seed URLs added",
    run: () => importSeedUrls(t.db, seedSetId, "http://localhost/a\nhttp://localhost/b\n", actor),
    kind: "seed",
    action: "add-urls",
    check: (e) => expect(e.after).toMatchObject({ added: 2 }),
  },
  {
    name: "seed URL removed",
    run: async () => {
      const url = await t.db.seedUrl.findFirstOrThrow({ where: { seedSetId } });
      await removeSeedUrl(t.db, seedSetId, url.id, actor);
    },
    kind: "seed",
    action: "remove-url",
  },
  { name: "seed set deleted", run: () => deleteSeedSet(t.db, seedSetId, actor), kind: "seed", action: "delete" },
  { name: "user deleted", run: () => deleteUser(t.db, actor, otherUserId), kind: "user", action: "delete" },
  {
    name: "topic deleted",
    run: () => deleteTopic(t.db, topicId, actor),
    kind: "topic",
    action: "delete",
    check: (e) => expect(e.before).toMatchObject({ name: "考试", flags: 2 }),
  },
  {
    name: "account deleted (CLI)",
    run: () => removeAccount(t.db, accountId, CLI_ACTOR),
    by: () => CLI_ACTOR,
    kind: "account",
    action: "delete",
    check: (e) => expect(e.userId).toBeNull(),
  },
];

describe("every kind of change leaves exactly one audit entry", () => {
  // In order: later changes work on what earlier ones made (the account, the topic, the user).
  for (const c of cases) {
    test(c.name, async () => {
      const before = await t.db.auditEntry.count();
      const lastId = (await t.db.auditEntry.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0;
      await c.run();
      expect(await t.db.auditEntry.count()).toBe(before + 1);
      const [entry] = await listAudit(t.db, {}, { take: 1 });
      expect(entry!.id).toBeGreaterThan(lastId);
      const by = c.by?.() ?? actor;
      expect({ kind: entry!.kind, action: entry!.action, actor: entry!.actor, userId: entry!.userId }).toEqual({
        kind: c.kind,
        action: c.action,
        actor: by.name,
        userId: by.userId,
      });
      c.check?.(entry!);
    });
  }

  test("no secret, cookie, password or sealed value reached the table", async () => {
    const rows = await t.db.auditEntry.findMany();
    expect(rows.length).toBe(cases.length);
    const all = JSON.stringify(rows);
    for (const secret of [COOKIE_VALUE, PROXY_PASSWORD, USER_PASSWORD, DING_SECRET, DING_TOKEN, "$2"]) expect(all).not.toContain(secret);
    // Nor any sealed text (lib/secret-box.ts), which would be a secret one key away.
    const values = rows.flatMap((r) => [r.before, r.after].flatMap((j) => Object.values(JSON.parse(j) as Record<string, unknown>)));
    expect(values.filter((v) => typeof v === "string" && isSealed(v))).toEqual([]);
  });

  test("an update that changes nothing records nothing", async () => {
    const a = await createAccount(t.db, { url: "https://tieba.baidu.com/f?kw=不变", cron: "*/15 * * * *" }, actor);
    const n = await t.db.auditEntry.count();
    await updateAccount(t.db, a.id, { url: "https://tieba.baidu.com/f?kw=不变", platform: undefined, name: undefined, cron: "*/15 * * * *" }, actor);
    await setAccountEnabled(t.db, a.id, true, actor);
    expect(await t.db.auditEntry.count()).toBe(n);
  });

  test("filters, choices and the CSV export (formula-guarded)", async () => {
    await recordAudit(t.db, CLI_ACTOR, { kind: "case", action: "assign", targetId: 1, target: '=HYPERLINK("x")', after: { assignee: "counsellor" } });
    expect((await listAudit(t.db, { kind: "cookies" })).map((e) => e.action)).toEqual(["clear", "set"]);
    expect((await listAudit(t.db, { actor: "cli" })).every((e) => e.userId === null)).toBe(true);
    expect(await listAudit(t.db, { since: new Date(Date.now() + 60_000) })).toEqual([]);
    const { actors, kinds } = await auditChoices(t.db);
    expect(actors).toEqual(["chief", "cli"]);
    expect(kinds).toContain("case");
    let csv = "";
    for await (const chunk of auditCsv(t.db, { kind: "case" })) csv += chunk;
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("id,time,actor,user_id,kind,action,target_id,target,before,after,note");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
