"use server";

/**
 * The case actions (issue 33 item 2): assign an incident or a flag to a user, and move a case's
 * status. Each follows the dashboard's order: parse with zod → authorize ("cases": admins and
 * reviewers) → write through server/cases.ts → revalidate. They answer with a message instead of
 * redirecting: the forms sit on the incident's and the post's pages, which show the new state.
 */
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { db } from "@/lib/db";
import { userActor } from "@/lib/audit";
import { assertCaseInScope, assignCase, assignSchema, CASE_NOTE_MAX, CaseError, parseDue, setCaseStatus, statusSchema } from "@/server/cases";
import { formValues, guard, type FormState } from "../_lib/form";

type Translate = Awaited<ReturnType<typeof getTranslations<"cases.errors">>>;

/** One zod issue of the case schemas in the reader's language. */
function issueText(issue: z.core.$ZodIssue, t: Translate): string {
  const field = String(issue.path[0] ?? "");
  if (field === "note") return t("tooLong", { max: CASE_NOTE_MAX });
  if (field === "assigneeId") return t("chooseUser");
  if (field === "due") return t("due");
  return t("invalid");
}

async function refused(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const t = await getTranslations("cases.errors");
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? "_")] ??= []).push(issueText(issue, t));
  const firstIssue = error.issues[0];
  return { errors, message: firstIssue ? issueText(firstIssue, t) : t("invalid"), values };
}

/** A refusal of server/cases.ts as the form's message; anything else is thrown on. */
async function caseRefusal(e: unknown, values: Record<string, string>): Promise<FormState> {
  if (!(e instanceof CaseError)) throw e;
  const t = await getTranslations("cases.errors");
  return { message: t(e.code), values };
}

/** Assign (or reassign) an incident or a flag; the assignee is notified on the topic's channels. */
export async function assignCaseAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = assignSchema.safeParse(values);
  if (!parsed.success) return refused(parsed.error, values);
  const { user, state } = await guard("cases");
  if (state) return { ...state, values };
  const { subjectKind, subjectId, assigneeId, due, note } = parsed.data;
  let result;
  try {
    await assertCaseInScope(db, user.topics, { kind: subjectKind, id: subjectId });
    result = await assignCase(db, { subject: { kind: subjectKind, id: subjectId }, assigneeId, dueAt: due ? parseDue(due) : null, note }, userActor(user));
  } catch (e) {
    return caseRefusal(e, values);
  }
  revalidatePath("/", "layout");
  const t = await getTranslations("cases.assign");
  return {
    ok: true,
    message: result.notified ? t("doneNotified", { user: result.assignee, topic: result.topic ?? "" }) : t("doneQuiet", { user: result.assignee }),
  };
}

/** Move a case to another status, with a note (who and when are recorded). */
export async function caseStatusAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = statusSchema.safeParse(values);
  if (!parsed.success) return refused(parsed.error, values);
  const { user, state } = await guard("cases");
  if (state) return { ...state, values };
  try {
    await assertCaseInScope(db, user.topics, { caseId: parsed.data.caseId });
    await setCaseStatus(db, parsed.data, userActor(user));
  } catch (e) {
    return caseRefusal(e, values);
  }
  revalidatePath("/", "layout");
  const [t, ts] = await Promise.all([getTranslations("cases.move"), getTranslations("cases.status")]);
  return { ok: true, message: t("done", { status: ts(parsed.data.status) }) };
}
