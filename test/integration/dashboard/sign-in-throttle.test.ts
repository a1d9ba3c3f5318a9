/**
 * The sign-in throttle under parallel requests (issue 29), on a real database — SQLite here,
 * PostgreSQL in the suite's second pass. Attempts go through the real decision (server/sign-in.ts)
 * with the real bcrypt check; the check is only wrapped, to count its calls and to hold them until
 * every attempt has been counted, so the right password is sure to arrive while the wrong ones are
 * still in flight. Attempts are spread over three clients of the same database, as three dashboard
 * processes would be (each client has its own limiter objects and, on SQLite, its own connection).
 */
import { expect, test } from "vitest";
import { createDb, type Db } from "@/lib/db";
import { attemptSignIn, type SignInOutcome } from "@/server/sign-in";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { SIGN_IN_LIMITS } from "@/lib/auth/throttle";
import { addUser } from "@/server/users";
import { testDbs } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

const openDb = testDbs();

/**
 * The real password check, counted and held: every call waits until `release()`; `settled(n)`
 * resolves once n attempts have either reached the check or come back without it.
 */
function heldCheck() {
  let calls = 0;
  let answered = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const waiters: { n: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) (calls + answered >= w.n ? w.resolve : () => waiters.push(w))();
  };
  return {
    get calls() {
      return calls;
    },
    verify: async (password: string, hash: string) => {
      calls++;
      wake();
      await gate;
      return verifyPassword(password, hash);
    },
    /** Wrap an attempt so that its answer without a check counts as settled. */
    track: (p: Promise<SignInOutcome>) =>
      p.then((o) => {
        if (o.kind === "throttled") answered++;
        wake();
        return o;
      }),
    settled: (n: number) => new Promise<void>((resolve) => (waiters.push({ n, resolve }), wake())),
    release: () => open(),
  };
}

/** Three clients of the test database (the test's own and two more), closed by `close`. */
function clients(db: Db, url: string) {
  const more = [createDb(url), createDb(url)];
  return { all: [db, ...more], close: () => Promise.all(more.map((c) => c.$disconnect())) };
}

test("39 parallel wrong passwords, then the right one while they are in flight: refused; at most 10 password checks", async () => {
  const { db, url } = await openDb();
  await addUser(db, { username: "victim", password: "right-password-1", role: "reviewer" }, CLI_ACTOR);
  const check = heldCheck();
  const c = clients(db, url);
  try {
    // Each from an address of its own: the username's limit must hold by itself.
    const wrong = Array.from({ length: 39 }, (_, i) =>
      check.track(attemptSignIn(c.all[i % 3]!, { username: "victim", password: `wrong-${i}`, address: `198.51.100.${i + 1}` }, check.verify)),
    );
    await check.settled(39);
    const right = check.track(attemptSignIn(c.all[1]!, { username: "victim", password: "right-password-1", address: "203.0.113.50" }, check.verify));
    await check.settled(40);
    check.release();
    const outcomes = await Promise.all(wrong);
    const rightOutcome = await right;
    expect(rightOutcome).toMatchObject({ kind: "throttled", refusal: { by: "username" } });
    // At most 10 bcrypt checks for the username — exactly 10 here, the first ten counted.
    expect(check.calls).toBe(SIGN_IN_LIMITS.perUsername);
    expect(outcomes.filter((o) => o.kind === "wrong")).toHaveLength(SIGN_IN_LIMITS.perUsername);
    expect(outcomes.filter((o) => o.kind === "throttled")).toHaveLength(39 - SIGN_IN_LIMITS.perUsername);
    // The cool-off holds afterwards too, for the right password from yet another address.
    expect(await attemptSignIn(c.all[2]!, { username: "VICTIM", password: "right-password-1", address: "203.0.113.51" })).toMatchObject({ kind: "throttled" });
  } finally {
    check.release();
    await c.close();
  }
});

test("45 parallel attempts on different usernames from one address: at most 30 password checks", async () => {
  const { db, url } = await openDb();
  await addUser(db, { username: "known", password: "right-password-1", role: "admin" }, CLI_ACTOR);
  // Real users behind the guessed names (at the tests' low bcrypt cost; an unknown name would be
  // checked against the production-cost dummy hash, 30 times over).
  const passwordHash = await hashPassword("other-password-1");
  await db.user.createMany({ data: Array.from({ length: 45 }, (_, i) => ({ username: `guess-${i}`, passwordHash, role: "reviewer" })) });
  const check = heldCheck();
  const c = clients(db, url);
  try {
    const attempts = Array.from({ length: 45 }, (_, i) =>
      check.track(attemptSignIn(c.all[i % 3]!, { username: `guess-${i}`, password: "password-123", address: "192.0.2.9" }, check.verify)),
    );
    await check.settled(45);
    const right = check.track(attemptSignIn(c.all[0]!, { username: "known", password: "right-password-1", address: "192.0.2.9" }, check.verify));
    await check.settled(46);
    check.release();
    const outcomes = await Promise.all(attempts);
    expect(await right).toMatchObject({ kind: "throttled", refusal: { by: "address" } });
    expect(check.calls).toBe(SIGN_IN_LIMITS.perAddress);
    expect(outcomes.filter((o) => o.kind === "wrong")).toHaveLength(SIGN_IN_LIMITS.perAddress);
    // The names refused for the address lost nothing: "known" signs in at once from elsewhere.
    expect(await attemptSignIn(c.all[1]!, { username: "known", password: "right-password-1", address: "192.0.2.10" })).toMatchObject({ kind: "ok" });
  } finally {
    check.release();
    await c.close();
  }
});

test("the same answer for an unknown name as for a wrong password, and a right password clears the count", async () => {
  const { db } = await openDb();
  await addUser(db, { username: "erin", password: "right-password-1", role: "reviewer" }, CLI_ACTOR);
  expect(await attemptSignIn(db, { username: "nobody", password: "x", address: "10.1.1.1" })).toEqual({ kind: "wrong" });
  for (let i = 0; i < SIGN_IN_LIMITS.perUsername - 1; i++) {
    expect(await attemptSignIn(db, { username: "erin", password: `wrong-${i}`, address: "10.1.1.1" })).toEqual({ kind: "wrong" });
  }
  expect(await attemptSignIn(db, { username: "erin", password: "right-password-1", address: "10.1.1.1" })).toMatchObject({
    kind: "ok",
    user: { username: "erin" },
  });
  // Nine more failures are allowed again: the success cleared erin's count.
  for (let i = 0; i < SIGN_IN_LIMITS.perUsername; i++) {
    expect(await attemptSignIn(db, { username: "erin", password: `again-${i}`, address: "10.1.1.2" })).toEqual({ kind: "wrong" });
  }
  expect(await attemptSignIn(db, { username: "erin", password: "right-password-1", address: "10.1.1.2" })).toMatchObject({ kind: "throttled" });
});
