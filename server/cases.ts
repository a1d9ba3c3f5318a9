/**
 * Case handling (issue 33 item 2): the follow-up of one incident or one flag. A case is made by
 * its first assignment (to a user, with a due time and a note) and moves 新建 → 处理中 → 已处置 / 误报
 * ({@link CASE_TRANSITIONS}); every change is a CaseEvent (who, when, what, the note) and exactly one
 * audit entry of kind "case", written in the change's own transaction. The owner of the `Case` and
 * `CaseEvent` tables (docs/tables.md).
 *
 * An assignment is told to the assignee: users have no notification channel of their own, so the
 * message goes to the channels of the case's topic (the flag's topic, the incident's topic) and
 * names the assignee (lib/notify/case.ts); a `notify` job sends it within seconds. An incident
 * without a topic has no channel to tell: the assignment is made and {@link AssignResult} says so.
 *
 * Who may act is the caller's check (the "cases" permission, lib/permissions.ts); who may be
 * assigned is decided here: an enabled user whose role may handle cases. A per-user topic scope
 * can later narrow {@link listMyCases} and {@link assignableUsers} by the case's topic.
 */
import { z } from "zod";
import type { Db } from "../lib/db";
import { recordAudit, type AuditActor } from "../lib/audit";
import { can } from "../lib/permissions";
import { scopeWhere, type TopicScope } from "../lib/topic-scope";
import { incidentsInScope } from "./incidents";
import { ROLES, type Role } from "../lib/auth/session";
import { queueTopicMessage, type CaseAssignedPayload } from "../lib/notify";
import { requestJob } from "@/crawler/jobs";

/** Every case status: 新建, 处理中, 已处置, 误报. */
export const CASE_STATES = ["new", "in_progress", "resolved", "false_positive"] as const;
export type CaseState = (typeof CASE_STATES)[number];
/** A status a case can be moved to (none goes back to 新建). */
export type CaseMove = Exclude<CaseState, "new">;
/** Statuses still on someone's list. */
export const OPEN_CASE_STATES: readonly CaseState[] = ["new", "in_progress"];

/**
 * The moves a status allows. A case is closed as 已处置 (handled) only after being worked on; 误报
 * (a false alarm) may be said at once. A closed case may be taken up again (处理中), with a note:
 * nothing is lost, the earlier close stays in its history.
 */
export const CASE_TRANSITIONS: Readonly<Record<CaseState, readonly CaseMove[]>> = {
  new: ["in_progress", "false_positive"],
  in_progress: ["resolved", "false_positive"],
  resolved: ["in_progress"],
  false_positive: ["in_progress"],
};

export const CASE_NOTE_MAX = 1000;

/** Why a case change was refused; `code` is a key of the `cases.errors` messages. */
export class CaseError extends Error {
  constructor(
    readonly code: "notFound" | "assigneeNotFound" | "assigneeNotAllowed" | "mergedIncident" | "badTransition" | "noCase",
    message: string,
  ) {
    super(message);
    this.name = "CaseError";
  }
}

/** What a case follows: one incident or one flag. */
export type CaseSubject = { kind: "incident"; id: number } | { kind: "flag"; id: number };

const idSchema = z.coerce.number().int().positive();
const noteSchema = z.string().trim().max(CASE_NOTE_MAX).default("");

/** The assignment form: the subject, the user, an optional due time (ISO or `YYYY-MM-DDTHH:mm` in Asia/Shanghai) and a note. */
export const assignSchema = z.object({
  subjectKind: z.enum(["incident", "flag"]),
  subjectId: idSchema,
  assigneeId: idSchema,
  due: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || parseDue(v) !== null, { message: "due" }),
  note: noteSchema,
});

/** The status form: the case, the new status and a note. */
export const statusSchema = z.object({
  caseId: idSchema,
  status: z.enum(CASE_STATES),
  note: noteSchema,
});

