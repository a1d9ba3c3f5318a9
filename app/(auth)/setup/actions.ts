"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { completeSetup } from "@/lib/auth/setup";
import { SESSION_COOKIE, secureCookie, sessionCookieOptions, signSession } from "@/lib/auth/session";
import { ValidationError } from "@/lib/validation";
import { localizeIssues, localizeValidationError } from "@/i18n/validation";

export interface SetupState {
  message?: string;
  errors?: Record<string, string[]>;
  username?: string;
}

// No message of its own: i18n/validation.ts says "the two passwords differ" (field confirm, custom issue).
const schema = z
  .object({ token: z.string().min(1), username: z.string(), password: z.string(), confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"] });

/**
 * Create the first admin from a one-time setup link (lib/auth/setup.ts), then sign them in. The
 * link itself is the credential: it is checked and used up in one transaction.
 */
export async function completeSetupAction(_prev: SetupState, formData: FormData): Promise<SetupState> {
  // A File in place of the name (a forged form) counts as no name.
  const rawUsername = formData.get("username");
  const username = typeof rawUsername === "string" ? rawUsername : "";
  const [t, tc] = await Promise.all([getTranslations("validation"), getTranslations("common")]);
  const parsed = schema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return { errors: localizeIssues(parsed.error.issues, t), message: tc("correctFields"), username };
  let user;
  try {
    user = await completeSetup(db, parsed.data.token, { username: parsed.data.username, password: parsed.data.password });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const errors = localizeValidationError(e, t);
    return { errors, message: errors._?.join(" ") ?? tc("correctFields"), username };
  }
  const token = await signSession({ userId: user.id, username: user.username, role: "admin", sessionVersion: 0 });
  (await cookies()).set(SESSION_COOKIE, token, sessionCookieOptions(secureCookie((await headers()).get("x-forwarded-proto"))));
  redirect("/");
}
