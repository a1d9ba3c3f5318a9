/**
 * The account form (issue 33 item 7): its switches are those of `campuswatch accounts set`
 * (enabled, OCR, fetch mode, backfill, re-check, adaptive with bounds), judged by the same
 * settings schema, each stored and audited once; a bad value is refused on its field and changes
 * nothing. A changed URL keeps the account's history marks, or with "start over" deletes them
 * (and its listing validators) with the change, and the audit entry says which. The form's
 * fields go through accountFormSchema and updateAccount / createAccount as the server actions
 * send them (app/(dashboard)/accounts/actions.ts), on a real database (SQLite, or PostgreSQL with
 * CAMPUSWATCH_TEST_DB=postgresql). URLs are loopback literals: no DNS is asked.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { userActor, type AuditActor } from "@/lib/audit";
import { ValidationError } from "@/lib/validation";
import { durationInput, parseDuration } from "@/lib/time";
import { accountFormSchema, createAccount, updateAccount } from "@/server/accounts";

const BOARD = (fid: number) => `http://127.0.0.1:9/bbs/forum.php?mod=forumdisplay&fid=${fid}`;

let t: TestDb;
let actor: AuditActor;

beforeAll(async () => {
  t = await createTestDb();
  const u = await t.db.user.create({ data: { username: "chief", passwordHash: "x", role: "admin" } });
  actor = userActor({ id: u.id, username: u.username });
});
afterAll(async () => {
  await t?.cleanup();
});

/** What the edit form posts for an account with the default switches: every field, as text. */
function fields(url: string, over: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    url,
    platform: "auto",
    name: "",
    interval: "*/30 * * * *",
    cron: "",
    switches: "1",
    enabled: "on",
    fetchMode: "auto",
    backfillDays: "",
    backfillPages: "",
    recheckDays: "0",
    minIntervalS: "",
    maxIntervalS: "",
    ...over,
  };
  // An unticked checkbox (or an unchosen radio) is not sent at all.
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Submit the edit form as updateAccountAction does: the form's issues, or the stored row. */
async function save(id: number, values: Record<string, string>) {
  const parsed = accountFormSchema.safeParse(values);
  if (!parsed.success) return { issues: parsed.error.issues.map((i) => i.path.join(".")) };
  return { row: await updateAccount(t.db, id, parsed.data, actor) };
}

/** Board numbers not used yet: each test registers accounts of its own. */
let nextFid = 1000;

async function newAccount(fid = nextFid++) {
  return createAccount(t.db, { url: BOARD(fid), name: `board ${fid}`, cron: "*/30 * * * *" }, actor);
}

const entries = (id: number) => t.db.auditEntry.findMany({ where: { kind: "account", targetId: String(id) }, orderBy: { id: "asc" } });
const json = (s: string) => JSON.parse(s) as Record<string, unknown>;

