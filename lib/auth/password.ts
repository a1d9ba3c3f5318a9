/** Password hashing with bcrypt (bcryptjs: maintained, pure JavaScript, no native build). */
import bcrypt from "bcryptjs";

/** bcrypt cost factor. 12 is the usual production choice; tests lower it via BCRYPT_COST. */
function cost(): number {
  const n = Number(process.env.BCRYPT_COST ?? 12);
  return Number.isInteger(n) && n >= 4 && n <= 15 ? n : 12;
}

/** Hash a password for storage. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, cost());
}

/** Compare a password with a stored hash in constant time. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/**
 * A hash of a random password, compared against when the username does not exist, so that a
 * failed sign-in takes the same time whether or not the user exists.
 */
export const DUMMY_HASH = "$2b$12$zTcrGxtqALnVsBFFB.8s9OMhe67GWsFcYoz08BMt4wIaLrwL86afm";
