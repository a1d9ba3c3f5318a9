"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { addUser, changeRole, deleteUser, newUserSchema, passwordSchema, resetPassword, roleSchema, setUserDisabled } from "@/lib/queries/users";
import { formValues, fromValidationError, guard, invalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

function failure(e: unknown, values: Record<string, string>): FormState {
  if (e instanceof ValidationError) {
    const s = fromValidationError(e, values);
    return { ...s, message: e.fieldErrors._?.join(" ") ?? s.message };
  }
  throw e;
}

export async function createUserAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = newUserSchema.safeParse(values);
  // Never send a password back to the browser.
  const safe = { ...values, password: "" };
  if (!parsed.success) return invalid(parsed.error, safe);
  const { state } = await guard("manage-users");
  if (state) return { ...state, values: safe };
  try {
    await addUser(db, parsed.data);
  } catch (e) {
    return failure(e, safe);
  }
  revalidatePath("/users");
  redirect(`/users?created=${encodeURIComponent(parsed.data.username)}`);
}

export async function changeRoleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.and(roleSchema).safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  try {
    await changeRole(db, user.id, parsed.data.id, parsed.data.role);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  return { ok: true, message: "Role changed." };
}

export async function resetPasswordAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = { ...formValues(formData), password: "" };
  const parsed = idSchema.and(passwordSchema).safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-users");
  if (state) return state;
  await resetPassword(db, parsed.data.id, parsed.data.password);
  revalidatePath("/users");
  return { ok: true, message: "Password changed. Tell the user over a safe channel." };
}

export async function deleteUserAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  try {
    await deleteUser(db, user.id, parsed.data.id);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  redirect("/users?deleted=1");
}

const disableSchema = z.object({ disabled: z.enum(["true", "false"], { error: "disabled must be true or false" }) });

export async function setUserDisabledAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.and(disableSchema).safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { user, state } = await guard("manage-users");
  if (state) return state;
  const disabled = parsed.data.disabled === "true";
  try {
    await setUserDisabled(db, user.id, parsed.data.id, disabled);
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/users");
  return { ok: true, message: disabled ? "User disabled: they are signed out and cannot sign in." : "User enabled." };
}
