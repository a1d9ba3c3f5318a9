/**
 * lib/ refuses in English (the CLI prints it); the dashboard says the same in the reader's
 * language (i18n/validation.ts). Every refusal of the user schemas and of server/users.ts
 * must map to its own message — never the generic "invalid value" — and the English catalogue
 * must say exactly what the CLI says.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createTranslator } from "next-intl";
import { z } from "zod";
import type { Locale } from "@/i18n/config";
import { messagesFor } from "@/i18n/messages";
import { genericIssueMessage, issueMessage, localizeIssues, localizeValidationError, type ValidationTranslate } from "@/i18n/validation";
import { newUserSchema } from "@/lib/users";
import { passwordSchema, addUser, changeRole, deleteUser, setUserDisabled } from "@/server/users";
import { completeSetup, createSetupToken } from "@/lib/auth/setup";
import { parseInput, ValidationError } from "@/lib/validation";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

function translator(locale: Locale): ValidationTranslate {
  return createTranslator({ locale, messages: messagesFor(locale), namespace: "validation" });
}
const zh = translator("zh-CN");
const en = translator("en");

function issuesOf(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a refusal");
  return r.error.issues;
}

/** The English message lib/ gave, per field (what the CLI prints). */
function libMessages(schema: z.ZodType, input: unknown): Record<string, string[]> {
  try {
    parseInput(schema, input);
  } catch (e) {
    if (e instanceof ValidationError) return e.fieldErrors;
  }
  throw new Error("expected a ValidationError");
}

describe("zod issues of the user schemas", () => {
  const ok = { username: "zhang.san", password: "password-123", role: "reviewer" };
  const cases: [string, Record<string, unknown>, string][] = [
    ["too short a username", { ...ok, username: "z" }, "用户名至少 2 个字符"],
    ["too long a username", { ...ok, username: "z".repeat(65) }, "用户名最多 64 个字符"],
    ["a username with a space", { ...ok, username: "zhang san" }, "用户名只能包含字母、数字和 _ . @ -"],
    ["too short a password", { ...ok, password: "short" }, "密码至少 8 个字符"],
    ["a password over 72 bytes", { ...ok, password: "密".repeat(25) }, "密码最多 72 字节（72 个字母或数字，或 24 个汉字）：bcrypt 会忽略超出的部分"],
    ["an unknown role", { ...ok, role: "owner" }, "角色只能是管理员、复核员或只读"],
  ];

  test.each(cases)("%s: its own message in Chinese", (_name, input, chinese) => {
    const issues = issuesOf(newUserSchema, input);
    expect(issues.map((i) => issueMessage(i).key)).not.toContain("invalidValue");
    expect(Object.values(localizeIssues(issues, zh)).flat()).toEqual([chinese]);
  });

  test.each(cases.filter(([name]) => name !== "an unknown role"))("%s: the English message is the CLI's", (_name, input) => {
    expect(localizeIssues(issuesOf(newUserSchema, input), en)).toEqual(libMessages(newUserSchema, input));
  });

  test("the password reset form and a missing field", () => {
    expect(localizeIssues(issuesOf(passwordSchema, { password: "1234" }), zh)).toEqual({ password: ["密码至少 8 个字符"] });
    expect(localizeIssues(issuesOf(passwordSchema, {}), zh)).toEqual({ password: ["必填"] });
  });
});

