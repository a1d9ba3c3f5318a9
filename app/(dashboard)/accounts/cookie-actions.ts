"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { MAX_COOKIE_INPUT_BYTES } from "@/lib/cookies/import";
import { clearAccountCookies, CookieRefusal, setAccountCookies } from "@/server/account-access";
import { formValues, guard, localizedInvalid, type FormState } from "../_lib/form";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * Store an account's login cookies from the pasted text or an uploaded file (cookies.txt or a
 * JSON export). The values are never sent back: the answer says how many were kept, for which
 * domains, and what was left out.
 */
export async function setCookiesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  const t = await getTranslations("accounts.cookies");
  const file = formData.get("file");
  let text = typeof formData.get("text") === "string" ? (formData.get("text") as string) : "";
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_COOKIE_INPUT_BYTES)
      return { errors: { cookies: [t("errors.tooLarge", { kib: MAX_COOKIE_INPUT_BYTES / 1024 })] }, message: t("notStored") };
    text = await file.text();
  }
  let stored;
  try {
    stored = await setAccountCookies(db, parsed.data.id, text, userActor(user));
  } catch (e) {
    if (!(e instanceof CookieRefusal)) throw e;
    const key = `errors.${e.cause.code}` as "errors.empty";
    const reason = t.has(key) ? t(key, e.cause.values as Record<string, string>) : e.cause.message;
    return { errors: { cookies: [reason] }, message: t("notStored") };
  }
  revalidatePath(`/accounts/${parsed.data.id}`);
  const details: string[] = [];
  const skipped = Object.entries(stored.skipped);
  if (skipped.length > 0)
    details.push(
      t("skipped", {
        count: skipped.reduce((n, [, c]) => n + c, 0),
        domains: skipped
          .map(([d]) => d)
          .slice(0, 5)
          .join(", "),
      }),
    );
  if (stored.expired > 0) details.push(t("expiredLeftOut", { count: stored.expired }));
  return { ok: true, message: t("stored", { count: stored.count, format: stored.format }), details };
}

/** Forget an account's login cookies. */
export async function clearCookiesAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = idSchema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  await clearAccountCookies(db, parsed.data.id, userActor(user));
  revalidatePath(`/accounts/${parsed.data.id}`);
  const t = await getTranslations("accounts.cookies");
  return { ok: true, message: t("cleared") };
}
