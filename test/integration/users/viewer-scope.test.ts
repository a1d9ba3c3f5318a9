/**
 * The read-only role and the per-user topic scope (issue 33, item 2). A viewer's permissions refuse
 * every permission a mutating server action or API route asks for (read from the actions' own
 * `guard(...)` calls, so a new action is covered without editing this test); a scoped user's flagged
 * list, open-flag count, export, incident list, incident page and API v1 lists hold only their
 * topics, an unscoped one sees all; the CLI sets role and topics. Real SQLite, real CLI.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { runCli } from "../../support/cli";
import { createIncident, seedPosts } from "../../support/incidents";
import { createUser } from "../../../lib/users";
import { can, PERMISSIONS, ROLE_PERMISSIONS, type Permission } from "../../../lib/permissions";
import { createApiToken, verifyApiToken } from "../../../lib/api-tokens";
import { CLI_ACTOR } from "../../../lib/audit";
import { topicScopeOf } from "../../../lib/topic-scope";
import { setTopicScope } from "../../../server/users";
import { assertCaseInScope, assignCase, isAssignableRole } from "../../../server/cases";
import { listPostsPage } from "../../../server/posts";
import { openFlagCount } from "../../../server/counts";
import { exportFilteredPosts } from "../../../server/export";
import { getIncident, incidentsInScope, listIncidents, risingIncidents, INCIDENT_STATES } from "../../../server/incidents";
import { reviewFlags } from "../../../server/reviews";
import { apiFlags, apiIncidents } from "../../../server/api-v1";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every permission a server action of the dashboard guards with, by file. */
function actionPermissions(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/actions\.ts$/.test(e.name)) {
        const found = [...fs.readFileSync(p, "utf8").matchAll(/guard\("([a-z-]+)"\)/g)].map((m) => m[1]!);
        if (found.length) out.set(path.relative(root, p), new Set(found));
      }
    }
  };
  walk(path.join(root, "app"));
  return out;
}

describe("role viewer", () => {
  it("holds read and export only: every permission a mutating action or route asks for is refused", () => {
    expect([...ROLE_PERMISSIONS.viewer].sort()).toEqual(["export", "read"]);
    for (const p of PERMISSIONS) expect(can("viewer", p), p).toBe(p === "read" || p === "export");
    const actions = actionPermissions();
    expect(actions.size).toBeGreaterThan(5);
    for (const [file, perms] of actions) {
      // Personal API tokens are the user's own credentials, not CampusWatch data; a read token is
      // how a viewer reaches /api/v1 (a review-scoped one is refused to them by createApiToken).
      if (file.endsWith(path.join("tokens", "actions.ts"))) continue;
      for (const p of perms) expect(can("viewer", p as Permission), `${file}: ${p}`).toBe(false);
    }
    // The API's one write route asks for "review"; cases go only to roles holding "cases".
    expect(can("viewer", "review")).toBe(false);
    expect(isAssignableRole("viewer")).toBe(false);
    expect(isAssignableRole("reviewer")).toBe(true);
  });
});

