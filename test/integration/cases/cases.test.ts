/**
 * Case handling (issue 33 item 2) on a real database: an incident or a flag is assigned to a user
 * with a due time and a note, moves 新建 → 处理中 → 已处置 / 误报 with who, when and a note, refuses
 * the moves it does not allow, leaves exactly one audit entry per change, shows up in the
 * assignee's 我的待办, and the assignee is told once on the topic's channel (a local webhook,
 * sent by the notify job the assignment asks for, as the scheduler would run it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, userActor } from "../../../lib/audit";
import { createUser } from "../../../lib/users";
import type { CaseAssignedPayload } from "../../../lib/notify";
import { caseEmail, caseMarkdown } from "../../../lib/notify/case";
import { createJobRunner } from "../../../crawler/jobs";
import { assignCase, assignableUsers, CaseError, getCase, listMyCases, openCaseCount, parseDue, setCaseStatus } from "../../../server/cases";
import { testDbs } from "../../support/db";
import { createIncident, seedPosts } from "../../support/incidents";
import { createTopicWithChannels } from "../../support/topics";
import { startWebhook, type RobotServer } from "../../support/chat-robots";
import type { Db } from "../../../lib/db";

const openDb = testDbs();
let hook: RobotServer<{ event: string }> | undefined;
afterEach(async () => {
  await hook?.close();
  hook = undefined;
});

// The receiver is on loopback: allowed as an in-house one would be. Links need the public URL.
const envBefore = { allow: process.env.CAMPUSWATCH_ALLOW_INTERNAL, url: process.env.CAMPUSWATCH_PUBLIC_URL };
const PUBLIC_URL = "https://cw.example.edu.cn";
beforeAll(() => {
  process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.0/8";
  process.env.CAMPUSWATCH_PUBLIC_URL = PUBLIC_URL;
});
afterAll(() => {
  for (const [name, value] of [
    ["CAMPUSWATCH_ALLOW_INTERNAL", envBefore.allow],
    ["CAMPUSWATCH_PUBLIC_URL", envBefore.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const T0 = new Date("2026-12-03T02:00:00Z");
const HOUR = 3_600_000;

/** A local webhook receiver: every body it was sent, parsed. */
async function startReceiver(): Promise<{ url: string; received: { event: string }[] }> {
  hook = await startWebhook();
  return { url: hook.webhook, received: hook.received };
}

/** A topic with a webhook, a flagged post and an incident of the topic, two reviewers and an admin. */
async function seed(db: Db, webhookUrl?: string) {
  const topic = webhookUrl
    ? await createTopicWithChannels(db, { name: "校园安全" }, { webhookUrl })
    : await db.topic.create({ data: { name: "校园安全" }, select: { id: true, name: true } });
  const [flaggedPost, other] = await seedPosts(db, [
    { text: "宿舍楼里有人打架", publishedAt: T0, flagTopicId: topic.id },
    { text: "食堂饭菜变质", publishedAt: new Date(T0.getTime() + HOUR) },
  ]);
  const flag = await db.flag.findFirstOrThrow({ where: { postId: flaggedPost } });
  const incidentId = await createIncident(db, { postIds: [other!], topicId: topic.id, title: "食堂饭菜变质" });
  const password = "a-long-test-password-1";
  const admin = await createUser(db, { username: "admin", password, role: "admin" });
  const li = await createUser(db, { username: "li_counsellor", password, role: "reviewer" });
  const wang = await createUser(db, { username: "wang", password, role: "reviewer" });
  return { topic, flag, flaggedPost: flaggedPost!, incidentId, admin, li, wang };
}

/** Run the jobs the changes asked for, as the scheduler's runner would. */
async function runJobs(db: Db): Promise<void> {
  const runner = createJobRunner({ db });
  for (const job of await db.job.findMany({ where: { status: "queued" }, orderBy: { id: "asc" } })) await runner.run(job.id);
}

