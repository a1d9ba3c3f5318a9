"use server";

import { refresh } from "next/cache";
import { cookies, headers } from "next/headers";
import { z } from "zod";
import { secureCookie } from "@/lib/auth/session";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS, LOCALES } from "./config";

const schema = z.object({ locale: z.enum(LOCALES) });

/**
 * The language switch: remember the chosen locale in the `NEXT_LOCALE` cookie for a year and
 * re-render the page in it. Deliberately needs no session — it is on the public sign-in page too,
 * and it only changes the caller's own cookie, to one of the known values (anything else is
 * ignored). Readable by scripts (not httpOnly): it holds nothing secret.
 */
export async function setLocaleAction(formData: FormData): Promise<void> {
  const parsed = schema.safeParse({ locale: formData.get("locale") });
  if (!parsed.success) return;
  const forwardedProto = (await headers()).get("x-forwarded-proto");
  (await cookies()).set(LOCALE_COOKIE, parsed.data.locale, {
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
    sameSite: "lax",
    path: "/",
    httpOnly: false,
    secure: secureCookie(forwardedProto),
  });
  refresh();
}
