/**
 * Password hashing with bcrypt through @node-rs/bcrypt: a maintained native binding whose hash and
 * verify run on libuv's thread pool, so a sign-in (about 250 ms of work at cost 12) never blocks
 * the dashboard's event loop. Hashes are standard `$2b$` strings (older bcryptjs hashes verify too).
 */
import { hash, verify } from "@node-rs/bcrypt";
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "../limits";

/** bcrypt cost factor. 12 is the usual production choice; tests lower it via BCRYPT_COST. */
function cost(): number {
  const n = Number(process.env.BCRYPT_COST ?? 12);
  return Number.isInteger(n) && n >= 4 && n <= 15 ? n : 12;
}

/**
 * bcrypt reads at most 72 bytes of a password and silently ignores the rest, so a longer password
 * would be weaker than it looks (and two that share their first 72 bytes would both match). Such
 * passwords are refused with a message instead. 72 bytes is 72 ASCII characters or 24 Chinese ones.
 */
export const MAX_PASSWORD_BYTES = 72;

export { MIN_PASSWORD_LENGTH };

/**
 * The one rule for a new password, used by the CLI, the Users page and the first-admin setup. Its
 * messages are the CLI's (English); the dashboard translates the zod issues (i18n/validation.ts).
 */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .refine((p) => Buffer.byteLength(p, "utf8") <= MAX_PASSWORD_BYTES, {
    message: `password must be at most ${MAX_PASSWORD_BYTES} bytes (72 letters or digits, 24 Chinese characters): bcrypt ignores the rest`,
  });

/** Hash a password for storage. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, cost());
}

/** Compare a password with a stored hash in constant time; a malformed hash is simply "no". */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    return await verify(password, stored);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, compared against when the username does not exist, so that a
 * failed sign-in takes the same time whether or not the user exists.
 */
export const DUMMY_HASH = "$2b$12$zTcrGxtqALnVsBFFB.8s9OMhe67GWsFcYoz08BMt4wIaLrwL86afm";
