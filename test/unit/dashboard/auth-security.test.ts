/**
 * The sign-in defences against a real database (SQLite, or PostgreSQL in the second pass): the
 * throttle on a fixed clock, session versions, the first-admin setup link, the 72-byte password
 * limit, the last-admin rule under concurrent changes, and the small path/URL helpers.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { addUser, changeRole, resetPassword, revokeSessions, setUserDisabled } from "@/server/users";
import { settleSignInAttempt, takeSignInAttempt, SIGN_IN_LIMITS, throttleMessage, clientAddressOf, type ThrottleRefusal } from "@/lib/auth/throttle";
import { completeSetup, createSetupToken, setupLinkState, setupLinkMessage, SETUP_LINK_TTL_MS } from "@/lib/auth/setup";
import { newPasswordSchema, verifyPassword } from "@/lib/auth/password";
import { secureCookie, signSession, verifySession } from "@/lib/auth/session";
import { dashboardHost, loopbackListenHint, redactUrl } from "@/lib/config";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  vi.useRealTimers();
  await t.cleanup();
});

/**
 * One attempt through the throttle: its refusal, or null when the password would have been
 * checked; `matched` says how that check went.
 */
async function attempt(db: TestDb["db"], username: string, address: string, matched = false): Promise<ThrottleRefusal | null> {
  const taken = await takeSignInAttempt(db, username, address);
  if ("refusal" in taken) return taken.refusal;
  await settleSignInAttempt(taken.ticket, matched);
  return null;
}

describe("sign-in throttle (fixed clock)", () => {
  const start = new Date("2026-12-01T08:00:00Z");

  test("10 failures for one username lock it for the cool-off; the 16th minute opens it again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    for (let i = 0; i < SIGN_IN_LIMITS.perUsername; i++) expect(await attempt(t.db, "alice", "10.0.0.1")).toBeNull();
    const refused = await attempt(t.db, "alice", "10.0.0.1");
    expect(refused).toMatchObject({ by: "username", retryAfterSeconds: 15 * 60 });
    expect(throttleMessage(refused!)).toBe("Too many failed sign-ins for this username. Sign-in is paused for 15 minutes; try again later.");
    // The right password is refused as well: the attempt never reaches the check.
    expect(await attempt(t.db, "alice", "10.0.0.1", true)).toMatchObject({ by: "username" });
    // Another name from the same address is not locked by alice's count; case does not escape it.
    expect(await attempt(t.db, "bob", "10.0.0.1")).toBeNull();
    expect(await attempt(t.db, "ALICE", "10.0.0.2")).toMatchObject({ by: "username" });
    // Refused attempts do not stretch the cool-off.
    vi.setSystemTime(new Date(start.getTime() + 14 * 60_000));
    expect(await attempt(t.db, "alice", "10.0.0.1")).toMatchObject({ by: "username", retryAfterSeconds: 60 });
    vi.setSystemTime(new Date(start.getTime() + 15 * 60_000 + 1000));
    expect(await attempt(t.db, "alice", "10.0.0.1", true)).toBeNull();
  });

  test("a success resets the username's count; failures spread over more than the window never lock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    for (let i = 0; i < 9; i++) await attempt(t.db, "carol", "10.0.0.3");
    expect(await attempt(t.db, "carol", "10.0.0.3", true)).toBeNull();
    for (let i = 0; i < 9; i++) expect(await attempt(t.db, "carol", "10.0.0.3")).toBeNull();
    // The window is 15 minutes from the first failure: later failures start a new count.
    vi.setSystemTime(new Date(start.getTime() + 16 * 60_000));
    expect(await attempt(t.db, "carol", "10.0.0.3")).toBeNull();
    expect(await attempt(t.db, "carol", "10.0.0.3")).toBeNull();
  });

  test("30 failures from one address over many usernames lock the address, not the usernames elsewhere", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    // Successes in between count nothing against the address: each gives its point back.
    for (let i = 0; i < 5; i++) expect(await attempt(t.db, "dora", "192.0.2.7", true)).toBeNull();
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) expect(await attempt(t.db, `user${i}`, "192.0.2.7")).toBeNull();
    expect(await attempt(t.db, "someone-new", "192.0.2.7")).toMatchObject({ by: "address", retryAfterSeconds: 15 * 60 });
    // That refusal did not cost someone-new a point of their own: 10 attempts from elsewhere still reach the check.
    for (let i = 0; i < SIGN_IN_LIMITS.perUsername; i++) expect(await attempt(t.db, "someone-new", "192.0.2.8")).toBeNull();
    expect(await attempt(t.db, "someone-new", "192.0.2.8")).toMatchObject({ by: "username" });
    vi.setSystemTime(new Date(start.getTime() + 15 * 60_000 + 1000));
    expect(await attempt(t.db, "another", "192.0.2.7")).toBeNull();
  });

  test("the client address comes from the dashboard server's header, never a client's X-Forwarded-For alone when set", () => {
    expect(clientAddressOf(new Headers({ "x-campuswatch-client": "203.0.113.9", "x-forwarded-for": "1.2.3.4" }))).toBe("203.0.113.9");
    expect(clientAddressOf(new Headers({ "x-forwarded-for": "1.2.3.4, 198.51.100.2" }))).toBe("198.51.100.2");
    expect(clientAddressOf(new Headers())).toBe("unknown");
  });
});