/** A due time from a form: a `datetime-local` value is a time in Asia/Shanghai; a full ISO time is taken as it is. Null when not a time. */
export function parseDue(text: string): Date | null {
  const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  const d = local ? new Date(`${text}:00+08:00`) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(text) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

/** What {@link assignCase} did. */
export interface AssignResult {
  caseId: number;
  /** True when the case was made by this assignment. */
  created: boolean;
  /** Notification rows queued for the assignee (one per channel of the topic). */
  notificationIds: number[];
  /** False when there was no topic to tell (an incident without one); the assignment still stands. */
  notified: boolean;
  /** The assignee's name, and the topic whose channels were told (null without one). */
  assignee: string;
  topic: string | null;
}

/** The case's topic and what the notice calls the subject. */
async function subjectOf(db: Db, subject: CaseSubject) {
  if (subject.kind === "incident") {
    const i = await db.incident.findUnique({ where: { id: subject.id }, select: { id: true, title: true, status: true, topicId: true } });
    if (!i) return null;
    return { title: i.title, topicId: i.topicId, postId: null, merged: i.status === "merged", path: `/incidents/${i.id}` };
  }
  const f = await db.flag.findUnique({ where: { id: subject.id }, select: { topicId: true, post: { select: { id: true, title: true, text: true } } } });
  if (!f) return null;
  return {
    title: f.post.title || f.post.text.replace(/\s+/g, " ").slice(0, 60),
    topicId: f.topicId,
    postId: f.post.id,
    merged: false,
    path: `/posts/${f.post.id}`,
  };
}

/** The audit target label of a subject. */
function targetLabel(subject: CaseSubject, title: string): string {
  return `${subject.kind} #${subject.id}${title ? `: ${title.slice(0, 80)}` : ""}`;
}

/**
 * Assign an incident or a flag to a user, making its case (status 新建) on the first assignment.
 * Writes one CaseEvent and one audit entry, then queues the notice to the assignee on the topic's
 * channels and asks for a `notify` job to send it. Throws {@link CaseError} when refused.
 */
export async function assignCase(
  db: Db,
  input: { subject: CaseSubject; assigneeId: number; dueAt: Date | null; note: string },
  actor: AuditActor,
  opts: { now?: Date; baseUrl?: string } = {},
): Promise<AssignResult> {
  const now = opts.now ?? new Date();
  const subject = await subjectOf(db, input.subject);
  if (!subject) throw new CaseError("notFound", `${input.subject.kind} ${input.subject.id} not found`);
  if (subject.merged) throw new CaseError("mergedIncident", `incident ${input.subject.id} was merged: assign the incident it went into`);
  const assignee = await db.user.findUnique({ where: { id: input.assigneeId }, select: { id: true, username: true, role: true, disabledAt: true } });
  if (!assignee) throw new CaseError("assigneeNotFound", `user ${input.assigneeId} not found`);
  if (assignee.disabledAt || !isAssignableRole(assignee.role)) throw new CaseError("assigneeNotAllowed", `user ${assignee.username} cannot handle cases`);
  const key = input.subject.kind === "incident" ? { incidentId: input.subject.id } : { flagId: input.subject.id };
  const note = input.note.trim().slice(0, CASE_NOTE_MAX);
  const { caseId, created, status } = await db.$transaction(async (tx) => {
    const existing = await tx.case.findUnique({
      where: key,
      select: { id: true, status: true, assigneeId: true, dueAt: true, note: true, assignee: { select: { username: true } } },
    });
    const row = existing
      ? await tx.case.update({
          where: { id: existing.id },
          data: { assigneeId: assignee.id, dueAt: input.dueAt, note, updatedAt: now },
          select: { id: true, status: true },
        })
      : await tx.case.create({
          data: { ...key, assigneeId: assignee.id, dueAt: input.dueAt, note, status: "new", createdAt: now, updatedAt: now },
          select: { id: true, status: true },
        });
    await tx.caseEvent.create({
      data: {
        caseId: row.id,
        userId: actor.userId,
        actor: actor.name,
        kind: "assign",
        toStatus: row.status,
        fromStatus: row.status,
        assignee: assignee.username,
        dueAt: input.dueAt,
        note,
        createdAt: now,
      },
    });
    // One entry per assignment, in its transaction. Not an "update": a reassignment to the same
    // user with the same due time is still a decision someone made, and is recorded.
    await recordAudit(
      tx,
      actor,
      {
        kind: "case",
        action: existing ? "reassign" : "assign",
        targetId: row.id,
        target: targetLabel(input.subject, subject.title),
        before: existing ? { assignee: existing.assignee?.username ?? null, dueAt: existing.dueAt?.toISOString() ?? null, note: existing.note } : {},
        after: { assignee: assignee.username, dueAt: input.dueAt?.toISOString() ?? null, note, status: row.status },
        note,
      },
      now,
    );
    return { caseId: row.id, created: !existing, status: row.status };
  });
  const quiet = { caseId, created, notificationIds: [], notified: false, assignee: assignee.username, topic: null };
  if (subject.topicId === null) return quiet;
  const topic = await db.topic.findUnique({ where: { id: subject.topicId }, select: { id: true, name: true, notifyLocale: true } });
  if (!topic) return quiet;
  const baseUrl = (opts.baseUrl ?? process.env.CAMPUSWATCH_PUBLIC_URL ?? "").replace(/\/$/, "") || null;
  const payload: CaseAssignedPayload = {
    event: "campuswatch.case",
    kind: "assigned",
    locale: topic.notifyLocale === "en" ? "en" : "zh-CN",
    topic: { id: topic.id, name: topic.name },
    case: { id: caseId, status, dueAt: input.dueAt?.toISOString() ?? null, note },
    subject: { kind: input.subject.kind, id: input.subject.id, title: subject.title, postId: subject.postId },
    assignee: { id: assignee.id, username: assignee.username },
    assignedBy: actor.name,
    caseUrl: baseUrl ? `${baseUrl}${subject.path}` : null,
    todoUrl: baseUrl ? `${baseUrl}/todo` : null,
    at: now.toISOString(),
  };
  const notificationIds = await queueTopicMessage(db, topic.id, payload);
  if (notificationIds.length > 0) await requestJob(db, { kind: "notify", notificationIds }, { requestedBy: actor.userId });
  return { caseId, created, notificationIds, notified: notificationIds.length > 0, assignee: assignee.username, topic: topic.name };
}

/** True when a user of this role may be given a case (one who may handle cases; a read-only role may not). */
export function isAssignableRole(role: string): boolean {
  return (ROLES as readonly string[]).includes(role) && can(role as Role, "cases");
}

/**
 * Move a case to another status, with a note. Writes one CaseEvent and one audit entry; throws
 * {@link CaseError} ("badTransition") for a move {@link CASE_TRANSITIONS} does not allow.
 */
export async function setCaseStatus(db: Db, input: { caseId: number; status: CaseState; note: string }, actor: AuditActor, now = new Date()): Promise<void> {
  const note = input.note.trim().slice(0, CASE_NOTE_MAX);
  await db.$transaction(async (tx) => {
    const c = await tx.case.findUnique({
      where: { id: input.caseId },
      select: {
        id: true,
        status: true,
        incidentId: true,
        flagId: true,
        incident: { select: { title: true } },
        flag: { select: { post: { select: { title: true } } } },
      },
    });
    if (!c) throw new CaseError("noCase", `case ${input.caseId} not found`);
    const from = c.status as CaseState;
    if (!((CASE_TRANSITIONS[from] ?? []) as readonly CaseState[]).includes(input.status))
      throw new CaseError("badTransition", `a case cannot go from ${from} to ${input.status}`);
    // Only if it is still where it was read: two people moving it at once cannot both succeed.
    const moved = await tx.case.updateMany({
      where: { id: c.id, status: from },
      data: { status: input.status, updatedAt: now, closedAt: OPEN_CASE_STATES.includes(input.status) ? null : now },
    });
    if (moved.count !== 1) throw new CaseError("badTransition", `case ${c.id} changed meanwhile`);
    await tx.caseEvent.create({
      data: { caseId: c.id, userId: actor.userId, actor: actor.name, kind: "status", fromStatus: from, toStatus: input.status, note, createdAt: now },
    });
    const subject: CaseSubject = c.incidentId !== null ? { kind: "incident", id: c.incidentId } : { kind: "flag", id: c.flagId! };
    await recordAudit(
      tx,
      actor,
      {
        kind: "case",
        action: "status",
        targetId: c.id,
        target: targetLabel(subject, c.incident?.title ?? c.flag?.post.title ?? ""),
        before: { status: from },
        after: { status: input.status },
        note,
      },
      now,
    );
  });
}

/** One case with its history, for an incident's or a post's page. */
export async function getCase(db: Db, subject: CaseSubject) {
  return db.case.findUnique({
    where: subject.kind === "incident" ? { incidentId: subject.id } : { flagId: subject.id },
    include: { assignee: { select: { id: true, username: true } }, events: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
  });
}
export type CaseView = NonNullable<Awaited<ReturnType<typeof getCase>>>;

/** The cases of several flags at once (a post's flags), by flag id. */
export async function casesOfFlags(db: Db, flagIds: readonly number[]): Promise<Map<number, CaseView>> {
  if (flagIds.length === 0) return new Map();
  const rows = await db.case.findMany({
    where: { flagId: { in: [...flagIds] } },
    include: { assignee: { select: { id: true, username: true } }, events: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
  });
  return new Map(rows.map((r) => [r.flagId!, r]));
}

/** Users a case may be given to: enabled, with a role that handles cases; by name. */
export async function assignableUsers(db: Db): Promise<{ id: number; username: string }[]> {
  const users = await db.user.findMany({ where: { disabledAt: null }, select: { id: true, username: true, role: true }, orderBy: { username: "asc" } });
  return users.filter((u) => isAssignableRole(u.role)).map(({ id, username }) => ({ id, username }));
}

/** One row of 我的待办 (and of `campuswatch cases list`). */
export interface MyCaseRow {
  id: number;
  status: CaseState;
  /** The assignee's name; null when that user was deleted. */
  assignee: string | null;
  dueAt: Date | null;
  note: string;
  updatedAt: Date;
  subject: CaseSubject;
  title: string;
  topic: string | null;
  /** The dashboard page of the incident or of the flag's post. */
  href: string;
  /** Past its due time and still open. */
  overdue: boolean;
}

/**
 * 我的待办: the cases assigned to a user, open ones first (with a due time earliest first, then
 * without), then closed ones when `includeClosed`. At most `limit` rows.
 */
export function listMyCases(db: Db, userId: number, opts: { includeClosed?: boolean; now?: Date; limit?: number } = {}): Promise<MyCaseRow[]> {
  return listCases(db, { assigneeId: userId, includeClosed: opts.includeClosed }, opts);
}

/**
 * Cases in the order of {@link listMyCases}: everyone's, or one assignee's. A per-user topic scope
 * would be one more condition here (the case's incident's or flag's topic).
 */
export async function listCases(
  db: Db,
  filter: { assigneeId?: number; includeClosed?: boolean },
  opts: { now?: Date; limit?: number } = {},
): Promise<MyCaseRow[]> {
  const now = opts.now ?? new Date();
  const rows = await db.case.findMany({
    where: {
      ...(filter.assigneeId !== undefined ? { assigneeId: filter.assigneeId } : {}),
      ...(filter.includeClosed ? {} : { status: { in: [...OPEN_CASE_STATES] } }),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: opts.limit ?? 200,
    include: {
      assignee: { select: { username: true } },
      incident: { select: { id: true, title: true, topic: { select: { name: true } } } },
      flag: { select: { id: true, topic: { select: { name: true } }, post: { select: { id: true, title: true, text: true } } } },
    },
  });
  const out: MyCaseRow[] = rows.map((r) => {
    const status = r.status as CaseState;
    const open = OPEN_CASE_STATES.includes(status);
    const base = {
      id: r.id,
      status,
      assignee: r.assignee?.username ?? null,
      dueAt: r.dueAt,
      note: r.note,
      updatedAt: r.updatedAt,
      overdue: open && r.dueAt !== null && r.dueAt.getTime() < now.getTime(),
    };
    if (r.incident) {
      return {
        ...base,
        subject: { kind: "incident", id: r.incident.id },
        title: r.incident.title,
        topic: r.incident.topic?.name ?? null,
        href: `/incidents/${r.incident.id}`,
      };
    }
    const f = r.flag!;
    return {
      ...base,
      subject: { kind: "flag", id: f.id },
      title: f.post.title || f.post.text.replace(/\s+/g, " ").slice(0, 80),
      topic: f.topic.name,
      href: `/posts/${f.post.id}#flag-${f.id}`,
    };
  });
  // Open before closed; among open ones the most urgent due time first, undated after them.
  const rank = (r: MyCaseRow) => (OPEN_CASE_STATES.includes(r.status) ? 0 : 1);
  return out.sort(
    (a, b) => rank(a) - rank(b) || (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity) || b.updatedAt.getTime() - a.updatedAt.getTime(),
  );
}

/** A user's id by name (for the CLI's `--user`); null when there is none. */
export async function userIdByName(db: Db, username: string): Promise<number | null> {
  return (await db.user.findUnique({ where: { username }, select: { id: true } }))?.id ?? null;
}

/** How many open cases a user has (the count beside 我的待办 in the navigation). */
export function openCaseCount(db: Db, userId: number): Promise<number> {
  return db.case.count({ where: { assigneeId: userId, status: { in: [...OPEN_CASE_STATES] } } });
}

/**
 * Refuse (CaseError "notFound") a case change by a user whose topic `scope` does not hold the
 * case's incident or flag: to them it is not there, as its page is not.
 */
export async function assertCaseInScope(db: Db, scope: TopicScope, target: CaseSubject | { caseId: number }): Promise<void> {
  if (scope === null) return;
  let subject: CaseSubject | null;
  if ("kind" in target) subject = target;
  else {
    const row = await db.case.findUnique({ where: { id: target.caseId }, select: { incidentId: true, flagId: true } });
    subject = row?.incidentId ? { kind: "incident", id: row.incidentId } : row?.flagId ? { kind: "flag", id: row.flagId } : null;
  }
  const inside =
    subject !== null &&
    (subject.kind === "incident"
      ? await incidentsInScope(db, scope, [subject.id])
      : (await db.flag.count({ where: { id: subject.id, ...scopeWhere(scope) } })) === 1);
  if (!inside) throw new CaseError("notFound", "no such incident or flag in your topics");
}
