"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { createDiscoveryRun } from "@/crawler/discover";
import { adoptCandidate, discoveryProblems, requestDiscoveryRun, requestPause, startDiscoverySchema } from "@/server/discovery";
import { codedIssueMessage } from "@/i18n/validation";
import { formValues, guard, localizedFailure, localizedInvalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * The start form's field errors in the reader's language: each issue of startDiscoverySchema
 * carries a code of `discovery.done` (server/discovery.ts discoveryProblems); any other is said
 * from its zod code and bounds.
 */
async function startInvalid(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const [state, t] = await Promise.all([localizedInvalid(error, values), getTranslations("discovery.done")]);
  const byField: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const text = codedIssueMessage(issue, discoveryProblems, t);
    if (text) (byField[issue.path.map(String).join(".") || "_"] ??= []).push(text);
  }
  return { ...state, errors: { ...state.errors, ...byField } };
}

/** Start a discovery run from the form: topic, seed set, strategy, limits. Runs in the background. */
export async function startDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const { user, state } = await guard("run-crawls");
  if (state) return { ...state, values };
  const parsed = startDiscoverySchema.safeParse(values);
  if (!parsed.success) return startInvalid(parsed.error, values);
  const input = parsed.data;
  let runId: number;
  try {
    const run = await createDiscoveryRun(db, {
      topic: input.topicId,
      seeds: { seedSet: input.seedSetId },
      strategy: input.strategy,
      maxPages: input.maxPages,
      options: { hostDelayMs: input.hostDelayMs, sameSite: input.sameSite },
    });
    runId = run.id;
  } catch (e) {
    if (e instanceof ValidationError) {
      // createDiscoveryRun names the fields topic/seeds; the form's fields are topicId/seedSetId.
      const fields: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(e.fieldErrors)) fields[k === "topic" ? "topicId" : k === "seeds" ? "seedSetId" : k] = v;
      return localizedFailure(new ValidationError(e.message, fields, e.detail), values);
    }
    throw e;
  }
  // Only asks: the run waits "queued" until the scheduler's process (or a PostgreSQL worker) takes
  // it, and its page follows it from the database. The answer comes at once.
  await requestDiscoveryRun(db, runId, user.id);
  revalidatePath("/discovery");
  redirect(`/discovery/${runId}`);
}

/** Pause a running (or still queued) run: it stops after the current page, with its frontier saved. */
export async function pauseDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { state } = await guard("run-crawls");
  if (state) return state;
  const t = await getTranslations("discovery.done");
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: t("noRun") };
  const paused = await requestPause(db, parsed.data.id);
  revalidatePath("/discovery");
  revalidatePath(`/discovery/${parsed.data.id}`);
  return paused ? { ok: true, message: t("pausing") } : { message: t("notRunning") };
}

/** Resume a paused or failed run, or take over a "running" one whose process stopped (stale). */
export async function resumeDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { user, state } = await guard("run-crawls");
  if (state) return state;
  const t = await getTranslations("discovery.done");
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: t("noRun") };
  const id = parsed.data.id;
  const r = await requestDiscoveryRun(db, id, user.id);
  if (r.refused) return { message: t(r.refused) };
  revalidatePath("/discovery");
  revalidatePath(`/discovery/${id}`);
  return { ok: true, message: t("resumed") };
}

/** Register a candidate as a monitored account (one click); adopting twice links the same account. */
export async function adoptCandidateAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  const t = await getTranslations("discovery.done");
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: t("noCandidate") };
  try {
    const r = await adoptCandidate(db, parsed.data.id, userActor(user));
    revalidatePath("/discovery", "layout");
    revalidatePath("/accounts");
    return { ok: true, message: r.created ? t("added", { id: r.accountId }) : t("alreadyMonitored", { id: r.accountId }) };
  } catch (e) {
    // server/discovery.ts refuses only an unknown candidate; anything else as lib/ words it.
    if (e instanceof ValidationError) return { message: e.fieldErrors.candidate ? t("candidateGone") : e.message };
    throw e;
  }
}
