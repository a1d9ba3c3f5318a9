/**
 * `campuswatch tokens create|list|revoke` and `campuswatch audit list` through the real CLI (a
 * child process on a scratch SQLite install): the token is printed once and works, the list never
 * shows it, a revoked one is refused, and every change the CLI made is in the audit log as "cli".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { createDb } from "../../lib/db";
import { verifyApiToken } from "../../lib/api-tokens";
import { parseSince } from "../../crawler/commands/audit";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-audit-cli-"));
const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "file:./data/cw.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data"), BCRYPT_COST: "4" };
const cw = (args: string[]) => runCli(args, { cwd: dir, env });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("campuswatch tokens and audit", () => {
  it("creates, lists and revokes tokens; the audit log lists the CLI's changes", { timeout: 180_000 }, async () => {
    expect((await cw(["db", "migrate"])).code).toBe(0);
    expect((await cw(["user", "add", "--username", "ops", "--password", "password-123", "--role", "reviewer"])).code).toBe(0);
    const created = await cw(["tokens", "create", "--user", "ops", "--name", "OA", "--scope", "review", "--expires-days", "30"]);
    expect(created.code).toBe(0);
    const token = created.out.trim().split("\n").at(-1)!;
    expect(token).toMatch(/^cwt_[A-Za-z0-9_-]{43}$/);
    const db = createDb(`file:${path.join(dir, "data", "cw.db")}`);
    try {
      expect(await verifyApiToken(db, token)).toMatchObject({ user: { username: "ops", scope: "review" } });
      const list = await cw(["tokens", "list", "--json"]);
      expect(list.out).not.toContain(token);
      const rows = list.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: number; state: string; scope: string });
      expect(rows).toMatchObject([{ scope: "review", state: "active" }]);
      expect((await cw(["tokens", "create", "--user", "nobody", "--name", "x"])).err).toContain("no user named");
      expect((await cw(["tokens", "create", "--user", "ops", "--name", "x", "--scope", "admin"])).code).toBe(1);
      expect((await cw(["tokens", "revoke", String(rows[0]!.id)])).code).toBe(0);
      expect(await verifyApiToken(db, token)).toEqual({ refused: "revoked" });
      expect((await cw(["tokens", "revoke", "999"])).err).toContain("no API token 999");
    } finally {
      await db.$disconnect();
    }
    const audit = await cw(["audit", "list", "--json", "--since", "1h"]);
    const entries = audit.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { actor: string; userId: number | null; kind: string; action: string; after: Record<string, unknown> });
    expect(entries.map((e) => `${e.kind}:${e.action}`)).toEqual(["token:revoke", "token:create", "user:create"]);
    expect(entries.every((e) => e.actor === "cli" && e.userId === null)).toBe(true);
    expect(audit.out).not.toContain(token);
    expect(audit.out).not.toContain("password-123");
    const tokensOnly = await cw(["audit", "list", "--kind", "token"]);
    expect(tokensOnly.out.trim().split("\n")).toHaveLength(2);
    expect((await cw(["audit", "list", "--since", "yesterday"])).err).toContain("--since");
  });

  it("--since reads dates and spans", () => {
    const now = new Date("2026-12-03T12:00:00Z");
    expect(parseSince("7d", now)).toEqual(new Date("2026-11-26T12:00:00Z"));
    expect(parseSince("30m", now)).toEqual(new Date("2026-12-03T11:30:00Z"));
    expect(parseSince("2026-12-01T08:00:00+08:00", now)).toEqual(new Date("2026-12-01T00:00:00Z"));
    expect(() => parseSince("soon", now)).toThrow(/--since/);
  });
});
