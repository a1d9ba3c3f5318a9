"use server";

import { userActor } from "@/lib/audit";
import { formatLimit, UPLOAD_LIMITS } from "@/lib/limits";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { sampleFormatOf } from "@/crawler/classify";
import { clearUploadedSamples, createTopic, deleteTopic, topicFormSchema, updateTopic, uploadSamples } from "@/server/topics";
import { requestNotificationSend, requestTopicJob } from "@/server/jobs";
import { formValues, guard, type FormState } from "../_lib/form";
import type { Messages } from "@/i18n/messages";
import { codedIssueMessage, codedMessage, genericIssueMessage } from "@/i18n/validation";
import { topicProblems } from "@/server/topic-problems";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

type ActionKey = keyof Messages["topics"]["actions"];

/**
 * Field errors of the topic forms in the reader's language: an issue or refusal with a code of
 * server/topic-problems.ts is said with its `topics.validation` message; any other zod issue from
 * its code and bounds (English keeps the schema's own words).
 */
async function localizeTopicErrors(source: z.ZodError | ValidationError): Promise<Record<string, string[]>> {
  const [t, tv, locale] = await Promise.all([getTranslations("topics.validation"), getTranslations("validation"), getLocale()]);
  const errors: Record<string, string[]> = {};
  const issues = source instanceof z.ZodError ? source.issues : source.detail.issues;
  if (issues) {
    for (const issue of issues) {
      const generic = genericIssueMessage(issue);
      const text = codedIssueMessage(issue, topicProblems, t) ?? (locale === "en" ? issue.message : tv(generic.key, generic.values));
      (errors[issue.path.map(String).join(".") || "_"] ??= []).push(text);
    }
    return errors;
  }
  if (source instanceof z.ZodError) return errors;
  const coded = codedMessage(source.detail.code ? { code: source.detail.code, values: source.detail.values } : null, topicProblems, t);
  for (const [field, messages] of Object.entries(source.fieldErrors)) {
    errors[field] = messages.map((m) => coded ?? (locale === "en" ? m : tv("invalidValue")));
  }
  return errors;
}

/** A failed parse or refusal of the topic form as translated form state. */
async function topicInvalid(source: z.ZodError | ValidationError, values: Record<string, string>): Promise<FormState> {
  const tc = await getTranslations("common");
  return { errors: await localizeTopicErrors(source), message: tc("correctFields"), values };
}

/**
 * A failed parse of a schema whose own messages are keys of `topics.actions` (the upload, delete
 * and id schemas below); other issues are said from their code and bounds.
 */
async function actionInvalid(error: z.ZodError, values: Record<string, string>, { firstAsMessage = false } = {}): Promise<FormState> {
  const [t, tv, tc] = await Promise.all([getTranslations("topics.actions"), getTranslations("validation"), getTranslations("common")]);
  const text = (issue: z.core.$ZodIssue) =>
    issue.message === "fileTooLarge"
      ? t("fileTooLarge", { limit: formatLimit(UPLOAD_LIMITS.samplesBytes) })
      : ACTION_KEYS.has(issue.message)
        ? t(issue.message as ActionKey)
        : tv(genericIssueMessage(issue).key, genericIssueMessage(issue).values);
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[issue.path.map(String).join(".") || "_"] ??= []).push(text(issue));
  const first = error.issues[0];
  return { errors, message: firstAsMessage && first ? text(first) : tc("correctFields"), values };
}
const ACTION_KEYS = new Set<string>(["confirmDelete", "chooseFile", "fileEmpty"]);

/**
 * The submitted fields to send back with an error, without any secret or robot URL just typed
 * (a URL holds its token): they are typed again.
 */
function topicValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(formValues(formData))) {
    if (/Secret$/.test(key)) continue;
    // Only that one was typed, so the form can ask for it again.
    if (/^(webhookUrl|dingtalkWebhook|wecomWebhook|feishuWebhook)$/.test(key)) {
      if (value.trim()) values[`${key}Typed`] = "1";
      continue;
    }
    values[key] = value;
  }
  return values;
}

export async function createTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = topicValues(formData);
  const parsed = topicFormSchema.safeParse(formValues(formData));
  if (!parsed.success) return topicInvalid(parsed.error, values);
  const { user, state } = await guard("manage-topics");
  if (state) return { ...state, values };
  let id: number;
  try {
    id = (await createTopic(db, parsed.data, userActor(user))).id;
  } catch (e) {
    if (e instanceof ValidationError) return topicInvalid(e, values);
    throw e;
  }
  revalidatePath("/topics");
  redirect(`/topics/${id}?created=1`);
}

