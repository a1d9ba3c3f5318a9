/**
 * The two reads and writes of signing in that are not the throttle's (lib/auth/throttle.ts) or the
 * session's: the user looked up by name, and the time of their last sign-in.
 */
import type { Db } from "../db";

/**
 * The user with this name, with what the sign-in checks (password hash, role, disabled, session
 * version), or null. The caller verifies a password either way, so timing tells no names.
 */
export async function findSignInUser(db: Db, username: string) {
  return db.user.findUnique({ where: { username } });
}

/** Record a successful sign-in (shown on the Users page). */
export async function markSignedIn(db: Db, userId: number, now = new Date()): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { lastSignInAt: now } });
}
