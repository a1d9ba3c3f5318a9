import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../support/db";
import { createUser, DuplicateUserError } from "../../lib/users";
import { verifyPassword } from "../../lib/auth/password";

let t: TestDb | undefined;
afterEach(async () => t?.cleanup());

describe("users", () => {
  it("stores only a bcrypt hash and refuses a duplicate username", async () => {
    t = await createTestDb();
    const u = await createUser(t.db, { username: "alice", password: "correct horse", role: "admin" });
    const row = await t.db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(row.passwordHash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", row.passwordHash)).toBe(true);
    await expect(createUser(t.db, { username: "alice", password: "another one", role: "reviewer" })).rejects.toBeInstanceOf(DuplicateUserError);
  });

  it("refuses an unknown role with a message naming it", async () => {
    t = await createTestDb();
    await expect(createUser(t.db, { username: "bob", password: "long enough", role: "owner" as "admin" })).rejects.toThrow(
      /role must be admin, reviewer or viewer \(got "owner"\)/,
    );
  });
});