describe("the account form's switches", () => {
  test("a new account takes them as `accounts add` does", async () => {
    const parsed = accountFormSchema.parse(
      fields(BOARD(100), {
        ocr: "on",
        fetchMode: "browser",
        backfillDays: "14",
        backfillPages: "3",
        recheckDays: "2",
        adaptive: "on",
        minIntervalS: "2m",
        maxIntervalS: "2h",
      }),
    );
    const row = await createAccount(t.db, { ...parsed, ...parsed.settings }, actor);
    expect(row).toMatchObject({
      enabled: true,
      ocr: true,
      fetchMode: "browser",
      backfillDays: 14,
      backfillPages: 3,
      recheckDays: 2,
      adaptive: true,
      minIntervalS: 120,
      maxIntervalS: 7200,
    });
    const log = await entries(row.id);
    expect(log.map((e) => e.action)).toEqual(["create"]);
    expect(json(log[0]!.after)).toMatchObject({ ocr: true, fetchMode: "browser", adaptive: true, minIntervalS: 120, maxIntervalS: 7200 });
  });

  test("an adaptive new account without its bounds is refused, and nothing is created", async () => {
    const parsed = accountFormSchema.parse(fields(BOARD(101), { adaptive: "on" }));
    const refused = await createAccount(t.db, { ...parsed, ...parsed.settings }, actor).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).detail.code).toBe("adaptiveBounds");
    expect(await t.db.account.count({ where: { entryUrl: BOARD(101) } })).toBe(0);
  });

  test.each([
    ["disabled (an unticked box)", { enabled: undefined }, { enabled: false }],
    ["OCR", { ocr: "on" }, { ocr: true }],
    ["fetch mode", { fetchMode: "http" }, { fetchMode: "http" }],
    ["backfill days", { backfillDays: "30" }, { backfillDays: 30 }],
    ["backfill pages", { backfillPages: "5" }, { backfillPages: 5 }],
    ["re-check days", { recheckDays: "7" }, { recheckDays: 7 }],
    ["adaptive with bounds", { adaptive: "on", minIntervalS: "90s", maxIntervalS: "1d" }, { adaptive: true, minIntervalS: 90, maxIntervalS: 86_400 }],
  ] as const)("%s is stored and audited once", async (_name, over, expected) => {
    const a = await newAccount();
    const { row, issues } = await save(a.id, fields(a.entryUrl, { name: a.name, ...over }));
    expect(issues).toBeUndefined();
    expect(row).toMatchObject(expected);
    const log = await entries(a.id);
    expect(log.map((e) => e.action)).toEqual(["create", "update"]);
    expect(json(log[1]!.after)).toEqual(expected);
  });

  test("the edit form shows a stored limit, and an emptied one is no limit again", async () => {
    const a = await newAccount(300);
    await save(a.id, fields(a.entryUrl, { name: a.name, backfillDays: "30", maxIntervalS: durationInput(7200), minIntervalS: durationInput(90) }));
    const stored = await t.db.account.findUniqueOrThrow({ where: { id: a.id } });
    // What the edit form fills in (components/accounts/account-switches.tsx) reads back as stored.
    expect([durationInput(stored.minIntervalS!), durationInput(stored.maxIntervalS!)]).toEqual(["90s", "2h"]);
    expect(parseDuration(durationInput(stored.maxIntervalS!))).toBe(7200);
    const { row } = await save(a.id, fields(a.entryUrl, { name: a.name, backfillDays: "" }));
    expect(row).toMatchObject({ backfillDays: null, minIntervalS: null, maxIntervalS: null });
    const log = await entries(a.id);
    expect(log).toHaveLength(3);
    expect(json(log[2]!.before)).toEqual({ backfillDays: 30, minIntervalS: 90, maxIntervalS: 7200 });
  });

  test("a form without the switches (an older page) leaves them as they are", async () => {
    const a = await newAccount(310);
    await save(a.id, fields(a.entryUrl, { name: a.name, ocr: "on", recheckDays: "3" }));
    const { row } = await save(a.id, fields(a.entryUrl, { name: a.name, switches: undefined, enabled: undefined, cron: "", interval: "0 * * * *" }));
    expect(row).toMatchObject({ enabled: true, ocr: true, recheckDays: 3, cron: "0 * * * *" });
  });
});

describe("a bad value is refused on its field and nothing changes", () => {
  test.each([
    ["backfillDays", { backfillDays: "abc" }],
    ["backfillDays", { backfillDays: "0" }],
    ["backfillPages", { backfillPages: "2.5" }],
    ["recheckDays", { recheckDays: "-1" }],
    ["recheckDays", { recheckDays: "99999" }],
    ["fetchMode", { fetchMode: "curl" }],
    ["minIntervalS", { minIntervalS: "10s", maxIntervalS: "1h" }],
    ["maxIntervalS", { minIntervalS: "1m", maxIntervalS: "8d" }],
    ["minIntervalS", { minIntervalS: "soon", maxIntervalS: "1h" }],
    ["marks", { marks: "maybe" }],
  ] as const)("%s: %j", async (field, over) => {
    const a = await newAccount();
    const before = await t.db.account.findUniqueOrThrow({ where: { id: a.id } });
    // Beside good changes (a new name, OCR on): none of them is stored either.
    const { row, issues } = await save(a.id, fields(a.entryUrl, { name: "renamed", ocr: "on", ...over }));
    expect(row).toBeUndefined();
    expect(issues).toEqual([field === "marks" ? "marks" : `settings.${field}`]);
    expect(await t.db.account.findUniqueOrThrow({ where: { id: a.id } })).toEqual(before);
    expect((await entries(a.id)).map((e) => e.action)).toEqual(["create"]);
  });

  test.each([
    ["adaptive without bounds", { adaptive: "on" }, "adaptiveBounds"],
    ["a minimum over the maximum", { adaptive: "on", minIntervalS: "2h", maxIntervalS: "1h" }, "adaptiveOrder"],
  ] as const)("%s is refused on minIntervalS", async (_name, over, code) => {
    const a = await newAccount();
    const before = await t.db.account.findUniqueOrThrow({ where: { id: a.id } });
    const refused = await save(a.id, fields(BOARD(nextFid++), { name: "renamed", marks: "reset", ...over })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).detail.code).toBe(code);
    expect(Object.keys((refused as ValidationError).fieldErrors)).toEqual(["minIntervalS"]);
    expect(await t.db.account.findUniqueOrThrow({ where: { id: a.id } })).toEqual(before);
    expect((await entries(a.id)).map((e) => e.action)).toEqual(["create"]);
  });
});

