"use server";

import { fileTooLarge, formatLimit, UPLOAD_LIMITS } from "@/lib/limits";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { parseSamples, sampleFormatOf } from "@/crawler/classify";
import { addSamples, clearUploadedSamples, createTopic, deleteTopic, startTopicJob, topicFormSchema, updateTopic } from "@/lib/queries/topics";
import { deliverNotification } from "@/lib/notify";
import { formValues, fromValidationError, guard, invalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** The submitted fields to send back with an error, without any secret just typed (it stays in the browser's field or is typed again). */
function topicValues(formData: FormData): Record<string, string> {
  return Object.fromEntries(Object.entries(formValues(formData)).filter(([key]) => !/Secret$/.test(key)));
}

export async function createTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = topicValues(formData);
  const parsed = topicFormSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-topics");
  if (state) return { ...state, values };
  let id: number;
  try {
    id = (await createTopic(db, parsed.data)).id;
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
  revalidatePath("/topics");
  redirect(`/topics/${id}?created=1`);
}

export async function updateTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = topicValues(formData);
  const ids = idSchema.safeParse(values);
  const parsed = topicFormSchema.safeParse(formValues(formData));
  if (!ids.success) return invalid(ids.error, values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-topics");
  if (state) return { ...state, values };
  try {
    await updateTopic(db, ids.data.id, parsed.data);
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
  revalidatePath("/topics");
  redirect(`/topics/${ids.data.id}?saved=1`);
}

const deleteSchema = z.object({ id: z.coerce.number().int().positive(), confirm: z.literal("delete", { error: "Confirm the deletion" }) });

export async function deleteTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = deleteSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {}, parsed.error.issues[0]?.message);
  const { state } = await guard("manage-topics");
  if (state) return state;
  await deleteTopic(db, parsed.data.id).catch(() => undefined);
  revalidatePath("/topics");
  redirect("/topics?deleted=1");
}

const uploadSchema = z.object({
  id: z.coerce.number().int().positive(),
  format: z.enum(["auto", "jsonl", "csv"]).default("auto"),
  file: z
    .instanceof(File, { error: "Choose a file" })
    .refine((f) => f.size > 0, "The file is empty")
    .refine((f) => !fileTooLarge(f, UPLOAD_LIMITS.samplesBytes), `The file is larger than ${formatLimit(UPLOAD_LIMITS.samplesBytes)}; split it`),
});

/** Upload labelled samples: bad rows are reported with their line, good rows kept. */
export async function uploadSamplesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = uploadSchema.safeParse({ id: formData.get("id"), format: formData.get("format") ?? "auto", file: formData.get("file") });
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-topics");
  if (state) return { ...state, values };
  const { id, file } = parsed.data;
  const format = parsed.data.format === "auto" ? sampleFormatOf(file.name) : parsed.data.format;
  const { samples, errors } = parseSamples(await file.text(), format);
  const kept = await addSamples(db, id, samples);
  revalidatePath(`/topics/${id}`);
  const details = errors.slice(0, 50).map((e) => `line ${e.line}: ${e.reason}`);
  if (errors.length > 50) details.push(`… and ${errors.length - 50} more`);
  if (kept === 0) return { errors: { file: [`No usable rows in ${file.name} (read as ${format.toUpperCase()}).`] }, message: `${errors.length} bad rows, none kept.`, details, values };
  return { ok: true, message: `Kept ${kept} samples from ${file.name}${errors.length ? `; ${errors.length} bad rows skipped` : ""}.`, details, values: { format: parsed.data.format } };
}

export async function clearSamplesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("manage-topics");
  if (state) return state;
  const { count } = await clearUploadedSamples(db, parsed.data.id);
  revalidatePath(`/topics/${parsed.data.id}`);
  return { ok: true, message: `Removed ${count} uploaded samples (review samples kept).` };
}

const jobSchema = z.object({ id: z.coerce.number().int().positive(), kind: z.enum(["train", "rescore"]) });

/** Start training or re-scoring in the background; the page polls the progress. */
export async function topicJobAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = jobSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("manage-topics");
  if (state) return state;
  const started = startTopicJob(db, parsed.data.id, parsed.data.kind);
  if (!started) return { message: "This topic is already training or re-scoring; wait for it to finish." };
  return { ok: true, message: parsed.data.kind === "train" ? "Training started." : "Re-scoring started." };
}

/** Deliver a failed notification again. */
export async function retryNotificationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ notificationId: z.coerce.number().int().positive(), id: z.coerce.number().int().positive() }).safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("manage-topics");
  if (state) return state;
  await db.notification.update({ where: { id: parsed.data.notificationId }, data: { status: "pending" } });
  const outcome = await deliverNotification(db, parsed.data.notificationId, { attempts: 1 });
  revalidatePath(`/topics/${parsed.data.id}`);
  return { ok: outcome === "sent", message: outcome === "sent" ? "Delivered." : "Failed again; see the last error." };
}
