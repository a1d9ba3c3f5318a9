/**
 * Signing in, apart from the request and its cookie (the server action in
 * app/(auth)/sign-in/actions.ts does those): the decision of an attempt — throttle, password, role
 * and state — the user looked up by name, and the time of their last sign-in.
 */
import type { Db } from "../lib/db";
import { DUMMY_HASH, verifyPassword } from "../lib/auth/password";
import { isRole, type Role } from "../lib/auth/session";
import { settleSignInAttempt, takeSignInAttempt, type ThrottleRefusal } from "../lib/auth/throttle";
import { setLastSignIn } from "../lib/users";

/**
 * The user with this name, with what the sign-in checks (password hash, role, disabled, session
 * version), or null. The caller verifies a password either way, so timing tells no names.
 */
export async function findSignInUser(db: Db, username: string) {
  return db.user.findUnique({ where: { username } });
}

type SignInUser = NonNullable<Awaited<ReturnType<typeof findSignInUser>>>;

/** What an attempt came to. `wrong` covers an unknown name, a wrong password and a role that may not sign in. */
export type SignInOutcome =
  { kind: "throttled"; refusal: ThrottleRefusal } | { kind: "wrong" } | { kind: "disabled" } | { kind: "ok"; user: SignInUser & { role: Role } };

function maySignIn(user: SignInUser | null): user is SignInUser & { role: Role } {
  return isRole(user?.role);
}

/**
 * Decide a sign-in attempt. The attempt is counted by the throttle before the password is looked at
 * (lib/auth/throttle.ts), so parallel guesses cannot outrun it, and a refused attempt checks no
 * password. The password is verified at the same cost whether or not the user exists, so neither
 * the answer nor its timing tells names. `verify` is the password check (tests wrap the real one
 * to count its calls).
 */
export async function attemptSignIn(
  db: Db,
  input: { username: string; password: string; address: string },
  verify: (password: string, hash: string) => Promise<boolean> = verifyPassword,
): Promise<SignInOutcome> {
  const taken = await takeSignInAttempt(db, input.username, input.address);
  if ("refusal" in taken) return { kind: "throttled", refusal: taken.refusal };
  const user = await findSignInUser(db, input.username);
  const matched = await verify(input.password, user?.passwordHash ?? DUMMY_HASH);
  const signedIn = matched && maySignIn(user) ? user : null;
  await settleSignInAttempt(taken.ticket, signedIn !== null);
  if (!signedIn) return { kind: "wrong" };
  // Said only after the password matched, so it tells nothing to someone guessing names.
  if (signedIn.disabledAt) return { kind: "disabled" };
  return { kind: "ok", user: signedIn };
}

/** Record a successful sign-in (shown on the Users page). */
export async function markSignedIn(db: Db, userId: number, now = new Date()): Promise<void> {
  await setLastSignIn(db, userId, now);
}
