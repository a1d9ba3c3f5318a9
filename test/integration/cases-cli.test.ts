/**
 * `campuswatch cases list | assign | status` as a user runs them: the built CLI (bin/campuswatch.mjs)
 * on a real database. Changes are the CLI's in the audit log; refusals exit 1 with one line.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./../support/db";
import { runCli } from "./../support/cli";
import { createIncident, seedPosts } from "./../support/incidents";
import { createUser } from "../../lib/users";

let t: TestDb;
let dir = "";
let env: NodeJS.ProcessEnv;
let flagId = 0;
let incidentId = 0;
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(async () => {
  t = await createTestDb();
  const topic = await t.db.topic.create({ data: { name: "校园安全" } });
  const [flagged, other] = await seedPosts(t.db, [
    { text: "宿舍楼里有人打架", publishedAt: new Date("2026-12-03T02:00:00Z"), flagTopicId: topic.id },
    { text: "食堂饭菜变质", publishedAt: new Date("2026-12-03T03:00:00Z") },
  ]);
  flagId = (await t.db.flag.findFirstOrThrow({ where: { postId: flagged } })).id;
  incidentId = await createIncident(t.db, { postIds: [other!], topicId: topic.id, title: "食堂饭菜变质" });
  await createUser(t.db, { username: "li", password: "a-long-test-password-1", role: "reviewer" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cases-"));
  env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("campuswatch cases", () => {
  it("assigns, moves and lists cases; refuses a wrong move and an unknown user; records each change as the CLI's", async () => {
    const a = await cw("cases", "assign", "--flag", String(flagId), "--user", "li", "--due", "2099-12-05T18:00", "--note", "联系当事学生");
    expect(a.err).toBe("");
    expect(a.code).toBe(0);
    const caseId = Number(/^case (\d+) created and assigned to li$/m.exec(a.out)?.[1]);
    expect(caseId).toBeGreaterThan(0);
    expect(a.out).toContain("no notice: its topic has no notification channel");

    const b = await cw("cases", "assign", "--incident", String(incidentId), "--user", "li");
    expect(b.code).toBe(0);

    const wrong = await cw("cases", "status", String(caseId), "resolved");
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe("campuswatch: a case cannot go from new to resolved\n");
    expect((await cw("cases", "assign", "--flag", String(flagId), "--user", "nobody")).err).toBe('campuswatch: no user named "nobody"\n');
    expect((await cw("cases", "assign", "--flag", String(flagId), "--incident", String(incidentId), "--user", "li")).code).toBe(1);

    const moved = await cw("cases", "status", String(caseId), "in_progress", "--note", "已约谈");
    expect(moved.out).toBe(`case ${caseId} is now in_progress\n`);

    const list = await cw("cases", "list", "--user", "li");
    const lines = list.out.trim().split("\n");
    // The flag's case has a due time (far ahead, so never overdue whatever the clock): it comes first.
    expect(lines[0]).toBe(`${caseId}\tin_progress\tflag ${flagId}\tli\tdue 2099-12-05T10:00:00.000Z\t校园安全\t宿舍楼里有人打架`);
    expect(lines[1]).toMatch(new RegExp(`^\\d+\\tnew\\tincident ${incidentId}\\tli\\tno due time\\t校园安全\\t食堂饭菜变质$`));

    await cw("cases", "status", String(caseId), "false_positive", "--note", "与校园无关");
    expect((await cw("cases", "list", "--user", "li")).out.trim().split("\n")).toHaveLength(1);
    const all = (await cw("cases", "list", "--all", "--json")).out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; status: string });
    expect(all.find((r) => r.id === caseId)?.status).toBe("false_positive");

    const audit = await t.db.auditEntry.findMany({ orderBy: { id: "asc" }, select: { actor: true, kind: true, action: true, note: true } });
    expect(audit).toEqual([
      { actor: "cli", kind: "case", action: "assign", note: "联系当事学生" },
      { actor: "cli", kind: "case", action: "assign", note: "" },
      { actor: "cli", kind: "case", action: "status", note: "已约谈" },
      { actor: "cli", kind: "case", action: "status", note: "与校园无关" },
    ]);
  });
});