describe("session versions", () => {
  test("sign-out, password reset, role change and disable each move the user's version past their sessions", async () => {
    const admin = await addUser(t.db, { username: "boss", password: "password-123", role: "admin" }, CLI_ACTOR);
    const u = await addUser(t.db, { username: "dave", password: "password-123", role: "reviewer" }, CLI_ACTOR);
    const version = async () => (await t.db.user.findUniqueOrThrow({ where: { id: u.id } })).sessionVersion;
    expect(await version()).toBe(0);
    const token = await signSession({ userId: u.id, username: "dave", role: "reviewer", sessionVersion: 0 });
    expect(await verifySession(token)).toMatchObject({ userId: u.id, sessionVersion: 0 });
    await revokeSessions(t.db, u.id);
    expect(await version()).toBe(1);
    await resetPassword(t.db, u.id, "new-password-1", CLI_ACTOR);
    expect(await version()).toBe(2);
    expect(await verifyPassword("new-password-1", (await t.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash)).toBe(true);
    await changeRole(t.db, { userId: admin.id, name: "test" }, u.id, "admin");
    expect(await version()).toBe(3);
    await changeRole(t.db, { userId: admin.id, name: "test" }, u.id, "admin"); // no change, no revocation
    expect(await version()).toBe(3);
    await setUserDisabled(t.db, { userId: admin.id, name: "test" }, u.id, true);
    expect(await version()).toBe(4);
  });

  test("a token without a session version (signed before versions existed) is refused", async () => {
    const { SignJWT } = await import("jose");
    const { sessionSecret } = await import("@/lib/config");
    const old = await new SignJWT({ username: "x", role: "admin" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(sessionSecret());
    expect(await verifySession(old)).toBeNull();
  });

  test("the Secure flag follows an https public URL or an https request", () => {
    const saved = process.env.CAMPUSWATCH_PUBLIC_URL;
    try {
      delete process.env.CAMPUSWATCH_PUBLIC_URL;
      expect(secureCookie(null)).toBe(false);
      expect(secureCookie("https")).toBe(true);
      expect(secureCookie("http")).toBe(false);
      process.env.CAMPUSWATCH_PUBLIC_URL = "https://watch.example.edu.cn/";
      expect(secureCookie("http")).toBe(true);
      process.env.CAMPUSWATCH_PUBLIC_URL = "http://10.1.2.3:3000";
      expect(secureCookie(null)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_PUBLIC_URL;
      else process.env.CAMPUSWATCH_PUBLIC_URL = saved;
    }
  });
});

describe("first-admin setup link", () => {
  test("works once, only on an empty database; a second use and a wrong token create nothing", async () => {
    const token = await createSetupToken(t.db);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await t.db.setupToken.count()).toBe(1);
    expect((await t.db.setupToken.findFirstOrThrow()).tokenHash).not.toContain(token!);
    expect(await setupLinkState(t.db, token!)).toBe("valid");
    expect(await setupLinkState(t.db, "wrong")).toBe("invalid");
    await expect(completeSetup(t.db, "wrong", { username: "root", password: "password-123" })).rejects.toThrow(/no longer valid/);
    // A bad password leaves the link usable.
    await expect(completeSetup(t.db, token!, { username: "root", password: "short" })).rejects.toMatchObject({
      fieldErrors: { password: ["password must be at least 8 characters"] },
    });
    expect(await setupLinkState(t.db, token!)).toBe("valid");
    // Two browsers racing with the same link make one admin.
    const results = await Promise.allSettled([
      completeSetup(t.db, token!, { username: "first", password: "password-123" }),
      completeSetup(t.db, token!, { username: "second", password: "password-123" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.user.count()).toBe(1);
    expect((await t.db.user.findFirstOrThrow()).role).toBe("admin");
    expect(await setupLinkState(t.db, token!)).toBe("done");
    await expect(completeSetup(t.db, token!, { username: "third", password: "password-123" })).rejects.toThrow(/no longer valid/);
    // With a user, no new link is made.
    expect(await createSetupToken(t.db)).toBeNull();
    expect(await setupLinkMessage(t.db, "http://localhost:3000")).toBeNull();
  });

  test("a restart prints a new link and the old one stops working", async () => {
    const first = (await setupLinkMessage(t.db, "https://watch.example.edu.cn/"))!;
    expect(first).toMatch(/^ {2}https:\/\/watch\.example\.edu\.cn\/setup\?token=[\w-]+$/m);
    const oldToken = first.match(/token=([\w-]+)/)![1]!;
    const second = await createSetupToken(t.db);
    expect(await setupLinkState(t.db, oldToken)).toBe("invalid");
    expect(await setupLinkState(t.db, second!)).toBe("valid");
  });

  test("a link expires 24 hours after it was printed (fixed clock); the page says so, and it creates nothing", async () => {
    const printed = new Date("2026-12-01T08:00:00Z");
    const later = (ms: number) => new Date(printed.getTime() + ms);
    const message = (await setupLinkMessage(t.db, "http://127.0.0.1:3000", printed))!;
    expect(message).toContain("it works once, for 24 hours");
    const token = message.match(/token=([\w-]+)/)![1]!;
    expect(await setupLinkState(t.db, token, later(SETUP_LINK_TTL_MS - 1000))).toBe("valid");
    expect(await setupLinkState(t.db, token, later(SETUP_LINK_TTL_MS))).toBe("expired");
    expect(await setupLinkState(t.db, "wrong", later(SETUP_LINK_TTL_MS))).toBe("invalid");
    await expect(completeSetup(t.db, token, { username: "late", password: "password-123" }, later(SETUP_LINK_TTL_MS + 60_000))).rejects.toMatchObject({
      detail: { code: "setupLinkExpired" },
    });
    expect(await t.db.user.count()).toBe(0);
    // Just inside the 24 hours it still works.
    await completeSetup(t.db, token, { username: "intime", password: "password-123" }, later(SETUP_LINK_TTL_MS - 1000));
    expect(await t.db.user.count()).toBe(1);
  });
});

describe("the last admin under concurrent changes", () => {
  test("two admins disabling each other at the same moment leave one enabled admin", async () => {
    const a = await addUser(t.db, { username: "ann", password: "password-123", role: "admin" }, CLI_ACTOR);
    const b = await addUser(t.db, { username: "ben", password: "password-123", role: "admin" }, CLI_ACTOR);
    const results = await Promise.allSettled([
      setUserDisabled(t.db, { userId: a.id, name: "test" }, b.id, true),
      setUserDisabled(t.db, { userId: b.id, name: "test" }, a.id, true),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(String((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason)).toMatch(/last admin/);
    expect(await t.db.user.count({ where: { role: "admin", disabledAt: null } })).toBe(1);
  });

  test("two admins demoting each other at the same moment leave one admin", async () => {
    const a = await addUser(t.db, { username: "ann", password: "password-123", role: "admin" }, CLI_ACTOR);
    const b = await addUser(t.db, { username: "ben", password: "password-123", role: "admin" }, CLI_ACTOR);
    const results = await Promise.allSettled([
      changeRole(t.db, { userId: a.id, name: "test" }, b.id, "reviewer"),
      changeRole(t.db, { userId: b.id, name: "test" }, a.id, "reviewer"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.user.count({ where: { role: "admin" } })).toBe(1);
  });
});

describe("passwords and URLs", () => {
  test("passwords over 72 bytes are refused with a message (bcrypt would ignore the rest)", () => {
    expect(newPasswordSchema.safeParse("x".repeat(72)).success).toBe(true);
    const long = newPasswordSchema.safeParse("x".repeat(73));
    expect(long.success).toBe(false);
    expect(long.error!.issues[0]!.message).toMatch(/at most 72 bytes/);
    // 24 Chinese characters are 72 bytes in UTF-8; the 25th is too many.
    expect(newPasswordSchema.safeParse("密".repeat(24)).success).toBe(true);
    expect(newPasswordSchema.safeParse("密".repeat(25)).success).toBe(false);
  });

  test("the dashboard listens where --host says, else CAMPUSWATCH_HOST, else 127.0.0.1; loopback gets a hint", () => {
    const saved = process.env.CAMPUSWATCH_HOST;
    try {
      delete process.env.CAMPUSWATCH_HOST;
      expect(dashboardHost()).toBe("127.0.0.1");
      process.env.CAMPUSWATCH_HOST = " 0.0.0.0 ";
      expect(dashboardHost()).toBe("0.0.0.0");
      expect(dashboardHost("127.0.0.5")).toBe("127.0.0.5");
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_HOST;
      else process.env.CAMPUSWATCH_HOST = saved;
    }
    for (const host of ["127.0.0.1", "127.9.9.9", "::1", "localhost"]) expect(loopbackListenHint(host)).toContain("CAMPUSWATCH_HOST");
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "watch.example.edu"]) expect(loopbackListenHint(host)).toBeNull();
  });

  test("database URLs are logged without their password", () => {
    expect(redactUrl("postgresql://cw:s3cret@db.example.edu:5432/cw")).toBe("postgresql://cw:***@db.example.edu:5432/cw");
    expect(redactUrl("postgresql://db/cw?user=cw&password=s3cret")).toBe("postgresql://db/cw?user=cw&password=***");
    expect(redactUrl("file:./data/campuswatch.db")).toBe("file:./data/campuswatch.db");
  });
});
