/**
 * Personal API tokens (lib/api-tokens.ts) on a real database (SQLite, or PostgreSQL with
 * CAMPUSWATCH_TEST_DB=postgresql): stored as a SHA-256 only, refused at once when revoked,
 * expired or the owner is disabled, revoked only by the owner or an admin, and listed without
 * the token. The routes themselves are tested against the real server (test/e2e/api-v1.spec.ts).
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { createApiToken, hashToken, listApiTokens, MAX_TOKENS_PER_USER, revokeApiToken, verifyApiToken } from "@/lib/api-tokens";
import { userActor } from "@/lib/audit";

let t: TestDb;
let admin: { id: number; username: string; role: "admin" };
let reviewer: { id: number; username: string; role: "reviewer" };
const NOW = new Date("2026-12-01T00:00:00Z");

beforeAll(async () => {
  t = await createTestDb();
  const a = await t.db.user.create({ data: { username: "chief", passwordHash: "x", role: "admin" } });
  const r = await t.db.user.create({ data: { username: "counsellor", passwordHash: "x", role: "reviewer" } });
  admin = { id: a.id, username: a.username, role: "admin" };
  reviewer = { id: r.id, username: r.username, role: "reviewer" };
});
afterAll(async () => {
  await t?.cleanup();
});

describe("API tokens", () => {
  test("only the SHA-256 of 32 random bytes is stored; the token checks out as its owner with its scope", async () => {
    const { token, info } = await createApiToken(t.db, reviewer, { name: "看板", scope: "read" }, userActor(reviewer), NOW);
    expect(token).toMatch(/^cwt_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), "base64url")).toHaveLength(32);
    const row = await t.db.apiToken.findUniqueOrThrow({ where: { id: info.id } });
    expect(row.tokenHash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token.slice(10));
    expect(JSON.stringify(await listApiTokens(t.db))).not.toContain(token);
    expect(await verifyApiToken(t.db, token, NOW)).toEqual({
      user: { tokenId: info.id, scope: "read", id: reviewer.id, username: "counsellor", role: "reviewer", topics: null },
    });
    // Using it is remembered (at most once a minute).
    expect((await t.db.apiToken.findUniqueOrThrow({ where: { id: info.id } })).lastUsedAt).toEqual(NOW);
  });

  test("unknown, malformed and missing tokens are refused", async () => {
    expect(await verifyApiToken(t.db, undefined, NOW)).toEqual({ refused: "missing" });
    expect(await verifyApiToken(t.db, "not-a-token", NOW)).toEqual({ refused: "unknown" });
    expect(await verifyApiToken(t.db, "cwt_" + "A".repeat(43), NOW)).toEqual({ refused: "unknown" });
    expect(hashToken("a")).toHaveLength(64);
  });

  test("an expired token is refused from its expiry on", async () => {
    const { token, info } = await createApiToken(t.db, reviewer, { name: "一天", scope: "read", expiresInDays: 1 }, userActor(reviewer), NOW);
    expect(info.expiresAt).toEqual(new Date(NOW.getTime() + 86_400_000));
    expect(await verifyApiToken(t.db, token, new Date(NOW.getTime() + 86_399_000))).toHaveProperty("user");
    expect(await verifyApiToken(t.db, token, new Date(NOW.getTime() + 86_400_000))).toEqual({ refused: "expired" });
  });

  test("a revoked token is refused at once; only its owner or an admin revokes it", async () => {
    const { token, info } = await createApiToken(t.db, admin, { name: "OA", scope: "review" }, userActor(admin), NOW);
    expect(await revokeApiToken(t.db, info.id, reviewer, userActor(reviewer), NOW)).toBe(false);
    expect(await verifyApiToken(t.db, token, NOW)).toHaveProperty("user");
    const mine = await createApiToken(t.db, reviewer, { name: "mine", scope: "review" }, userActor(reviewer), NOW);
    expect(await revokeApiToken(t.db, mine.info.id, reviewer, userActor(reviewer), NOW)).toBe(true);
    expect(await verifyApiToken(t.db, mine.token, NOW)).toEqual({ refused: "revoked" });
    expect(await revokeApiToken(t.db, info.id, admin, userActor(admin), NOW)).toBe(true);
    expect(await verifyApiToken(t.db, token, NOW)).toEqual({ refused: "revoked" });
    expect(await revokeApiToken(t.db, 999_999, admin, userActor(admin), NOW)).toBe(false);
    // Revoking twice records one entry.
    await revokeApiToken(t.db, info.id, admin, userActor(admin), NOW);
    expect(await t.db.auditEntry.count({ where: { kind: "token", action: "revoke", targetId: String(info.id) } })).toBe(1);
  });

  test("a disabled owner's tokens stop working; the owner's current role is what the API sees", async () => {
    const u = await t.db.user.create({ data: { username: "leaver", passwordHash: "x", role: "admin" } });
    const { token } = await createApiToken(t.db, { id: u.id, username: u.username, role: "admin" }, { name: "x", scope: "read" }, userActor(admin), NOW);
    await t.db.user.update({ where: { id: u.id }, data: { role: "reviewer" } });
    expect(await verifyApiToken(t.db, token, NOW)).toMatchObject({ user: { role: "reviewer" } });
    await t.db.user.update({ where: { id: u.id }, data: { disabledAt: NOW } });
    expect(await verifyApiToken(t.db, token, NOW)).toEqual({ refused: "owner-disabled" });
  });

  test("bad input is refused by field, and a user holds at most the limit of live tokens", async () => {
    await expect(createApiToken(t.db, reviewer, { name: " ", scope: "read" }, userActor(reviewer), NOW)).rejects.toMatchObject({
      fieldErrors: { name: expect.any(Array) },
    });
    await expect(createApiToken(t.db, reviewer, { name: "x", scope: "admin" as "read" }, userActor(reviewer), NOW)).rejects.toMatchObject({
      fieldErrors: { scope: expect.any(Array) },
    });
    await expect(createApiToken(t.db, reviewer, { name: "x", scope: "read", expiresInDays: 0 }, userActor(reviewer), NOW)).rejects.toMatchObject({
      fieldErrors: { expiresInDays: expect.any(Array) },
    });
    const u = await t.db.user.create({ data: { username: "hoarder", passwordHash: "x", role: "reviewer" } });
    const owner = { id: u.id, username: u.username, role: "reviewer" as const };
    for (let i = 0; i < MAX_TOKENS_PER_USER; i++) await createApiToken(t.db, owner, { name: `t${i}`, scope: "read" }, userActor(owner), NOW);
    await expect(createApiToken(t.db, owner, { name: "one more", scope: "read" }, userActor(owner), NOW)).rejects.toMatchObject({
      detail: { code: "tooManyTokens" },
    });
  });
});