describe("refusals of server/users.ts and the setup link", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  async function refusal(p: Promise<unknown>): Promise<ValidationError> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    if (!(e instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(e)}`);
    return e;
  }

  /** The Chinese text, and that the English catalogue says what lib/ says. */
  function check(e: ValidationError, chinese: Record<string, string[]>) {
    expect(e.detail.code, e.message).toBeDefined();
    expect(localizeValidationError(e, zh)).toEqual(chinese);
    expect(localizeValidationError(e, en)).toEqual(e.fieldErrors);
  }

  test("each has a code with a message in both languages", async () => {
    const a = await addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR);
    const r = await addUser(t.db, { username: "reviewer", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    check(await refusal(addUser(t.db, { username: "admin", password: "password-123", role: "admin" }, CLI_ACTOR)), { username: ["此用户名已被占用"] });
    check(await refusal(changeRole(t.db, { userId: r.id, name: "test" }, a.id, "reviewer")), {
      _: ["这是最后一个管理员：更改其角色后将没有人能管理 CampusWatch。"],
    });
    check(await refusal(setUserDisabled(t.db, { userId: r.id, name: "test" }, a.id, true)), {
      _: ["这是最后一个管理员：停用该用户后将没有人能管理 CampusWatch。"],
    });
    check(await refusal(deleteUser(t.db, { userId: r.id, name: "test" }, a.id)), { _: ["这是最后一个管理员：删除该用户后将没有人能管理 CampusWatch。"] });
    check(await refusal(changeRole(t.db, { userId: a.id, name: "test" }, a.id, "reviewer")), { _: ["你不能更改自己的角色，请让其他管理员操作。"] });
    check(await refusal(deleteUser(t.db, { userId: a.id, name: "test" }, a.id)), { _: ["你不能删除自己。"] });
    check(await refusal(setUserDisabled(t.db, { userId: a.id, name: "test" }, a.id, true)), { _: ["你不能停用自己，请让其他管理员操作。"] });
    check(await refusal(setUserDisabled(t.db, { userId: a.id, name: "test" }, 999, true)), { _: ["该用户已不存在。"] });

    // A reviewer with review decisions cannot be deleted.
    const account = await t.db.account.create({ data: { platform: "blog", entryUrl: "https://blog.example/", name: "b", cron: "0 * * * *" } });
    const post = await t.db.post.create({ data: { accountId: account.id, platformId: "1", url: "u", publishedAt: new Date(), text: "x", sha1: "x" } });
    const topic = await t.db.topic.create({ data: { name: "t" } });
    const flag = await t.db.flag.create({ data: { postId: post.id, topicId: topic.id, reasons: "[]", score: 1 } });
    await t.db.review.create({ data: { flagId: flag.id, reviewerId: r.id, decision: "confirm" } });
    check(await refusal(deleteUser(t.db, { userId: a.id, name: "test" }, r.id)), {
      _: ["reviewer 已做出 1 条复核决定；删除该用户会抹去决定人的记录。请改为停用该用户。"],
    });
  });

  test("a used setup link, and the new admin's fields through the link", async () => {
    const token = await createSetupToken(t.db);
    const short = await refusal(completeSetup(t.db, token!, { username: "root", password: "short" }));
    expect(localizeValidationError(short, zh)).toEqual({ password: ["密码至少 8 个字符"] });
    await completeSetup(t.db, token!, { username: "root", password: "password-123" });
    check(await refusal(completeSetup(t.db, token!, { username: "other", password: "password-123" })), {
      _: ["此设置链接已失效：它已被使用过，或 CampusWatch 已有管理员。"],
    });
  });
});

describe("any other zod issue is said from its code and bounds, never a bare “invalid value”", () => {
  const schema = z.object({
    name: z.string().max(60, "at most 60 characters"),
    words: z.array(z.string()).max(2),
    threshold: z.number().min(0).max(1),
    email: z.email(),
    site: z.url(),
    mode: z.enum(["http", "browser"]),
  });
  const issues = issuesOf(schema, { name: "长".repeat(61), words: ["a", "b", "c"], threshold: 2, email: "x", site: "nope", mode: "ftp" });
  const say = (t: ValidationTranslate) => issues.map((i) => t(genericIssueMessage(i).key, genericIssueMessage(i).values));

  test("in Chinese", () => {
    expect(say(zh)).toEqual(["最多 60 个字符", "最多 2 项", "不能大于 1", "不是有效的电子邮件地址", "不是有效的网址", "不是可选的值"]);
  });
  test("in English", () => {
    expect(say(en)).toEqual([
      "at most 60 characters",
      "at most 2 entries",
      "at most 1",
      "not a valid e-mail address",
      "not a valid URL",
      "not one of the choices",
    ]);
  });
  test("a missing field is “required”", () => {
    expect(genericIssueMessage(issuesOf(z.object({ a: z.string() }), {})[0]!)).toEqual({ key: "required" });
  });
});
