/**
 * `campuswatch incidents list | show | export` and `posts export`'s incidentId, as a user runs them:
 * the built CLI (bin/campuswatch.mjs) on a seeded database. SQLite by default; the whole file runs
 * on PostgreSQL with CAMPUSWATCH_TEST_DB=postgresql.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./../support/db";
import { runCli } from "./../support/cli";
import { seedReportWeek, type ReportSeed } from "./../support/report-seed";

let t: TestDb;
let seed: ReportSeed;
let dir = "";
let env: NodeJS.ProcessEnv;
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(async () => {
  t = await createTestDb();
  seed = await seedReportWeek(t.db);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-incidents-"));
  env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const jsonLines = (out: string) =>
  out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("campuswatch incidents", () => {
  it("list: open and handled incidents hottest first; --status, --topic and --json", async () => {
    const r = await cw("incidents", "list");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    // Hottest first: the old open one (99), the canteen (42.5), the exam (18), last week's (5); not the dismissed or candidate.
    expect(lines.map((l) => Number(l.split("\t")[0]))).toEqual([seed.incidents.old, seed.incidents.canteen, seed.incidents.exam, seed.incidents.lastWeek]);
    expect(lines[1]).toBe(
      `${seed.incidents.canteen}\topen\theat 42.5 bursting\t6 posts\t3 flagged\tweibo,tieba\t2026-12-02T01:10:00.000Z .. 2026-12-02T06:40:00.000Z\ttopic 食堂\t二食堂饭菜异物`,
    );

    const json = await cw("incidents", "list", "--json", "--topic", "考试");
    const rows = JSON.parse(json.out) as { id: number; status: string; platforms: string[]; keywords: string[]; topic: { name: string } }[];
    expect(rows.map((x) => x.id)).toEqual([seed.incidents.exam, seed.incidents.lastWeek]);
    expect(rows[0]).toMatchObject({
      status: "handled",
      platforms: ["discuz", "tieba"],
      keywords: ["考试", "泄题"],
      topic: { name: "考试" },
      size: 4,
      flaggedCount: 2,
    });

    const dismissed = await cw("incidents", "list", "--status", "dismissed,candidate", "--json");
    expect((JSON.parse(dismissed.out) as { id: number }[]).map((x) => x.id)).toEqual([seed.incidents.dismissed, seed.incidents.candidate]);
    expect(JSON.parse((await cw("incidents", "list", "--status", "all", "--json")).out)).toHaveLength(6);
    expect((await cw("incidents", "list", "--status", "merged")).out).toBe("no incidents\n");

    for (const [args, message] of [
      [["--status", "closed"], /--status must be "all" or a comma-separated list of candidate, open, handled, dismissed, merged \(got closed\)/],
      [["--topic", "没有"], /no topic named "没有"/],
      [["--limit", "0"], /--limit must be an integer >= 1/],
    ] as const) {
      const bad = await cw("incidents", "list", ...args);
      expect(bad.code).toBe(1);
      expect(bad.err.trim().split("\n")).toHaveLength(1);
      expect(bad.err).toMatch(message);
    }
  });

  it("show: figures, member posts with their flags, reviewers' actions; --json; an unknown id refused", async () => {
    await t.db.incidentAction.create({
      data: { incidentId: seed.incidents.exam, kind: "handle", detail: JSON.stringify({}), note: "教务处已回应", createdAt: new Date("2026-12-02T14:00:00Z") },
    });
    const r = await cw("incidents", "show", String(seed.incidents.exam));
    expect(r.code).toBe(0);
    const out = r.out.split("\n");
    expect(out[0]).toBe(`incident ${seed.incidents.exam}: 高数期末考试泄题传言`);
    expect(out).toContain("status\thandled (handled 2026-12-02T14:00:00.000Z)");
    expect(out).toContain("platforms\tdiscuz, tieba");
    expect(out).toContain("members (4):");
    const [e1, e2, e3] = seed.members.exam;
    expect(out.find((l) => l.startsWith(`  ${e1}\t`))).toMatch(
      new RegExp(`^  ${e1}\tdiscuz\tpost\t2026-12-02T12:05:00.000Z\tseed representative\t考试:open\thttps://`),
    );
    expect(out.find((l) => l.startsWith(`  ${e2}\t`))).toMatch(/\treply\t.*\tsimilar\t-\t/);
    // A dismissed flag is not shown as a flag.
    expect(out.find((l) => l.startsWith(`  ${e3}\t`))).toMatch(/\tsimilar\t-\t/);
    expect(out).toContain("actions (1):");
    expect(out.find((l) => l.includes("\thandle\t"))).toBe("  2026-12-02T14:00:00.000Z\thandle\tcli\t{}\t教务处已回应");

    const json = JSON.parse((await cw("incidents", "show", String(seed.incidents.canteen), "--json")).out) as {
      members: { postId: number; accountUrl: string; platformId: string; flags: unknown[] }[];
      representativePostId: number;
    };
    expect(json.members.map((m) => m.postId)).toEqual(seed.members.canteen);
    expect(json.members[0]).toMatchObject({ accountUrl: seed.accountUrls.weibo, flags: [{ topic: "食堂", status: "confirmed" }] });
    expect(json.representativePostId).toBe(seed.members.canteen[0]);

    for (const id of ["99999", "abc"]) {
      const bad = await cw("incidents", "show", id);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(id === "abc" ? /incident id must be a number \(got abc\)/ : /no incident 99999 \(see: campuswatch incidents list\)/);
    }
  });

  it("export --format jsonl: one line per incident with exactly the agreed keys; posts named as posts export names them", async () => {
    const r = await cw("incidents", "export", "--format", "jsonl");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = jsonLines(r.out);
    expect(lines.map((l) => l.id)).toEqual([seed.incidents.canteen, seed.incidents.exam, seed.incidents.old, seed.incidents.lastWeek]);
    for (const l of lines) expect(Object.keys(l)).toEqual(["id", "title", "keywords", "firstSeenAt", "lastSeenAt", "heat", "platforms", "size", "posts"]);
    expect(lines[1]).toEqual({
      id: seed.incidents.exam,
      title: "高数期末考试泄题传言",
      keywords: ["考试", "泄题"],
      firstSeenAt: "2026-12-02T12:05:00.000Z",
      lastSeenAt: "2026-12-02T13:30:00.000Z",
      heat: 18,
      platforms: ["discuz", "tieba"],
      size: 4,
      posts: [
        { accountUrl: seed.accountUrls.discuz, platformId: expect.any(String) },
        { accountUrl: seed.accountUrls.discuz, platformId: expect.any(String) },
        { accountUrl: seed.accountUrls.tieba, platformId: expect.any(String) },
        { accountUrl: seed.accountUrls.tieba, platformId: expect.any(String) },
      ],
    });

    // posts export: every post's incidentId, null outside an open or handled incident; the two files join on (accountUrl, platformId).
    const posts = jsonLines((await cw("posts", "export", "--format", "jsonl")).out);
    expect(posts).toHaveLength(15);
    const byKey = new Map(posts.map((p) => [`${String(p.accountUrl)} ${String(p.platformId)}`, p.incidentId]));
    for (const l of lines)
      for (const m of l.posts as { accountUrl: string; platformId: string }[]) expect(byKey.get(`${m.accountUrl} ${m.platformId}`)).toBe(l.id);
    expect(posts.filter((p) => p.incidentId === null)).toHaveLength(15 - 13);
    const stored = await t.db.post.findMany({ where: { id: { in: [seed.loosePostId] } }, select: { platformId: true } });
    expect(posts.find((p) => p.platformId === stored[0]!.platformId)!.incidentId).toBeNull();
    // CSV carries the column too.
    const csv = (await cw("posts", "export", "--format", "csv")).out.split("\r\n");
    expect(csv[0]!.split(",").at(-1)).toBe("incidentId");

    const exam = jsonLines((await cw("incidents", "export", "--topic", "考试", "--status", "handled")).out);
    expect(exam.map((l) => l.id)).toEqual([seed.incidents.exam]);
    const bad = await cw("incidents", "export", "--format", "csv");
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--format must be jsonl \(got csv\)/);
  });
});
