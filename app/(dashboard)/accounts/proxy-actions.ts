"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { clearAccountProxy, ProxyRefusal, setAccountProxy } from "@/server/account-proxy";
import { formValues, guard, localizedInvalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * Give an account its own proxy. A URL with an unknown scheme (or no host, or a path) is refused
 * with the reason and nothing changes; the answer shows the URL with its password masked.
 */
export async function setProxyAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  const t = await getTranslations("accounts.proxy");
  const url = typeof formData.get("url") === "string" ? (formData.get("url") as string) : "";
  let stored;
  try {
    stored = await setAccountProxy(db, parsed.data.id, url, userActor(user));
  } catch (e) {
    if (!(e instanceof ProxyRefusal)) throw e;
    const key = `errors.${e.cause.code}` as "errors.empty";
    const reason = t.has(key) ? t(key, e.cause.values) : e.cause.message;
    // The typed URL is not sent back: it may hold a password.
    return { errors: { proxy: [reason] }, message: t("notStored") };
  }
  revalidatePath(`/accounts/${parsed.data.id}`);
  return { ok: true, message: t("stored", { proxy: stored.display }) };
}

/** Remove an account's own proxy. */
export async function clearProxyAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  await clearAccountProxy(db, parsed.data.id, userActor(user));
  revalidatePath(`/accounts/${parsed.data.id}`);
  const t = await getTranslations("accounts.proxy");
  return { ok: true, message: t("cleared") };
}
