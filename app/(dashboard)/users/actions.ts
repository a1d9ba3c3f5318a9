"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { addUser, changeRole, deleteUser, newUserSchema, passwordSchema, resetPassword, roleSchema, setTopicScope, setUserDisabled } from "@/server/users";
import { formValues, guard, localizedFailure, localizedInvalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** A refusal from server/users.ts as translated form state; anything else is a real error. */
async function failure(e: unknown, values: Record<string, string>): Promise<FormState> {
  if (e instanceof ValidationError) return localizedFailure(e, values);
  throw e;
}

export async function createUserAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = newUserSchema.safeParse(values);
  // Never send a password back to the browser.
  const safe = { ...values, password: "" };
  if (!parsed.success) return localizedInvalid(parsed.error, safe);
  const { user, state } = await guard("manage-users");
  if (state) return { ...state, values: safe };
  try {
    await addUser(db, parsed.data, userActor(user));
  } catch (e) {
    return failure(e, safe);
  }
  revalidatePath("/users");
  redirect(`/users?created=${encodeURIComponent(parsed.data.username)}`);
}

export async function changeRoleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.and(roleSchema).safeParse(values);
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  try {
    await changeRole(db, userActor(user), parsed.data.id, parsed.data.role);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  const t = await getTranslations("users.done");
  return { ok: true, message: t("roleChanged") };
}

export async function resetPasswordAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = { ...formValues(formData), password: "" };
  const parsed = idSchema.and(passwordSchema).safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  await resetPassword(db, parsed.data.id, parsed.data.password, userActor(user));
  revalidatePath("/users");
  const t = await getTranslations("users.done");
  return { ok: true, message: t("passwordChanged") };
}

export async function deleteUserAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.safeParse(values);
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  try {
    await deleteUser(db, userActor(user), parsed.data.id);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  redirect("/users?deleted=1");
}

// Issues are translated by i18n/validation.ts (a forged value reads "invalid value").
const disableSchema = z.object({ disabled: z.enum(["true", "false"]) });

export async function setUserDisabledAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.and(disableSchema).safeParse(values);
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  const disabled = parsed.data.disabled === "true";
  try {
    await setUserDisabled(db, userActor(user), parsed.data.id, disabled);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  const t = await getTranslations("users.done");
  return { ok: true, message: disabled ? t("disabled") : t("enabled") };
}

const topicIdsSchema = z.array(z.coerce.number().int().positive()).max(1000);

/** Set a user's topic scope from the ticked `topic` boxes (none ticked: every topic). */
export async function setTopicsAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.safeParse(values);
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const topics = topicIdsSchema.safeParse(formData.getAll("topic"));
  if (!topics.success) return localizedInvalid(topics.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  try {
    await setTopicScope(db, userActor(user), parsed.data.id, topics.data);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  const t = await getTranslations("users.done");
  return { ok: true, message: t("topicsChanged") };
}
