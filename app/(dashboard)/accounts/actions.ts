"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { accountFormSchema, createAccount, removeAccount, requestCrawl, setAccountEnabled, updateAccount } from "@/lib/queries/accounts";
import { formValues, fromValidationError, guard, invalid, type FormState } from "../_lib/form";

/** Register an account from the form: URL (platform recognised or chosen), name, interval. */
export async function createAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = accountFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-accounts");
  if (state) return { ...state, values };
  let id: number;
  try {
    id = (await createAccount(db, parsed.data)).id;
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
  revalidatePath("/accounts");
  redirect(`/accounts?added=${id}`);
}

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Change an account's URL, platform, name or interval. */
export async function updateAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const ids = idSchema.safeParse(values);
  const parsed = accountFormSchema.safeParse(values);
  if (!ids.success) return invalid(ids.error, values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-accounts");
  if (state) return { ...state, values };
  try {
    await updateAccount(db, ids.data.id, parsed.data);
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
  revalidatePath("/accounts");
  redirect(`/accounts/${ids.data.id}?saved=1`);
}

const toggleSchema = z.object({ id: z.coerce.number().int().positive(), enabled: z.enum(["true", "false"]) });

/** Enable or disable an account's schedule. */
export async function toggleAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = toggleSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("manage-accounts");
  if (state) return state;
  await setAccountEnabled(db, parsed.data.id, parsed.data.enabled === "true");
  revalidatePath("/accounts");
  return { ok: true, message: parsed.data.enabled === "true" ? "Enabled" : "Disabled" };
}

/** "Crawl now": the scheduler picks the request up within seconds. */
export async function crawlNowAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("run-crawls");
  if (state) return state;
  await requestCrawl(db, parsed.data.id);
  revalidatePath("/accounts");
  return { ok: true, message: "Crawl requested" };
}

const deleteSchema = z.object({ id: z.coerce.number().int().positive(), confirm: z.literal("delete", { error: "Confirm the deletion" }) });

/** Delete an account with its posts, replies, flags, reviews and runs. */
export async function deleteAccountAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = deleteSchema.safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {}, parsed.error.issues[0]?.message);
  const { state } = await guard("manage-accounts");
  if (state) return state;
  try {
    await removeAccount(db, parsed.data.id);
  } catch (e) {
    if (e instanceof ValidationError) return { message: "That account no longer exists." };
    throw e;
  }
  revalidatePath("/accounts");
  redirect("/accounts?deleted=1");
}
