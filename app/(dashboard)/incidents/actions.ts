"use server";

/**
 * The reviewer's actions on an incident (merge, split, rename, mark handled, reopen, "not one
 * incident"). Each follows the dashboard's order: parse with zod → authorize (review: reviewers
 * and admins) → write through crawler/incidents/review.ts → revalidate → redirect to the page
 * that shows the result.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { db } from "@/lib/db";
import {
  IncidentReviewError,
  INCIDENT_TITLE_MAX,
  mergeIncidents,
  incidentsInScope,
  mergeSchema,
  renameIncident,
  renameSchema,
  setIncidentStatus,
  splitIncident,
  splitSchema,
  statusSchema,
} from "@/server/incidents";
import { formValues, guard, type FormState } from "../_lib/form";

type Translate = Awaited<ReturnType<typeof getTranslations<"incidents.errors">>>;

/** One zod issue of the schemas in server/incidents.ts in the reader's language. */
function issueText(issue: z.core.$ZodIssue, t: Translate): string {
  const field = String(issue.path[0] ?? "");
  const max = issue.code === "too_big" ? Number(issue.maximum) : 0;
  if (field === "title") return issue.code === "too_big" ? t("tooLong", { max }) : t("titleRequired", { max: INCIDENT_TITLE_MAX });
  if (field === "note") return t("tooLong", { max });
  if (field === "otherId") return t("chooseIncident");
  if (field === "postIds") return t("choosePosts");
  if (field === "incidentId") return t("notFound");
  return t("invalid");
}

async function refused(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const t = await getTranslations("incidents.errors");
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? "_")] ??= []).push(issueText(issue, t));
  const firstIssue = error.issues[0];
  return { errors, message: firstIssue ? issueText(firstIssue, t) : t("invalid"), values };
}

/**
 * Authorize, run `write`, and redirect to `/incidents/<id>?done=<kind>` (the id and extra query
 * come from `write`); a refusal of the review module becomes the form's message.
 */
async function perform(
  values: Record<string, string>,
  kind: string,
  incidentIds: readonly number[],
  write: (userId: number) => Promise<{ goTo: number; extra?: Record<string, string> }>,
): Promise<FormState> {
  const { user, state } = await guard("review");
  if (state) return { ...state, values };
  // An incident outside the user's topic scope is not there for them (its page answers 404 too).
  if (!(await incidentsInScope(db, user.topics, incidentIds))) {
    const t = await getTranslations("incidents.errors");
    return { message: t("notFound"), values };
  }
  let target: { goTo: number; extra?: Record<string, string> };
  try {
    target = await write(user.id);
  } catch (e) {
    if (e instanceof IncidentReviewError) {
      const t = await getTranslations("incidents.errors");
      return { message: t(e.code), values };
    }
    throw e;
  }
  revalidatePath("/", "layout");
  const query = new URLSearchParams({ done: kind, ...target.extra });
  redirect(`/incidents/${target.goTo}?${query}`);
}

/** Rename (the title is then locked against clustering). */
export async function renameIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = renameSchema.safeParse(values);
  if (!parsed.success) return refused(parsed.error, values);
  const { incidentId, title, note } = parsed.data;
  return perform(values, "rename", [incidentId], async (userId) => {
    await renameIncident(db, { incidentId, title, note, userId });
    return { goTo: incidentId };
  });
}

/** Mark handled, reopen, or "not one incident". */
export async function incidentStatusAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = statusSchema.safeParse(values);
  if (!parsed.success) return refused(parsed.error, values);
  const { incidentId, move, note } = parsed.data;
  return perform(values, move, [incidentId], async (userId) => {
    await setIncidentStatus(db, { incidentId, move, note, userId });
    return { goTo: incidentId };
  });
}

/** Merge this incident with another, in the direction chosen; the page of the one kept opens. */
export async function mergeIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = mergeSchema.safeParse(values);
  if (!parsed.success) return refused(parsed.error, values);
  const { incidentId, otherId, direction, note } = parsed.data;
  const [intoId, fromId] = direction === "into-this" ? [incidentId, otherId] : [otherId, incidentId];
  return perform(values, "merge", [incidentId, otherId], async (userId) => {
    await mergeIncidents(db, { intoId, fromId, note, userId });
    return { goTo: intoId };
  });
}

/** Split the ticked members off into a new incident; this page opens again with a link to it. */
export async function splitIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  // A File in place of an id (a forged form) is no id.
  const postIds = formData.getAll("postId").filter((v): v is string => typeof v === "string");
  const parsed = splitSchema.safeParse({ ...values, postIds });
  if (!parsed.success) return refused(parsed.error, values);
  const { incidentId, title, note } = parsed.data;
  return perform(values, "split", [incidentId], async (userId) => {
    const { newIncidentId } = await splitIncident(db, { incidentId, postIds: parsed.data.postIds, title, note, userId });
    return { goTo: incidentId, extra: { new: String(newIncidentId) } };
  });
}
