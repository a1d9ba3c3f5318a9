"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { SESSION_COOKIE, secureCookie, sessionCookieOptions, signSession } from "@/lib/auth/session";
import { clientAddressOf, throttleNotice } from "@/lib/auth/throttle";
import { getCurrentUser } from "@/lib/auth/current-user";
import { attemptSignIn, markSignedIn } from "@/server/sign-in";
import { revokeSessions } from "@/server/users";
import { safeLocalPath } from "@/lib/safe-path";

export interface SignInState {
  message?: string;
  errors?: { username?: string[]; password?: string[] };
  username?: string;
}

/**
 * Sign in: parse → decide (server/sign-in.ts: throttle counted before the password is looked at,
 * the password verified at the same cost whether or not the user exists) → set the cookie, carrying
 * the user's session version → go to `next` if it is a path on this site. Every message is in the
 * reader's language (the schema is built per request for that reason).
 */
export async function signIn(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const t = await getTranslations("auth");
  const schema = z.object({
    username: z.string().trim().min(1, t("enterUsername")),
    password: z.string().min(1, t("enterPassword")),
    next: z.string().optional(),
  });
  const parsed = schema.safeParse(Object.fromEntries(formData));
  // A File in place of the name (a forged form) counts as no name.
  const rawUsername = formData.get("username");
  const username = typeof rawUsername === "string" ? rawUsername : "";
  if (!parsed.success) return { errors: z.flattenError(parsed.error).fieldErrors, username };
  const requestHeaders = await headers();
  const outcome = await attemptSignIn(db, { username: parsed.data.username, password: parsed.data.password, address: clientAddressOf(requestHeaders) });
  if (outcome.kind === "throttled") {
    const notice = throttleNotice(outcome.refusal);
    return { message: t(notice.key, notice.values), username };
  }
  if (outcome.kind === "wrong") return { message: t("wrongCredentials"), username };
  if (outcome.kind === "disabled") return { message: t("userDisabled"), username };
  const { user } = outcome;
  const token = await signSession({ userId: user.id, username: user.username, role: user.role, sessionVersion: user.sessionVersion });
  (await cookies()).set(SESSION_COOKIE, token, sessionCookieOptions(secureCookie(requestHeaders.get("x-forwarded-proto"))));
  await markSignedIn(db, user.id);
  redirect(safeLocalPath(parsed.data.next));
}

/**
 * Sign out: end every session of this user (a copied cookie stops working too), then drop the
 * session cookie — only that one: the language cookie stays, so the sign-in page keeps the language.
 */
export async function signOut(): Promise<void> {
  const user = await getCurrentUser();
  if (user) await revokeSessions(db, user.id);
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/sign-in");
}