describe("a changed URL keeps or deletes the history marks", () => {
  /** An account that has been crawled: an account mark, two thread marks, kept listing validators. */
  async function crawled(fid: number) {
    const a = await newAccount(fid);
    const at = new Date("2026-12-01T02:00:00Z");
    await t.db.historyMark.createMany({
      data: [
        { accountId: a.id, scope: "", newestAt: at },
        { accountId: a.id, scope: "7001", newestAt: at, resume: '{"page":3}' },
        { accountId: a.id, scope: "7002", newestAt: at, resume: '{"last":9}' },
      ],
    });
    const validators = JSON.stringify({
      urls: { [a.entryUrl]: { etag: '"v1"' } },
      savedAt: at.toISOString(),
      notModifiedAt: null,
      notModifiedRuns: 0,
      notModifiedTotal: 0,
    });
    await t.db.account.update({ where: { id: a.id }, data: { listValidators: validators } });
    return { a, validators };
  }
  const marksOf = (id: number) => t.db.historyMark.count({ where: { accountId: id } });

  test("start over: the marks and validators go with the URL change, and the log says so", async () => {
    const { a } = await crawled(600);
    const other = await crawled(601);
    const { row } = await save(a.id, fields(BOARD(602), { name: a.name, marks: "reset" }));
    expect(row).toMatchObject({ entryUrl: BOARD(602), listValidators: null });
    expect(await marksOf(a.id)).toBe(0);
    // Another account's marks are not touched.
    expect(await marksOf(other.a.id)).toBe(3);
    const log = await entries(a.id);
    expect(log.map((e) => e.action)).toEqual(["create", "update"]);
    expect(json(log[1]!.before)).toEqual({ entryUrl: BOARD(600), historyMarks: 3 });
    expect(json(log[1]!.after)).toEqual({ entryUrl: BOARD(602), historyMarks: 0, marks: "reset" });
  });

  test.each([
    ["keep", "keep"],
    ["no choice sent", undefined],
  ] as const)("keep (%s): the marks and validators stay, and the log says they were kept", async (_name, marks) => {
    const { a, validators } = await crawled(marks ? 610 : 620);
    const url = BOARD(nextFid++);
    const { row } = await save(a.id, fields(url, { name: a.name, marks }));
    expect(row).toMatchObject({ entryUrl: url, listValidators: validators });
    expect(await marksOf(a.id)).toBe(3);
    const log = await entries(a.id);
    expect(log).toHaveLength(2);
    expect(json(log[1]!.after)).toEqual({ entryUrl: url, marks: "keep" });
  });

  test("start over without a URL change deletes nothing", async () => {
    const { a, validators } = await crawled(630);
    const { row } = await save(a.id, fields(a.entryUrl, { name: a.name, marks: "reset", ocr: "on" }));
    expect(row).toMatchObject({ ocr: true, listValidators: validators });
    expect(await marksOf(a.id)).toBe(3);
    expect(json((await entries(a.id))[1]!.after)).toEqual({ ocr: true });
  });

  test("a URL another account has is refused, and the marks stay", async () => {
    const { a } = await crawled(640);
    const taken = await newAccount(641);
    const refused = await save(a.id, fields(taken.entryUrl, { name: a.name, marks: "reset" })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).detail.code).toBe("urlTaken");
    expect(await marksOf(a.id)).toBe(3);
    expect((await t.db.account.findUniqueOrThrow({ where: { id: a.id } })).entryUrl).toBe(BOARD(640));
    expect((await entries(a.id)).map((e) => e.action)).toEqual(["create"]);
  });
});
