"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { DUMMY_HASH, verifyPassword } from "@/lib/auth/password";
import { SESSION_COOKIE, sessionCookieOptions, signSession } from "@/lib/auth/session";

export interface SignInState {
  message?: string;
  errors?: { username?: string[]; password?: string[] };
  username?: string;
}

const schema = z.object({
  username: z.string().trim().min(1, "Enter your username"),
  password: z.string().min(1, "Enter your password"),
  next: z.string().optional(),
});

/** Only same-site paths: `next=//evil.example` or `next=https://…` must not redirect away. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

/** Sign in: parse → verify the password (same cost whether or not the user exists) → set the cookie. */
export async function signIn(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const parsed = schema.safeParse(Object.fromEntries(formData));
  const username = String(formData.get("username") ?? "");
  if (!parsed.success) return { errors: z.flattenError(parsed.error).fieldErrors, username };
  const user = await db.user.findUnique({ where: { username: parsed.data.username } });
  const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || (user.role !== "admin" && user.role !== "reviewer")) {
    return { message: "Wrong username or password.", username };
  }
  // Said only after the password matched, so it tells nothing to someone guessing names.
  if (user.disabledAt) return { message: "This account is disabled. Ask an administrator to enable it.", username };
  const token = await signSession({ userId: user.id, username: user.username, role: user.role });
  const proto = (await headers()).get("x-forwarded-proto") ?? "http";
  (await cookies()).set(SESSION_COOKIE, token, sessionCookieOptions(proto === "https"));
  await db.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
  redirect(safeNext(parsed.data.next));
}

/** Sign out: drop the cookie. */
export async function signOut(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/sign-in");
}