describe("topic scope", () => {
  let t: TestDb;
  let a = 0;
  let b = 0;
  let incA = 0;
  let incB = 0;
  const posts = { a: 0, b: 0 };

  beforeAll(async () => {
    t = await createTestDb();
    a = (await t.db.topic.create({ data: { name: "计算机学院" } })).id;
    b = (await t.db.topic.create({ data: { name: "外国语学院" } })).id;
    const [pa, pb, qa, qb] = await seedPosts(t.db, [
      { text: "计院宿舍停电", publishedAt: new Date("2026-12-03T02:00:00Z"), flagTopicId: a },
      { text: "外院考试泄题", publishedAt: new Date("2026-12-03T03:00:00Z"), flagTopicId: b },
      { text: "计院食堂涨价", publishedAt: new Date("2026-12-03T04:00:00Z") },
      { text: "外院教室漏水", publishedAt: new Date("2026-12-03T05:00:00Z") },
    ]);
    posts.a = pa!;
    posts.b = pb!;
    incA = await createIncident(t.db, { postIds: [qa!], topicId: a, title: "计院食堂涨价" });
    incB = await createIncident(t.db, { postIds: [qb!], topicId: b, title: "外院教室漏水" });
  });
  afterAll(async () => t.cleanup());

  it("an unscoped user sees every topic; setting a scope is audited once and read back", async () => {
    const u = await createUser(t.db, { username: "counsellor", password: "a-long-test-password-1", role: "viewer" });
    expect(await topicScopeOf(t.db, u.id)).toBeNull();
    expect(await openFlagCount(t.db, null)).toBe(2);
    expect((await listIncidents(t.db, { states: [...INCIDENT_STATES], page: 1, scope: null })).total).toBe(2);

    expect(await setTopicScope(t.db, CLI_ACTOR, u.id, [a])).toEqual([a]);
    expect(await topicScopeOf(t.db, u.id)).toEqual([a]);
    // The same scope again changes nothing and records nothing.
    await setTopicScope(t.db, CLI_ACTOR, u.id, [a]);
    const entries = await t.db.auditEntry.findMany({ where: { kind: "user", action: "topics", targetId: String(u.id) } });
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!.before)).toEqual({ topics: "all" });
    expect(JSON.parse(entries[0]!.after)).toEqual({ topics: [a] });
    await expect(setTopicScope(t.db, CLI_ACTOR, u.id, [a, 999_999])).rejects.toThrow(/no topic 999999/);
  });

  it("a scoped user's flagged list, count, export, incidents, incident page and API lists hold only their topics", async () => {
    const scope = [a];
    const flagged = await listPostsPage(t.db, { flagged: true, scope });
    expect(flagged.rows.map((r) => r.id)).toEqual([posts.a]);
    const all = await listPostsPage(t.db, { flagged: true });
    expect(all.rows.map((r) => r.id).sort()).toEqual([posts.a, posts.b].sort());
    expect(await openFlagCount(t.db, scope)).toBe(1);

    let csv = "";
    for await (const chunk of exportFilteredPosts(t.db, "jsonl", { flagged: true, scope })) csv += chunk;
    expect(csv).toContain("计院宿舍停电");
    expect(csv).not.toContain("外院考试泄题");

    const incidents = await listIncidents(t.db, { states: [...INCIDENT_STATES], page: 1, scope });
    expect(incidents.rows.map((r) => r.id)).toEqual([incA]);
    expect(await getIncident(t.db, incB, scope)).toBeNull();
    expect((await getIncident(t.db, incA, scope))?.id).toBe(incA);
    expect((await getIncident(t.db, incB, null))?.id).toBe(incB);

    const flags = await apiFlags(t.db, "http://x/api/v1/flags", scope);
    expect(flags.data.map((f) => f.topicId)).toEqual([a]);
    // Asking for a topic outside the scope gives nothing rather than that topic's flags.
    expect((await apiFlags(t.db, `http://x/api/v1/flags?topic=${b}`, scope)).data).toEqual([]);
    expect((await apiFlags(t.db, "http://x/api/v1/flags", null)).data).toHaveLength(2);
    const apiInc = await apiIncidents(t.db, "http://x/api/v1/incidents", scope);
    expect(apiInc.data.map((i) => i.id)).toEqual([incA]);
    const rising = await risingIncidents(t.db, new Date("2026-12-03T12:00:00Z"), 5, scope);
    expect(rising.map((r) => r.id)).toEqual([incA]);
    expect((await risingIncidents(t.db, new Date("2026-12-03T12:00:00Z"), 5, null)).map((r) => r.id).sort()).toEqual([incA, incB].sort());
  });

  it("a scoped reviewer's changes reach only their topics: a review of another topic's flag and an incident action there are refused", async () => {
    const r = await createUser(t.db, { username: "fudaoyuan", password: "a-long-test-password-1", role: "reviewer" });
    const flagB = await t.db.flag.findFirstOrThrow({ where: { topicId: b } });
    expect(await reviewFlags(t.db, { flagIds: [flagB.id], decision: "dismiss", note: "" }, { id: r.id, username: r.username, topics: [a] })).toBe(0);
    expect((await t.db.flag.findUniqueOrThrow({ where: { id: flagB.id } })).status).toBe("open");
    expect(await incidentsInScope(t.db, [a], [incA])).toBe(true);
    expect(await incidentsInScope(t.db, [a], [incA, incB])).toBe(false);
    expect(await incidentsInScope(t.db, null, [incA, incB])).toBe(true);
    expect(await incidentsInScope(t.db, null, [999_999])).toBe(false);

    // Cases: assigning or moving one of another topic is refused as "not found"; its own topic passes.
    await expect(assertCaseInScope(t.db, [a], { kind: "incident", id: incB })).rejects.toMatchObject({ code: "notFound" });
    await expect(assertCaseInScope(t.db, [a], { kind: "flag", id: flagB.id })).rejects.toMatchObject({ code: "notFound" });
    await expect(assertCaseInScope(t.db, [a], { kind: "incident", id: incA })).resolves.toBeUndefined();
    const { caseId } = await assignCase(t.db, { subject: { kind: "incident", id: incB }, assigneeId: r.id, dueAt: null, note: "" }, CLI_ACTOR);
    await expect(assertCaseInScope(t.db, [a], { caseId })).rejects.toMatchObject({ code: "notFound" });
    await expect(assertCaseInScope(t.db, [b], { caseId })).resolves.toBeUndefined();
    await expect(assertCaseInScope(t.db, null, { caseId })).resolves.toBeUndefined();
  });

  it("an API token carries its owner's scope and role", async () => {
    const owner = await t.db.user.findUniqueOrThrow({ where: { username: "counsellor" } });
    const { token } = await createApiToken(t.db, { id: owner.id, username: owner.username, role: "viewer" }, { name: "feed", scope: "read" }, CLI_ACTOR);
    const checked = await verifyApiToken(t.db, token);
    expect("user" in checked && checked.user.topics).toEqual([a]);
    expect("user" in checked && checked.user.role).toBe("viewer");
    await expect(
      createApiToken(t.db, { id: owner.id, username: owner.username, role: "viewer" }, { name: "write", scope: "review" }, CLI_ACTOR),
    ).rejects.toThrow();
  });

  it("campuswatch user add|set --role viewer --topics … sets role and topics; list shows them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-viewer-"));
    const env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data"), BCRYPT_COST: "4" };
    const cw = (...args: string[]) => runCli(args, { cwd: dir, env });
    try {
      const added = await cw("user", "add", "--username", "wang", "--password", "password-123", "--role", "viewer");
      expect(added.err).toBe("");
      expect(added.out).toMatch(/^created viewer wang/);
      const set = await cw("user", "set", "wang", "--topics", `${b},${a}`);
      expect(set.err).toBe("");
      expect(set.out.trim()).toBe(`wang sees topics ${Math.min(a, b)}, ${Math.max(a, b)}`);
      const wang = await t.db.user.findUniqueOrThrow({ where: { username: "wang" } });
      expect(await topicScopeOf(t.db, wang.id)).toEqual([a, b].sort((x, y) => x - y));
      expect((await cw("user", "list")).out).toMatch(new RegExp(`\\twang\\tviewer\\tlast sign-in never\\ttopics ${Math.min(a, b)},${Math.max(a, b)}\\n`));

      const both = await cw("user", "set", "wang", "--role", "reviewer", "--topics", "all");
      expect(both.out).toBe("wang is now reviewer\nwang sees all topics\n");
      expect(await topicScopeOf(t.db, wang.id)).toBeNull();
      expect((await t.db.user.findUniqueOrThrow({ where: { id: wang.id } })).role).toBe("reviewer");

      const bad = await cw("user", "set", "wang", "--topics", "1,x");
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/--topics takes topic ids/);
      const badRole = await cw("user", "set", "wang", "--role", "owner");
      expect(badRole.code).toBe(1);
      expect(badRole.err).toMatch(/role must be admin, reviewer or viewer/);
      const gone = await cw("user", "set", "wang", "--topics", "999999");
      expect(gone.code).toBe(1);
      expect(gone.err).toMatch(/No such topic: 999999/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
