/**
 * Sign-in throttling with rate-limiter-flexible (a maintained limiter), its counters kept in the
 * database through its Prisma store (table `SignInThrottle`), so every dashboard process on the
 * same database — SQLite file or PostgreSQL — shares them.
 *
 * Two limits, both over a 15-minute window:
 * - 10 failed sign-ins for one username: guessing one account's password;
 * - 30 failed sign-ins from one client address: trying many usernames.
 * Reaching either blocks further attempts — with the right password too — for a cooling-off period
 * of 15 minutes. A successful sign-in clears the username's count (not the address's: a guesser who
 * also knows one password must not reset their own counter).
 */
import { RateLimiterPrisma, type RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../db";

/** The limits; exported for tests and the README. */
export const SIGN_IN_LIMITS = {
  perUsername: 10,
  perAddress: 30,
  windowSeconds: 15 * 60,
  coolOffSeconds: 15 * 60,
} as const;

/** Why a sign-in attempt may not even be checked, and for how long. */
export interface ThrottleRefusal {
  by: "username" | "address";
  retryAfterSeconds: number;
}

interface Limiters {
  username: RateLimiterPrisma;
  address: RateLimiterPrisma;
}

const limitersByDb = new WeakMap<object, Limiters>();

function limiters(db: Db): Limiters {
  let found = limitersByDb.get(db);
  if (!found) {
    // The Prisma store looks the model up by the client's property name.
    const common = { storeClient: db, tableName: "signInThrottle", duration: SIGN_IN_LIMITS.windowSeconds };
    found = {
      username: new RateLimiterPrisma({ ...common, keyPrefix: "user", points: SIGN_IN_LIMITS.perUsername }),
      address: new RateLimiterPrisma({ ...common, keyPrefix: "ip", points: SIGN_IN_LIMITS.perAddress }),
    };
    limitersByDb.set(db, found);
  }
  return found;
}

/** Usernames are looked up exactly, but counted case-folded, so `Admin` and `admin` share a count. */
function userKey(username: string): string {
  return username.trim().toLowerCase();
}

function refusal(by: ThrottleRefusal["by"], res: RateLimiterRes): ThrottleRefusal {
  return { by, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/**
 * Whether an attempt for `username` from `address` is refused before its password is checked.
 * Call it before verifying the password, so a blocked guesser learns nothing from the answer.
 */
export async function signInRefusal(db: Db, username: string, address: string): Promise<ThrottleRefusal | null> {
  const l = limiters(db);
  const [byUser, byAddress] = await Promise.all([l.username.get(userKey(username)), l.address.get(address)]);
  if (byUser && byUser.consumedPoints >= SIGN_IN_LIMITS.perUsername) return refusal("username", byUser);
  if (byAddress && byAddress.consumedPoints >= SIGN_IN_LIMITS.perAddress) return refusal("address", byAddress);
  return null;
}

/** Count a failed attempt against the username and the address; the one that reaches its limit starts its cool-off. */
export async function recordFailedSignIn(db: Db, username: string, address: string): Promise<void> {
  const l = limiters(db);
  await Promise.all([countFailure(l.username, userKey(username), SIGN_IN_LIMITS.perUsername), countFailure(l.address, address, SIGN_IN_LIMITS.perAddress)]);
}

async function countFailure(limiter: RateLimiterPrisma, key: string, limit: number): Promise<void> {
  let consumed: number;
  try {
    consumed = (await limiter.consume(key)).consumedPoints;
  } catch (e) {
    // consume() rejects with a RateLimiterRes once past the limit; a real error is rethrown.
    if (e instanceof Error) throw e;
    consumed = (e as RateLimiterRes).consumedPoints;
  }
  // The attempt that reaches the limit starts a full cool-off from now, whatever was left of the window.
  if (consumed === limit) await limiter.block(key, SIGN_IN_LIMITS.coolOffSeconds);
}

/** A successful sign-in clears the username's count of failures. */
export async function recordSuccessfulSignIn(db: Db, username: string): Promise<void> {
  await limiters(db).username.delete(userKey(username));
}

/**
 * The client address of a dashboard request: `x-campuswatch-client`, which the dashboard server
 * (bin/dashboard-server.mjs) sets from the socket or its trusted proxies and never takes from the
 * client. Under a server that does not set it (`next dev`), the last X-Forwarded-For entry.
 */
export function clientAddressOf(headers: Headers): string {
  const set = headers.get("x-campuswatch-client")?.trim();
  if (set) return set;
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded.at(-1) ?? "unknown";
}

/**
 * What the sign-in form says about a refusal, as a message key of the `auth` messages and its
 * values: the sign-in action translates it into the reader's language.
 */
export function throttleNotice(refusal: ThrottleRefusal): { key: "throttledUsername" | "throttledAddress"; values: { minutes: number } } {
  const minutes = Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60));
  return { key: refusal.by === "username" ? "throttledUsername" : "throttledAddress", values: { minutes } };
}

/** The same sentence in English (for logs and tests; messages/en.json has its twin). */
export function throttleMessage(refusal: ThrottleRefusal): string {
  const { key, values } = throttleNotice(refusal);
  const { minutes } = values;
  const who = key === "throttledUsername" ? "for this username" : "from your network address";
  return `Too many failed sign-ins ${who}. Sign-in is paused for ${minutes} minute${minutes === 1 ? "" : "s"}; try again later.`;
}
