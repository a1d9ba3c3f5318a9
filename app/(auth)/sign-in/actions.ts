"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { DUMMY_HASH, verifyPassword } from "@/lib/auth/password";
import { SESSION_COOKIE, secureCookie, sessionCookieOptions, signSession } from "@/lib/auth/session";
import { clientAddressOf, recordFailedSignIn, recordSuccessfulSignIn, signInRefusal, throttleNotice } from "@/lib/auth/throttle";
import { getCurrentUser } from "@/lib/auth/current-user";
import { findSignInUser, markSignedIn } from "@/lib/queries/sign-in";
import { revokeSessions } from "@/lib/queries/users";
import { safeLocalPath } from "@/lib/safe-path";

export interface SignInState {
  message?: string;
  errors?: { username?: string[]; password?: string[] };
  username?: string;
}

/**
 * Sign in: parse → throttle (before the password is looked at) → verify the password (same cost
 * whether or not the user exists) → set the cookie, carrying the user's session version. Every
 * message is in the reader's language (the schema is built per request for that reason).
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
  const address = clientAddressOf(requestHeaders);
  const refusal = await signInRefusal(db, parsed.data.username, address);
  if (refusal) {
    const notice = throttleNotice(refusal);
    return { message: t(notice.key, notice.values), username };
  }

  const user = await findSignInUser(db, parsed.data.username);
  const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || (user.role !== "admin" && user.role !== "reviewer")) {
    await recordFailedSignIn(db, parsed.data.username, address);
    return { message: t("wrongCredentials"), username };
  }
  // Said only after the password matched, so it tells nothing to someone guessing names.
  if (user.disabledAt) return { message: t("userDisabled"), username };
  await recordSuccessfulSignIn(db, parsed.data.username);
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
