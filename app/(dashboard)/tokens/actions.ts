"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { userActor } from "@/lib/audit";
import { createApiToken, revokeApiToken } from "@/lib/api-tokens";
import { ValidationError } from "@/lib/validation";
import { formValues, guard, localizedFailure, localizedInvalid, type FormState } from "../_lib/form";

/** The create form's answer: on success the new token, shown once. */
export interface TokenFormState extends FormState {
  token?: string;
}

/** Create a personal API token for the signed-in user; the answer carries the token, once. */
export async function createTokenAction(_prev: TokenFormState, formData: FormData): Promise<TokenFormState> {
  const values = formValues(formData);
  const { user, state } = await guard("read");
  if (state) return { ...state, values };
  try {
    const { token } = await createApiToken(
      db,
      user,
      { name: values.name ?? "", scope: (values.scope ?? "read") as "read", expiresInDays: values.expiresInDays },
      userActor(user),
    );
    revalidatePath("/tokens");
    return { ok: true, token };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const t = await getTranslations("tokens.errors");
    if (e.detail.code === "scopeNotAllowed") return { errors: { scope: [t("scopeNotAllowed")] }, message: t("scopeNotAllowed"), values };
    if (e.detail.code === "tooManyTokens") return { message: t("tooManyTokens"), values };
    if (e.detail.issues) return localizedInvalid(new z.ZodError([...e.detail.issues]), values);
    return localizedFailure(e, values);
  }
}

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Revoke a token: the user's own, or (an admin) anyone's. It is refused from the next request on. */
export async function revokeTokenAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("read");
  if (state) return state;
  const t = await getTranslations("tokens.done");
  const done = await revokeApiToken(db, parsed.data.id, user, userActor(user));
  if (!done) return { message: t("gone") };
  revalidatePath("/tokens");
  return { ok: true, message: t("revoked") };
}