describe("case handling", () => {
  it("assigns a flag with a due time and a note, tells the assignee once on the topic's webhook, and lists it in their 我的待办", async () => {
    const { db } = await openDb();
    const hookAt = await startReceiver();
    const s = await seed(db, hookAt.url);
    const due = parseDue("2026-12-04T18:00")!;
    expect(due.toISOString()).toBe("2026-12-04T10:00:00.000Z");

    const r = await assignCase(
      db,
      { subject: { kind: "flag", id: s.flag.id }, assigneeId: s.li.id, dueAt: due, note: "请今天联系当事学生" },
      userActor(s.admin),
      { now: T0 },
    );
    expect(r).toMatchObject({ created: true, notified: true });
    expect(r.notificationIds).toHaveLength(1);

    const c = await getCase(db, { kind: "flag", id: s.flag.id });
    expect(c).toMatchObject({ id: r.caseId, status: "new", assigneeId: s.li.id, note: "请今天联系当事学生" });
    expect(c!.dueAt!.toISOString()).toBe(due.toISOString());
    expect(c!.events).toHaveLength(1);
    expect(c!.events[0]).toMatchObject({ kind: "assign", userId: s.admin.id, actor: "admin", assignee: "li_counsellor", note: "请今天联系当事学生" });
    expect(c!.events[0]!.createdAt.toISOString()).toBe(T0.toISOString());

    // Nothing was sent by the server function itself: the notify job sends it.
    expect(hookAt.received).toHaveLength(0);
    await runJobs(db);
    expect(hookAt.received).toHaveLength(1);
    const body = hookAt.received[0] as CaseAssignedPayload;
    expect(body).toMatchObject({
      event: "campuswatch.case",
      kind: "assigned",
      topic: { id: s.topic.id, name: "校园安全" },
      assignee: { id: s.li.id, username: "li_counsellor" },
      assignedBy: "admin",
      subject: { kind: "flag", id: s.flag.id, postId: s.flaggedPost },
      case: { id: r.caseId, status: "new", dueAt: due.toISOString(), note: "请今天联系当事学生" },
      caseUrl: `${PUBLIC_URL}/posts/${s.flaggedPost}`,
      todoUrl: `${PUBLIC_URL}/todo`,
    });
    // Running the jobs again sends nothing more: the notice went once.
    await runJobs(db);
    expect(hookAt.received).toHaveLength(1);
    expect(await db.notification.findMany({ select: { status: true } })).toEqual([{ status: "sent" }]);

    // The chat and e-mail texts name the assignee, the due time (Shanghai) and the note.
    const md = caseMarkdown(body, { lineBreak: "\n" });
    // Markdown's own characters in a username are neutralised, as crawled text is (lib/notify/message.ts).
    expect(md.title).toContain("li＿counsellor");
    expect(md.text).toContain("12月4日 18:00");
    expect(md.text).toContain("请今天联系当事学生");
    expect(md.text).toContain(`(${PUBLIC_URL}/todo)`);
    expect(caseEmail({ ...body, locale: "en" }).text).toContain("Due: 2026-12-04 18:00");

    const mine = await listMyCases(db, s.li.id, { now: T0 });
    expect(mine.map((m) => [m.subject.kind, m.subject.id, m.status, m.href, m.overdue])).toEqual([
      ["flag", s.flag.id, "new", `/posts/${s.flaggedPost}#flag-${s.flag.id}`, false],
    ]);
    expect(mine[0]!.topic).toBe("校园安全");
    expect(await openCaseCount(db, s.li.id)).toBe(1);
    expect(await openCaseCount(db, s.wang.id)).toBe(0);
    expect(await listMyCases(db, s.wang.id, { now: T0 })).toEqual([]);
    // Past the due time it is overdue.
    expect((await listMyCases(db, s.li.id, { now: new Date(due.getTime() + 1) }))[0]!.overdue).toBe(true);

    const audit = await db.auditEntry.findMany();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      kind: "case",
      action: "assign",
      actor: "admin",
      userId: s.admin.id,
      targetId: String(r.caseId),
      note: "请今天联系当事学生",
    });
    expect(JSON.parse(audit[0]!.after)).toMatchObject({ assignee: "li_counsellor", dueAt: due.toISOString(), status: "new" });
  });

  it("moves a case 新建 → 处理中 → 已处置 with who, when and a note, refuses other moves, and writes one audit entry per change", async () => {
    const { db } = await openDb();
    const s = await seed(db);
    const { caseId, notified } = await assignCase(
      db,
      { subject: { kind: "incident", id: s.incidentId }, assigneeId: s.li.id, dueAt: null, note: "" },
      userActor(s.admin),
      { now: T0 },
    );
    // A topic without channels has nowhere to tell; the assignment stands.
    expect(notified).toBe(false);

    // 新建 cannot jump to 已处置, nor stay where it is.
    await expect(setCaseStatus(db, { caseId, status: "resolved", note: "" }, userActor(s.li), T0)).rejects.toMatchObject({ code: "badTransition" });
    await expect(setCaseStatus(db, { caseId, status: "new", note: "" }, userActor(s.li), T0)).rejects.toBeInstanceOf(CaseError);

    const t1 = new Date(T0.getTime() + HOUR);
    const t2 = new Date(T0.getTime() + 3 * HOUR);
    await setCaseStatus(db, { caseId, status: "in_progress", note: "已约谈学生" }, userActor(s.li), t1);
    await setCaseStatus(db, { caseId, status: "resolved", note: "食堂已整改，学生满意" }, userActor(s.wang), t2);
    // A closed case cannot be closed again as 误报 without being taken up.
    await expect(setCaseStatus(db, { caseId, status: "false_positive", note: "" }, userActor(s.li), t2)).rejects.toMatchObject({ code: "badTransition" });

    const c = (await getCase(db, { kind: "incident", id: s.incidentId }))!;
    expect(c.status).toBe("resolved");
    expect(c.closedAt!.toISOString()).toBe(t2.toISOString());
    expect(c.events.map((e) => [e.kind, e.fromStatus, e.toStatus, e.actor, e.userId, e.note, e.createdAt.toISOString()])).toEqual([
      ["assign", "new", "new", "admin", s.admin.id, "", T0.toISOString()],
      ["status", "new", "in_progress", "li_counsellor", s.li.id, "已约谈学生", t1.toISOString()],
      ["status", "in_progress", "resolved", "wang", s.wang.id, "食堂已整改，学生满意", t2.toISOString()],
    ]);

    // Exactly one audit entry for each change, none for the refused moves.
    const audit = await db.auditEntry.findMany({ orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.kind, a.action, a.actor, a.before, a.after, a.note])).toEqual([
      ["case", "assign", "admin", "{}", JSON.stringify({ assignee: "li_counsellor", dueAt: null, note: "", status: "new" }), ""],
      ["case", "status", "li_counsellor", '{"status":"new"}', '{"status":"in_progress"}', "已约谈学生"],
      ["case", "status", "wang", '{"status":"in_progress"}', '{"status":"resolved"}', "食堂已整改，学生满意"],
    ]);

    // Closed cases leave 我的待办 unless asked for; taking it up again brings it back.
    expect(await listMyCases(db, s.li.id)).toEqual([]);
    expect(await openCaseCount(db, s.li.id)).toBe(0);
    expect((await listMyCases(db, s.li.id, { includeClosed: true })).map((m) => m.status)).toEqual(["resolved"]);
    await setCaseStatus(db, { caseId, status: "in_progress", note: "学生再次反映" }, CLI_ACTOR, new Date(t2.getTime() + HOUR));
    const back = await getCase(db, { kind: "incident", id: s.incidentId });
    expect(back).toMatchObject({ status: "in_progress", closedAt: null });
    expect(back!.events.at(-1)).toMatchObject({ actor: "cli", userId: null, fromStatus: "resolved", toStatus: "in_progress" });
    expect(await db.auditEntry.count()).toBe(4);
  });

  it("reassigns with one event and one audit entry, lists open cases by due time, and refuses what cannot be assigned", async () => {
    const { db } = await openDb();
    const hookAt = await startReceiver();
    const s = await seed(db, hookAt.url);
    const early = new Date(T0.getTime() + 2 * HOUR);
    const late = new Date(T0.getTime() + 20 * HOUR);
    const a = await assignCase(
      db,
      { subject: { kind: "incident", id: s.incidentId }, assigneeId: s.wang.id, dueAt: late, note: "先看看" },
      userActor(s.admin),
      { now: T0 },
    );
    const b = await assignCase(db, { subject: { kind: "flag", id: s.flag.id }, assigneeId: s.li.id, dueAt: early, note: "" }, userActor(s.admin), { now: T0 });
    // Reassigned to li: the same case, a second event, a "reassign" entry with the old assignee.
    const again = await assignCase(
      db,
      { subject: { kind: "incident", id: s.incidentId }, assigneeId: s.li.id, dueAt: late, note: "改由李老师跟进" },
      userActor(s.admin),
      { now: new Date(T0.getTime() + HOUR) },
    );
    expect(again).toMatchObject({ caseId: a.caseId, created: false });
    const reassign = await db.auditEntry.findFirstOrThrow({ where: { action: "reassign" } });
    expect(JSON.parse(reassign.before)).toMatchObject({ assignee: "wang", note: "先看看" });
    expect(JSON.parse(reassign.after)).toMatchObject({ assignee: "li_counsellor", note: "改由李老师跟进" });
    expect(await db.auditEntry.count()).toBe(3);
    expect((await getCase(db, { kind: "incident", id: s.incidentId }))!.events).toHaveLength(2);

    // li's list: the earlier due time first.
    expect((await listMyCases(db, s.li.id, { now: T0 })).map((m) => m.id)).toEqual([b.caseId, a.caseId]);
    expect(await listMyCases(db, s.wang.id, { now: T0 })).toEqual([]);

    await runJobs(db);
    // One notice per assignment, each naming its assignee.
    expect(hookAt.received.map((p) => (p as CaseAssignedPayload).assignee.username)).toEqual(["wang", "li_counsellor", "li_counsellor"]);

    // A disabled user, an unknown user, an unknown subject and a merged incident are refused, and leave no trace.
    await db.user.update({ where: { id: s.wang.id }, data: { disabledAt: T0 } });
    expect((await assignableUsers(db)).map((u) => u.username)).toEqual(["admin", "li_counsellor"]);
    const subject = { kind: "flag", id: s.flag.id } as const;
    await expect(assignCase(db, { subject, assigneeId: s.wang.id, dueAt: null, note: "" }, CLI_ACTOR)).rejects.toMatchObject({ code: "assigneeNotAllowed" });
    await expect(assignCase(db, { subject, assigneeId: 9999, dueAt: null, note: "" }, CLI_ACTOR)).rejects.toMatchObject({ code: "assigneeNotFound" });
    await expect(assignCase(db, { subject: { kind: "flag", id: 9999 }, assigneeId: s.li.id, dueAt: null, note: "" }, CLI_ACTOR)).rejects.toMatchObject({
      code: "notFound",
    });
    await db.incident.update({ where: { id: s.incidentId }, data: { status: "merged" } });
    await expect(
      assignCase(db, { subject: { kind: "incident", id: s.incidentId }, assigneeId: s.li.id, dueAt: null, note: "" }, CLI_ACTOR),
    ).rejects.toMatchObject({ code: "mergedIncident" });
    expect(await db.auditEntry.count()).toBe(3);
    expect(await db.caseEvent.count()).toBe(3);
  });
});
