/**
 * Sign-in throttling with rate-limiter-flexible (a maintained limiter), its counters kept in the
 * database through its Prisma store (table `SignInThrottle`), so every dashboard process on the
 * same database — SQLite file or PostgreSQL — shares them.
 *
 * Two limits, both over a 15-minute window:
 * - 10 password checks for one username: guessing one account's password;
 * - 30 password checks from one client address: trying many usernames.
 * An attempt takes its point BEFORE its password is checked ({@link takeSignInAttempt}), so however
 * many requests arrive at once, no more than 10 (30) of them reach the password check: the 11th
 * finds the count already at 10 and is refused unchecked. The attempt then settles its points
 * ({@link settleSignInAttempt}): a wrong password keeps them, and the failure that reaches a limit
 * starts a cooling-off period of 15 minutes, during which every attempt — with the right password
 * too — is refused. A right password clears the username's count, and gives the address back the
 * one point it took (the address keeps its failures: a guesser who also knows one password must
 * not reset their own counter). In effect, only failures count, as before, but they are counted in
 * advance.
 *
 * Why this is safe under concurrency: the store's consume is one statement on both databases —
 * `INSERT … ON CONFLICT (key) DO UPDATE SET points = points + 1 … RETURNING` (Prisma's native
 * upsert) — so each attempt sees its own count; test/integration/auth/sign-in-throttle.test.ts
 * checks this against both databases. The points given back are taken off by a single guarded
 * `UPDATE`, never below zero and never on an expired window (the library's own `reward` would
 * start a new window at −1).
 */
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
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

/** An attempt allowed to check its password; hand it to {@link settleSignInAttempt} afterwards. */
export interface SignInTicket {
  readonly db: Db;
  readonly userKey: string;
  readonly address: string;
  /** The counts this attempt's points brought each limiter to (1 for the first in a window). */
  readonly userCount: number;
  readonly addressCount: number;
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
 * Take one point; the limiter's answer either way. consume() rejects with a RateLimiterRes once
 * past the limit (the point is counted all the same); a real error is rethrown.
 */
async function consume(limiter: RateLimiterPrisma, key: string): Promise<{ res: RateLimiterRes; over: boolean }> {
  try {
    return { res: await limiter.consume(key), over: false };
  } catch (e) {
    if (e instanceof RateLimiterRes) return { res: e, over: true };
    throw e;
  }
}

/** Give one point back, in one guarded UPDATE: only within the window it was taken in, never below zero. */
async function giveBack(db: Db, limiter: RateLimiterPrisma, key: string): Promise<void> {
  await db.signInThrottle.updateMany({
    where: { key: limiter.getKey(key), points: { gt: 0 }, expire: { gt: new Date() } },
    data: { points: { decrement: 1 } },
  });
}

/**
 * Count an attempt for `username` from `address` before its password is looked at: a refusal (the
 * password must then not be checked, so a blocked guesser learns nothing), or a ticket to check it
 * with. The username's point is taken first; an attempt refused for its address gives it back
 * (nobody's password was checked), and one refused for its username never touches the address's.
 */
export async function takeSignInAttempt(db: Db, username: string, address: string): Promise<{ refusal: ThrottleRefusal } | { ticket: SignInTicket }> {
  const l = limiters(db);
  const key = userKey(username);
  const byUser = await consume(l.username, key);
  if (byUser.over) return { refusal: refusal("username", byUser.res) };
  const byAddress = await consume(l.address, address);
  if (byAddress.over) {
    await giveBack(db, l.username, key);
    return { refusal: refusal("address", byAddress.res) };
  }
  return { ticket: { db, userKey: key, address, userCount: byUser.res.consumedPoints, addressCount: byAddress.res.consumedPoints } };
}

/**
 * Settle an attempt once its password was checked. A wrong password keeps its points; the one
 * whose point reached a limit starts a full cool-off from now, whatever was left of the window. A
 * right password clears the username's count and gives the address its point back.
 */
export async function settleSignInAttempt(ticket: SignInTicket, passwordMatched: boolean): Promise<void> {
  const { db, userKey: key, address } = ticket;
  const l = limiters(db);
  if (passwordMatched) {
    await Promise.all([l.username.delete(key), giveBack(db, l.address, address)]);
    return;
  }
  await Promise.all([
    ticket.userCount === SIGN_IN_LIMITS.perUsername ? l.username.block(key, SIGN_IN_LIMITS.coolOffSeconds) : null,
    ticket.addressCount === SIGN_IN_LIMITS.perAddress ? l.address.block(address, SIGN_IN_LIMITS.coolOffSeconds) : null,
  ]);
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
