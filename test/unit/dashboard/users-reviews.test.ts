import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { addUser, changeRole, deleteUser, setUserDisabled } from "@/server/users";
import { reviewFlags, sampleLabel } from "@/server/reviews";
import { ValidationError } from "@/lib/validation";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

describe("user rules", () => {
  test("never delete or demote yourself, never lose the last admin", async () => {
    const a = await addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR);
    const r = await addUser(t.db, { username: "reviewer", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    await expect(addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR)).rejects.toMatchObject({
      fieldErrors: { username: ["this username is taken"] },
    });
    await expect(deleteUser(t.db, { userId: a.id, name: "test" }, a.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(changeRole(t.db, { userId: a.id, name: "test" }, a.id, "reviewer")).rejects.toBeInstanceOf(ValidationError);
    // Another admin may demote the last one? No: someone must stay admin.
    await expect(changeRole(t.db, { userId: r.id, name: "test" }, a.id, "reviewer")).rejects.toThrow(/last admin/);
    await changeRole(t.db, { userId: a.id, name: "test" }, r.id, "admin");
    await changeRole(t.db, { userId: r.id, name: "test" }, a.id, "reviewer");
    expect((await t.db.user.findUniqueOrThrow({ where: { id: a.id } })).role).toBe("reviewer");
    await expect(deleteUser(t.db, { userId: a.id, name: "test" }, r.id)).rejects.toThrow(/last admin/);
    await deleteUser(t.db, { userId: r.id, name: "test" }, a.id);
    expect(await t.db.user.count()).toBe(1);
  });
});

describe("disabling users", () => {
  test("never yourself, never the last enabled admin; a disabled admin does not count as one", async () => {
    const a = await addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR);
    const b = await addUser(t.db, { username: "second", password: "password-123", role: "admin" }, CLI_ACTOR);
    const r = await addUser(t.db, { username: "reviewer", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    await expect(setUserDisabled(t.db, { userId: a.id, name: "test" }, a.id, true)).rejects.toMatchObject({
      fieldErrors: { _: ["You cannot disable yourself; ask another admin."] },
    });
    expect((await setUserDisabled(t.db, { userId: a.id, name: "test" }, r.id, true)).disabledAt).toBeInstanceOf(Date);
    // Already disabled: nothing changes, the first date stays.
    const since = (await t.db.user.findUniqueOrThrow({ where: { id: r.id } })).disabledAt;
    expect((await setUserDisabled(t.db, { userId: a.id, name: "test" }, r.id, true)).disabledAt).toEqual(since);
    await setUserDisabled(t.db, { userId: a.id, name: "test" }, b.id, true);
    // b is disabled, so a is the last admin who can sign in: not to be disabled, demoted or deleted.
    await expect(setUserDisabled(t.db, { userId: b.id, name: "test" }, a.id, true)).rejects.toThrow(/last admin/);
    await expect(changeRole(t.db, { userId: b.id, name: "test" }, a.id, "reviewer")).rejects.toThrow(/last admin/);
    await expect(deleteUser(t.db, { userId: b.id, name: "test" }, a.id)).rejects.toThrow(/last admin/);
    expect((await setUserDisabled(t.db, { userId: a.id, name: "test" }, b.id, false)).disabledAt).toBeNull();
    await setUserDisabled(t.db, { userId: b.id, name: "test" }, a.id, true);
    await expect(setUserDisabled(t.db, { userId: a.id, name: "test" }, 9999, true)).rejects.toMatchObject({
      fieldErrors: { _: ["That user no longer exists."] },
    });
  });

  test("a user with review decisions cannot be deleted; the message says to disable them", async () => {
    const a = await addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR);
    const r = await addUser(t.db, { username: "reviewer", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    const account = await t.db.account.create({ data: { platform: "blog", entryUrl: "https://blog.example/", name: "b", cron: "0 * * * *" } });
    const post = await t.db.post.create({ data: { accountId: account.id, platformId: "1", url: "u", publishedAt: new Date(), text: "x", sha1: "x" } });
    const topic = await t.db.topic.create({ data: { name: "t" } });
    const flag = await t.db.flag.create({ data: { postId: post.id, topicId: topic.id, reasons: "[]", score: 1 } });
    await t.db.review.create({ data: { flagId: flag.id, reviewerId: r.id, decision: "confirm" } });
    await expect(deleteUser(t.db, { userId: a.id, name: "test" }, r.id)).rejects.toMatchObject({
      fieldErrors: { _: [expect.stringMatching(/made 1 review decisions.*Disable the user instead/)] },
    });
    await setUserDisabled(t.db, { userId: a.id, name: "test" }, r.id, true);
    expect(await t.db.review.count({ where: { reviewerId: r.id } })).toBe(1);
  });
});

describe("reviews", () => {
  test.each([
    ["confirm", '["exam","cheating"]', "exam"],
    ["confirm", "[]", "on-topic"],
    ["dismiss", '["exam"]', "off-topic"],
  ] as const)("%s with labels %s → sample label %s", (decision, labels, expected) => {
    expect(sampleLabel(decision, labels)).toBe(expected);
  });

  test("a decision sets the flag, records reviewer and note, and replaces the post's review sample", async () => {
    const { db } = t;
    const reviewer = await addUser(db, { username: "rev", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    const account = await db.account.create({ data: { platform: "blog", entryUrl: "https://b.cn/", name: "b" } });
    const topic = await db.topic.create({ data: { name: "考试", relevantLabels: '["exam"]' } });
    // One after the other: on PostgreSQL, parallel creates may take their ids in any order.
    const posts = [];
    const flags = [];
    for (const i of [1, 2]) {
      const p = await db.post.create({
        data: { accountId: account.id, platformId: String(i), url: `u${i}`, title: `标题${i}`, publishedAt: new Date(), text: `作弊${i}`, sha1: String(i) },
      });
      posts.push(p);
      flags.push(await db.flag.create({ data: { postId: p.id, topicId: topic.id, reasons: "[]", score: 0.8 } }));
    }
    expect(await reviewFlags(db, { flagIds: flags.map((f) => f.id), decision: "confirm", note: "已处理" }, { id: reviewer.id, username: "reviewer" })).toBe(2);
    expect(await db.flag.findMany({ select: { status: true, reviewedAt: true } })).toEqual([
      { status: "confirmed", reviewedAt: expect.any(Date) },
      { status: "confirmed", reviewedAt: expect.any(Date) },
    ]);
    expect(await db.review.findMany({ select: { decision: true, note: true, reviewerId: true } })).toEqual([
      { decision: "confirm", note: "已处理", reviewerId: reviewer.id },
      { decision: "confirm", note: "已处理", reviewerId: reviewer.id },
    ]);
    expect(await db.topicSample.findMany({ select: { label: true, source: true, text: true }, orderBy: { id: "asc" } })).toEqual([
      { label: "exam", source: "review", text: "标题1\n作弊1" },
      { label: "exam", source: "review", text: "标题2\n作弊2" },
    ]);
    // Changing one's mind: the flag is dismissed and its sample replaced, the first review kept.
    await reviewFlags(db, { flagIds: [flags[0]!.id], decision: "dismiss", note: "" }, { id: reviewer.id, username: "reviewer" });
    expect((await db.flag.findUniqueOrThrow({ where: { id: flags[0]!.id } })).status).toBe("dismissed");
    expect(await db.review.count({ where: { flagId: flags[0]!.id } })).toBe(2);
    expect(await db.topicSample.findMany({ where: { postId: posts[0]!.id }, select: { label: true } })).toEqual([{ label: "off-topic" }]);
    expect(await reviewFlags(db, { flagIds: [999], decision: "confirm", note: "" }, { id: reviewer.id, username: "reviewer" })).toBe(0);
  });
});
