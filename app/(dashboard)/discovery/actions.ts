"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { abortHere, createDiscoveryRun, isRunningHere, startInBackground, started } from "@/crawler/discover";
import { adoptCandidate, isStale, requestPause, startDiscoverySchema } from "@/lib/queries/discovery";
import { formValues, fromValidationError, guard, invalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Start a discovery run from the form: topic, seed set, strategy, limits. Runs in the background. */
export async function startDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const { state } = await guard("run-crawls");
  if (state) return { ...state, values };
  const parsed = startDiscoverySchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
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
      return fromValidationError(new ValidationError(e.message, fields), values);
    }
    throw e;
  }
  startInBackground(db, runId);
  // Show the run once it is "running": a page rendered a moment earlier says "not started" and,
  // not being live, would never refresh (seen on a loaded machine).
  await started(runId);
  revalidatePath("/discovery");
  redirect(`/discovery/${runId}`);
}

/** Pause a running run: it stops after the current page, with its frontier saved. */
export async function pauseDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { state } = await guard("run-crawls");
  if (state) return state;
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: "No such run." };
  const paused = await requestPause(db, parsed.data.id);
  abortHere(parsed.data.id);
  revalidatePath("/discovery");
  revalidatePath(`/discovery/${parsed.data.id}`);
  return paused ? { ok: true, message: "Pausing after the current page." } : { message: "The run is not running." };
}

/** Resume a paused or failed run, or take over a "running" one whose process stopped (stale). */
export async function resumeDiscoveryAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { state } = await guard("run-crawls");
  if (state) return state;
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: "No such run." };
  const id = parsed.data.id;
  const run = await db.discoveryRun.findUnique({ where: { id }, select: { status: true, updatedAt: true, crawled: true, maxPages: true } });
  if (!run) return { message: "No such run." };
  if (isRunningHere(id)) return { message: "The run is already running." };
  if (run.status === "running" && !isStale(run)) return { message: "The run is running in another process." };
  if (run.status === "done" && run.crawled >= run.maxPages) return { message: "The run reached its page limit; start a new run to crawl further." };
  startInBackground(db, id, { force: run.status === "running" });
  await started(id);
  revalidatePath("/discovery");
  revalidatePath(`/discovery/${id}`);
  return { ok: true, message: "Resumed." };
}

/** Register a candidate as a monitored account (one click); adopting twice links the same account. */
export async function adoptCandidateAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const { state } = await guard("manage-accounts");
  if (state) return state;
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return { message: "No such candidate." };
  try {
    const r = await adoptCandidate(db, parsed.data.id);
    revalidatePath("/discovery", "layout");
    revalidatePath("/accounts");
    return { ok: true, message: r.created ? `Added as account ${r.accountId}.` : `Already monitored as account ${r.accountId}.` };
  } catch (e) {
    if (e instanceof ValidationError) return { message: e.message };
    throw e;
  }
}
