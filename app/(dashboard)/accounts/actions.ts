"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { accountFormSchema, createAccount, removeAccount, requestCrawl, setAccountEnabled, updateAccount } from "@/server/accounts";
import { formValues, guard, localizedFailure, localizedInvalid, type FormState } from "../_lib/form";
import { userActor } from "@/lib/audit";
import { accountIssues, adaptiveBoundsErrors, watchFromForm } from "./_lib/problems";

/** A failed parse of the account form as translated form state. */
async function invalidAccount(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const [errors, tc] = await Promise.all([accountIssues(error.issues), getTranslations("common")]);
  return { errors, message: tc("correctFields"), values };
}

/** A refusal from server/accounts.ts as translated form state; anything else is a real error. */
async function failure(e: unknown, values: Record<string, string>): Promise<FormState> {
  if (!(e instanceof ValidationError)) throw e;
  if (e.detail.issues) return invalidAccount(new z.ZodError([...e.detail.issues]), values);
  const bounds = await adaptiveBoundsErrors(e);
  if (bounds) return { errors: bounds, message: (await getTranslations("common"))("correctFields"), values };
  return localizedFailure(e, values);
}

/**
 * Register an account from the form: URL (platform recognised or chosen), name, interval and the
 * switches of `accounts add` (enabled, OCR, fetch mode, backfill, re-check, adaptive). In
 * "keyword watch" mode the URL is the platform's search, built from platform, word, bar (Tieba)
 * or board URL (Discuz!) and result pages; a bad field is refused next to it and nothing is stored.
 */
export async function createAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  let input = values;
  if (values.mode === "watch") {
    const watch = await watchFromForm(values);
    if (watch.errors) {
      const tc = await getTranslations("common");
      return { errors: watch.errors, message: tc("correctFields"), values };
    }
    input = { ...values, url: watch.url, platform: watch.platform };
  }
  const parsed = accountFormSchema.safeParse(input);
  if (!parsed.success) return invalidAccount(parsed.error, values);
  const { user, state } = await guard("manage-accounts");
  if (state) return { ...state, values };
  let id: number;
  try {
    // The switches are registration's own fields (accountInputSchema takes them as `accounts add` does).
    id = (await createAccount(db, { ...parsed.data, ...parsed.data.settings }, userActor(user))).id;
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/accounts");
  redirect(`/accounts?added=${id}`);
}

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * Change an account's URL, platform, name, interval and switches; a changed URL keeps or deletes
 * its history marks as the form's choice says (server/accounts.ts updateAccount).
 */
export async function updateAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const ids = idSchema.safeParse(values);
  const parsed = accountFormSchema.safeParse(values);
  if (!ids.success) return localizedInvalid(ids.error, values);
  if (!parsed.success) return invalidAccount(parsed.error, values);
  const { user, state } = await guard("manage-accounts");
  if (state) return { ...state, values };
  try {
    await updateAccount(db, ids.data.id, parsed.data, userActor(user));
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/accounts");
  redirect(`/accounts/${ids.data.id}?saved=1`);
}

const toggleSchema = z.object({
  id: z.coerce.number().int().positive(),
  enabled: z.enum(["true", "false"]),
});

/** Enable or disable an account's schedule. */
export async function toggleAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = toggleSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  await setAccountEnabled(db, parsed.data.id, parsed.data.enabled === "true", userActor(user));
  revalidatePath("/accounts");
  const t = await getTranslations("accounts.done");
  return {
    ok: true,
    message: parsed.data.enabled === "true" ? t("enabled") : t("disabled"),
  };
}

/** "Crawl now": the scheduler picks the request up within seconds. */
export async function crawlNowAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { state } = await guard("run-crawls");
  if (state) return state;
  await requestCrawl(db, parsed.data.id);
  revalidatePath("/accounts");
  const t = await getTranslations("accounts.done");
  return { ok: true, message: t("crawlRequested") };
}

const deleteSchema = z.object({
  id: z.coerce.number().int().positive(),
  confirm: z.literal("delete", { error: "Confirm the deletion" }),
});

/** Delete an account with its posts, replies, flags, reviews and runs. */
export async function deleteAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = deleteSchema.safeParse(formValues(formData));
  const t = await getTranslations("accounts.done");
  if (!parsed.success) {
    const state = await localizedInvalid(parsed.error, {});
    return parsed.error.issues.some((i) => i.path[0] === "confirm") ? { ...state, message: t("confirmDeletion") } : state;
  }
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  try {
    await removeAccount(db, parsed.data.id, userActor(user));
  } catch (e) {
    if (e instanceof ValidationError) return { message: t("gone") };
    throw e;
  }
  revalidatePath("/accounts");
  redirect("/accounts?deleted=1");
}