export async function updateTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = topicValues(formData);
  const ids = idSchema.safeParse(values);
  const parsed = topicFormSchema.safeParse(formValues(formData));
  if (!ids.success) return actionInvalid(ids.error, values);
  if (!parsed.success) return topicInvalid(parsed.error, values);
  const { user, state } = await guard("manage-topics");
  if (state) return { ...state, values };
  try {
    await updateTopic(db, ids.data.id, parsed.data, userActor(user));
  } catch (e) {
    if (e instanceof ValidationError) return topicInvalid(e, values);
    throw e;
  }
  revalidatePath("/topics");
  redirect(`/topics/${ids.data.id}?saved=1`);
}

const deleteSchema = z.object({ id: z.coerce.number().int().positive(), confirm: z.literal("delete", { error: "confirmDelete" }) });

export async function deleteTopicAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = deleteSchema.safeParse(formValues(formData));
  if (!parsed.success) return actionInvalid(parsed.error, {}, { firstAsMessage: true });
  const { user, state } = await guard("manage-topics");
  if (state) return state;
  await deleteTopic(db, parsed.data.id, userActor(user)).catch(() => undefined);
  revalidatePath("/topics");
  redirect("/topics?deleted=1");
}

// The messages are keys of `topics.actions` (actionInvalid translates them).
const uploadSchema = z.object({
  id: z.coerce.number().int().positive(),
  format: z.enum(["auto", "jsonl", "csv"]).default("auto"),
  file: z
    .instanceof(File, { error: "chooseFile" })
    .refine((f) => f.size > 0, "fileEmpty")
    .refine((f) => f.size <= UPLOAD_LIMITS.samplesBytes, "fileTooLarge"),
});

/** Upload labelled samples: bad rows are reported with their line, good rows kept. */
export async function uploadSamplesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = uploadSchema.safeParse({ id: formData.get("id"), format: formData.get("format") ?? "auto", file: formData.get("file") });
  if (!parsed.success) return actionInvalid(parsed.error, values);
  const { user, state } = await guard("manage-topics");
  if (state) return { ...state, values };
  const { id, file } = parsed.data;
  const format = parsed.data.format === "auto" ? sampleFormatOf(file.name) : parsed.data.format;
  const uploaded = await uploadSamples(db, id, await file.text(), format, userActor(user));
  const t = await getTranslations("topics.actions");
  if (!uploaded) return { message: t("topicGone"), values };
  const { kept, errors } = uploaded;
  revalidatePath(`/topics/${id}`);
  const ts = await getTranslations("topics.sampleErrors");
  const details = errors.slice(0, 50).map((e) => t("badLine", { line: String(e.line), reason: ts(e.code, e.values) }));
  if (errors.length > 50) details.push(t("andMore", { count: errors.length - 50 }));
  if (kept === 0)
    return {
      errors: { file: [t("noRows", { file: file.name, format: format.toUpperCase() })] },
      message: t("noneKept", { count: errors.length }),
      details,
      values,
    };
  return {
    ok: true,
    message: errors.length ? t("keptSkipped", { kept, file: file.name, count: errors.length }) : t("kept", { kept, file: file.name }),
    details,
    values: { format: parsed.data.format },
  };
}

export async function clearSamplesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return actionInvalid(parsed.error, {});
  const { user, state } = await guard("manage-topics");
  if (state) return state;
  const { count } = await clearUploadedSamples(db, parsed.data.id, userActor(user));
  revalidatePath(`/topics/${parsed.data.id}`);
  const t = await getTranslations("topics.actions");
  return { ok: true, message: t("removed", { count }) };
}

const jobSchema = z.object({ id: z.coerce.number().int().positive(), kind: z.enum(["train", "rescore"]) });

/** Start training or re-scoring in the background; the page polls the progress. */
export async function topicJobAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = jobSchema.safeParse(formValues(formData));
  if (!parsed.success) return actionInvalid(parsed.error, {});
  const { user, state } = await guard("manage-topics");
  if (state) return state;
  const t = await getTranslations("topics.actions");
  // Only asks: the scheduler's process (or a PostgreSQL worker) trains, and the panel follows the job's row.
  const { created } = await requestTopicJob(db, parsed.data.id, parsed.data.kind, user.id);
  if (!created) return { message: t("busy") };
  return { ok: true, message: parsed.data.kind === "train" ? t("trainingStarted") : t("rescoringStarted") };
}

/** Send a failed notification again, in the background (a notify job). */
export async function retryNotificationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ notificationId: z.coerce.number().int().positive(), id: z.coerce.number().int().positive() }).safeParse(formValues(formData));
  if (!parsed.success) return actionInvalid(parsed.error, {});
  const { user, state } = await guard("manage-topics");
  if (state) return state;
  const queued = await requestNotificationSend(db, parsed.data.notificationId, user.id);
  revalidatePath(`/topics/${parsed.data.id}`);
  const t = await getTranslations("topics.actions");
  return queued ? { ok: true, message: t("sendQueued") } : { message: t("notificationGone") };
}
