/**
 * `campuswatch evidence key | export | verify` as an operator runs them (real child processes, a
 * real database, the real archive and Chromium): the key is made once, private, and printed; a
 * post's and an incident's packages are written, never over an existing file; verify passes on
 * them and fails, naming the file, after one byte of it changed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveSource, flushArchive } from "@/crawler/archive";
import { readZip } from "@/lib/zip";
import { runCli } from "../../support/cli";
import { createTestDb, type TestDb } from "../../support/db";

let dir = "";
let dataDir = "";
let t: TestDb;
let env: NodeJS.ProcessEnv = { ...process.env };
let postId = 0;
let incidentId = 0;
const cw = (args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-evidence-"));
  dataDir = path.join(dir, "data");
  t = await createTestDb();
  env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: dataDir };
  const account = await t.db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:9/feed.xml", name: "校园博客" } });
  const topic = await t.db.topic.create({ data: { name: "宿舍" } });
  const url = "http://127.0.0.1:9/2026/12/post.html";
  const archivePath = await archiveSource(path.join(dataDir, "archive"), account.id, {
    url,
    body: "<html><body style='background:#fff8dc'><h1>宿舍楼漏水</h1><p>三号楼又漏水了。</p></body></html>",
  });
  await flushArchive();
  const post = await t.db.post.create({
    data: {
      accountId: account.id,
      platformId: url,
      url,
      title: "宿舍楼漏水",
      publishedAt: new Date("2026-12-01T02:00:00Z"),
      text: "三号楼又漏水了。",
      sha1: "v2:x",
      archivePath,
      deletedAt: new Date("2026-12-02T00:00:00Z"),
    },
  });
  await t.db.flag.create({ data: { postId: post.id, topicId: topic.id, reasons: "[]", score: 0.8 } });
  const incident = await t.db.incident.create({ data: { status: "open", title: "宿舍漏水", firstSeenAt: post.publishedAt, lastSeenAt: post.publishedAt } });
  await t.db.incidentPost.create({ data: { postId: post.id, incidentId: incident.id, reason: "seed" } });
  postId = post.id;
  incidentId = incident.id;
});
afterAll(async () => {
  await t?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("campuswatch evidence", () => {
  let fingerprint = "";

  it("makes the install's key once, readable by its user only, and prints its public half", async () => {
    const r = await cw(["evidence", "key"]);
    expect(r.code, r.err).toBe(0);
    fingerprint = /fingerprint: (sha256:[0-9a-f]{64})/.exec(r.out)![1]!;
    expect(r.out).toContain("-----BEGIN PUBLIC KEY-----");
    expect(r.out).not.toContain("PRIVATE KEY-----");
    expect(fs.statSync(path.join(dataDir, "evidence-key.pem")).mode & 0o777).toBe(0o600);
    expect((await cw(["evidence", "key"])).out).toContain(fingerprint);
  });

  it("exports a post, never over an existing file, and verifies it", async () => {
    const out = path.join(dir, "post.zip");
    const r = await cw(["evidence", "export", String(postId), "--out", out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`deleted on the platform at 2026-12-02T00:00:00.000Z`);
    expect(r.out).toContain(`signed by ${fingerprint}`);
    const names = readZip(fs.readFileSync(out)).map((e) => e.name);
    expect(names.some((n) => n.endsWith(".png"))).toBe(true);
    expect(names.some((n) => n.endsWith(".html"))).toBe(true);

    const again = await cw(["evidence", "export", String(postId), "--out", out]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/exists already/);

    const v = await cw(["evidence", "verify", out]);
    expect(v.code, v.out + v.err).toBe(0);
    expect(v.out).toContain(`signature: valid (key ${fingerprint}, this install's key)`);
    expect(v.out).toMatch(/^OK: /m);
  }, 60_000);

  it("verify fails and names the file when one byte of it changed", async () => {
    const out = path.join(dir, "post.zip");
    const zip = fs.readFileSync(out);
    const png = readZip(zip).find((e) => e.name.endsWith(".png"))!;
    const at = zip.indexOf(png.data.subarray(100, 140)) + 10;
    zip[at] = zip[at]! ^ 0xff;
    const bad = path.join(dir, "post-bad.zip");
    fs.writeFileSync(bad, zip);
    const v = await cw(["evidence", "verify", bad]);
    expect(v.code).toBe(1);
    expect(v.out).toContain(`DAMAGED ${png.name}`);
    expect(v.out).toContain(`${png.name} was changed`);
    const json = await cw(["evidence", "verify", bad, "--json"]);
    expect((JSON.parse(json.out) as { ok: boolean }).ok).toBe(false);
    // Another key than the one expected.
    const other = await cw(["evidence", "verify", out, "--key", "sha256:" + "0".repeat(64)]);
    expect(other.code).toBe(1);
    expect(other.out).toContain("NOT the expected key");
  });

  it("exports an incident, and refuses a request that names neither or both", async () => {
    const out = path.join(dir, "incident.zip");
    const r = await cw(["evidence", "export", "--incident", String(incidentId), "--out", out, "--no-screenshots"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/1 posts/);
    expect((await cw(["evidence", "verify", out])).code).toBe(0);
    expect((await cw(["evidence", "export", "--out", path.join(dir, "x.zip")])).err).toMatch(/either a POST_ID or --incident ID/);
    expect((await cw(["evidence", "export", "99999", "--out", path.join(dir, "y.zip")])).err).toMatch(/no post 99999/);
    expect(fs.existsSync(path.join(dir, "y.zip"))).toBe(false);
  });
});
