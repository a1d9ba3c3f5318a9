/**
 * Evidence packages (issue 33 item 1) on a real database, the real raw archive and Debian's
 * Chromium: a flagged post's package holds its raw page, a screenshot drawn from it with the
 * page's own styles and nothing fetched, every version, the OCR text and a signed manifest;
 * verification passes, and names the file when one byte changes; a post deleted on the platform
 * still exports its last version; the archive's retention keeps the files of open cases; an
 * incident's package holds its flagged posts; a crawl run's flags get their screenshots by a job.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { loadEvidenceKey, type EvidenceKey } from "@/lib/evidence/key";
import { MANIFEST_NAME, SIGNATURE_NAME, verifyEvidencePackage, type EvidenceManifest } from "@/lib/evidence/package";
import { readZip, writeZip } from "@/lib/zip";
import { archiveSource, flushArchive, pruneArchive } from "@/crawler/archive";
import {
  buildIncidentEvidence,
  buildPostEvidence,
  drawRunScreenshots,
  evidenceArchiveFiles,
  pngSize,
  ScreenshotRenderer,
  screenshotPathOf,
} from "@/crawler/evidence";
import { createServices, pruneArchiveNow } from "@/crawler/runtime";
import { decodePng } from "../../support/png";
import { testDbs } from "../../support/db";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const openDb = testDbs();
const NOW = new Date("2026-12-03T08:00:00Z");

let tmp = "";
let archiveDir = "";
let key: EvidenceKey;
let renderer: ScreenshotRenderer;
/** A server on loopback every URL of the hostile page points at: it must never be asked anything. */
let trap: http.Server;
let trapOrigin = "";
const trapped: string[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-evidence-"));
  archiveDir = path.join(tmp, "archive");
  key = loadEvidenceKey(tmp);
  renderer = new ScreenshotRenderer({ chromiumPath: CHROMIUM });
  trap = http.createServer((req, res) => {
    trapped.push(req.url ?? "");
    res.end("x");
  });
  await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
  trapOrigin = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await renderer?.close();
  await new Promise((r) => trap?.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A thread page as a board serves it: its own inline styles, and every way a page can reach out. */
function hostilePage(title: string): string {
  return `<!doctype html><html><head><meta charset="gbk"><title>${title}</title>
<style>body{background:#ffdded;margin:0;font-family:sans-serif} .t{color:#cc0000;font-size:32px;padding:20px}</style>
<link rel="stylesheet" href="${trapOrigin}/style.css"><link rel="preconnect" href="${trapOrigin}/"><link rel="prefetch" href="${trapOrigin}/prefetch">
<meta http-equiv="refresh" content="0;url=${trapOrigin}/refresh"><base href="${trapOrigin}/base/">
</head><body><div class="t">${title}</div><p>楼主：食堂的饭菜里吃出了虫子，大家注意。</p>
<img src="${trapOrigin}/img.png"><img src="/relative.png"><iframe src="${trapOrigin}/frame"></iframe>
<object data="${trapOrigin}/object"></object><form action="${trapOrigin}/form"><input name="q"></form>
<script>document.body.style.background='#00ff00';new Image().src='${trapOrigin}/js';</script>
<noscript><img src="${trapOrigin}/noscript.png"></noscript>
</body></html>`;
}

interface Seeded {
  db: Db;
  accountId: number;
  topicId: number;
}

async function seed(): Promise<Seeded> {
  const { db } = await openDb();
  const account = await db.account.create({ data: { platform: "discuz", entryUrl: `${trapOrigin}/forum.php?mod=forumdisplay&fid=2`, name: "校园论坛" } });
  const topic = await db.topic.create({ data: { name: "食堂安全" } });
  return { db, accountId: account.id, topicId: topic.id };
}

/** A post with an archived page, earlier versions and a flag (unless `flag` is null). */
async function addPost(
  s: Seeded,
  o: { tid: string; title: string; flag?: "open" | "confirmed" | "dismissed" | null; versions?: string[]; ocrText?: string; deletedAt?: Date; body?: string },
) {
  const url = `${trapOrigin}/forum.php?mod=viewthread&tid=${o.tid}`;
  const archivePath = await archiveSource(archiveDir, s.accountId, { url, body: o.body ?? hostilePage(o.title) });
  await flushArchive();
  const earlier = o.versions ?? [];
  const post = await s.db.post.create({
    data: {
      accountId: s.accountId,
      platformId: o.tid,
      url,
      title: o.title,
      author: "匿名用户",
      authorId: "1001",
      publishedAt: new Date("2026-12-01T02:00:00Z"),
      firstSeenAt: new Date("2026-12-01T02:05:00Z"),
      lastSeenAt: new Date("2026-12-02T02:05:00Z"),
      text: `现在的内容：${o.title}`,
      sha1: `v2:${o.tid}`,
      version: earlier.length + 1,
      ocrText: o.ocrText ?? null,
      deletedAt: o.deletedAt ?? null,
      archivePath,
    },
  });
  for (const [i, text] of earlier.entries()) {
    await s.db.postVersion.create({
      data: {
        postId: post.id,
        version: i + 1,
        title: o.title,
        text,
        sha1: `v2:${o.tid}:${i}`,
        seenAt: new Date(Date.UTC(2026, 11, 1, 2 + i, 5)),
        replacedAt: new Date(Date.UTC(2026, 11, 1, 3 + i, 5)),
      },
    });
  }
  if (o.flag !== null) {
    await s.db.flag.create({
      data: { postId: post.id, topicId: s.topicId, reasons: "[]", score: 0.91, status: o.flag ?? "open", createdAt: new Date("2026-12-01T02:06:00Z") },
    });
  }
  return { id: post.id, url, archivePath: archivePath! };
}

const entriesOf = (zip: Buffer) => new Map(readZip(zip).map((e) => [e.name, e.data]));

describe("evidence packages", () => {
  it("exports a flagged post: raw page, screenshot of it, every version, OCR text, signed manifest", async () => {
    const s = await seed();
    const p = await addPost(s, {
      tid: "501",
      title: "食堂饭菜吃出虫子",
      versions: ["第一版：食堂饭菜", "第二版：食堂饭菜吃出虫子了"],
      ocrText: "图片文字：菜里有虫",
    });
    const built = (await buildPostEvidence(s.db, p.id, { archiveDir, renderer, key, now: NOW, createdBy: "user:reviewer" }))!;
    expect(built.fileName).toBe(`campuswatch-evidence-post-${p.id}-20261203.zip`);

    // Info-ZIP reads it.
    const file = path.join(tmp, built.fileName);
    fs.writeFileSync(file, built.zip);
    expect(execFileSync("unzip", ["-t", file], { encoding: "utf8" })).toMatch(/No errors detected/);

    const files = entriesOf(built.zip);
    const m = JSON.parse(files.get(MANIFEST_NAME)!.toString()) as EvidenceManifest;
    const hash = path.basename(p.archivePath, ".json.gz");
    expect([...files.keys()].sort()).toEqual(
      [
        MANIFEST_NAME,
        SIGNATURE_NAME,
        `pages/${hash}.html`,
        `pages/${hash}.png`,
        `post-${p.id}/versions/v1.json`,
        `post-${p.id}/versions/v2.json`,
        `post-${p.id}/versions/v3.json`,
        `post-${p.id}/ocr.txt`,
        `post-${p.id}/post.json`,
      ].sort(),
    );
    // The raw page exactly as fetched; each version with its times; the OCR text.
    expect(files.get(`pages/${hash}.html`)!.toString()).toBe(hostilePage("食堂饭菜吃出虫子"));
    expect(JSON.parse(files.get(`post-${p.id}/versions/v1.json`)!.toString())).toMatchObject({
      version: 1,
      text: "第一版：食堂饭菜",
      seenAt: "2026-12-01T02:05:00.000Z",
      replacedAt: "2026-12-01T03:05:00.000Z",
    });
    expect(JSON.parse(files.get(`post-${p.id}/versions/v3.json`)!.toString())).toMatchObject({
      version: 3,
      text: "现在的内容：食堂饭菜吃出虫子",
      replacedAt: null,
    });
    expect(files.get(`post-${p.id}/ocr.txt`)!.toString()).toBe("图片文字：菜里有虫");

    // The manifest: every file's hash, the URLs, crawl times, the install and its key.
    expect(m.files.map((f) => f.name).sort()).toEqual([...files.keys()].filter((n) => n !== MANIFEST_NAME && n !== SIGNATURE_NAME).sort());
    expect(m.install.id).toBe(key.fingerprint);
    expect(m.signature.publicKey).toBe(key.publicKeyBase64);
    expect(m.createdBy).toBe("user:reviewer");
    expect(m.createdAt).toBe(NOW.toISOString());
    expect(m.subject).toEqual({ kind: "post", postId: p.id });
    const entry = m.posts[0]!;
    expect(entry).toMatchObject({
      postId: p.id,
      url: p.url,
      platform: "discuz",
      firstSeenAt: "2026-12-01T02:05:00.000Z",
      lastSeenAt: "2026-12-02T02:05:00.000Z",
      deletedAt: null,
      rawPage: { url: p.url, file: `pages/${hash}.html` },
      flags: [{ topic: "食堂安全", status: "open", score: 0.91 }],
    });
    expect(Date.parse(entry.rawPage!.fetchedAt)).toBeGreaterThan(0);
    expect(entry.versions.map((v) => v.version)).toEqual([1, 2, 3]);

    // The screenshot: a real PNG of the archived page, at the drawing width, with the page's own
    // styles (its pink background, its red heading) and without its script (which paints it green).
    const png = files.get(`pages/${hash}.png`)!;
    expect(pngSize(png)).toEqual({ width: 1280, height: entry.screenshot!.height });
    expect(entry.screenshot!.height).toBeGreaterThanOrEqual(900);
    expect(png.length).toBeGreaterThan(2000);
    const img = decodePng(png);
    const [r, g, b] = img.pixel(1000, 700);
    expect([r, g, b]).toEqual([0xff, 0xdd, 0xed]);
    let red = 0;
    for (let x = 20; x < 400; x++) for (let y = 20; y < 70; y++) if (img.pixel(x, y)[0] > 180 && img.pixel(x, y)[1] < 80) red++;
    expect(red).toBeGreaterThan(100); // the heading's glyphs, in the page's own colour
    fs.writeFileSync(path.join(os.tmpdir(), "cw-evidence-shot.png"), png); // to look at by hand
    // Nothing was fetched: no stylesheet, image, frame, refresh, prefetch or script request.
    expect(trapped).toEqual([]);
    // Drawn once, stored beside the raw page: a second export reuses it.
    expect(fs.existsSync(path.join(archiveDir, screenshotPathOf(p.archivePath)))).toBe(true);

    // It verifies with this install's key.
    const v = verifyEvidencePackage(built.zip, { expectedFingerprint: key.fingerprint });
    expect(v.problems).toEqual([]);
    expect(v).toMatchObject({ ok: true, signature: "valid", trustedKey: true, unlisted: [] });
    expect(v.files.every((f) => f.status === "ok")).toBe(true);
  });

  it("names the changed file when one byte changes, and says when the manifest or the signature was altered", async () => {
    const s = await seed();
    const p = await addPost(s, { tid: "502", title: "宿舍楼停电", versions: ["第一版"] });
    const { zip } = (await buildPostEvidence(s.db, p.id, { archiveDir, renderer, key, now: NOW }))!;
    const hash = path.basename(p.archivePath, ".json.gz");
    const png = entriesOf(zip).get(`pages/${hash}.png`)!;

    // 1. One byte of the screenshot flipped inside the ZIP.
    const flipped = Buffer.from(zip);
    const i1 = flipped.indexOf(png.subarray(200, 232)) + 5;
    flipped[i1] = flipped[i1]! ^ 0x20;
    const v1 = verifyEvidencePackage(flipped, { expectedFingerprint: key.fingerprint });
    expect(v1.ok).toBe(false);
    expect(v1.signature).toBe("valid");
    expect(v1.files.filter((f) => f.status !== "ok")).toEqual([{ name: `pages/${hash}.png`, status: "damaged" }]);
    expect(v1.problems.join("\n")).toContain(`pages/${hash}.png was changed`);

    // 2. A version's text edited and the ZIP rewritten cleanly (its own checksums right).
    const files = readZip(zip);
    const edited = files.map((f) =>
      f.name === `post-${p.id}/versions/v1.json`
        ? { name: f.name, data: Buffer.from(f.data.toString().replace("第一版", "第一版（已改）")) }
        : { name: f.name, data: f.data },
    );
    const v2 = verifyEvidencePackage(writeZip(edited), { expectedFingerprint: key.fingerprint });
    expect(v2.files.filter((f) => f.status !== "ok")).toEqual([{ name: `post-${p.id}/versions/v1.json`, status: "changed" }]);
    expect(v2.signature).toBe("valid");

    // 3. …and the manifest edited to match: the signature no longer holds.
    const editedData = edited.find((f) => f.name === `post-${p.id}/versions/v1.json`)!.data;
    const forged = edited.map((f) => {
      if (f.name !== MANIFEST_NAME) return f;
      const m = JSON.parse(f.data.toString()) as EvidenceManifest;
      const e = m.files.find((x) => x.name === `post-${p.id}/versions/v1.json`)!;
      e.sha256 = crypto.createHash("sha256").update(editedData).digest("hex");
      e.size = editedData.length;
      return { name: f.name, data: Buffer.from(JSON.stringify(m, null, 2) + "\n") };
    });
    const v3 = verifyEvidencePackage(writeZip(forged), { expectedFingerprint: key.fingerprint });
    expect(v3.ok).toBe(false);
    expect(v3.signature).toBe("invalid");
    expect(v3.files.every((f) => f.status === "ok")).toBe(true);
    expect(v3.problems[0]).toMatch(/signature does not match the manifest: manifest.json or manifest.sig was replaced after signing/);

    // 4. One byte of manifest.json flipped in place: the manifest is named as altered.
    const m4 = Buffer.from(zip);
    const at = m4.indexOf(Buffer.from(`"createdAt"`));
    // manifest.json is deflated: flip a byte of its compressed data instead, right after its local header.
    const local = 30 + Buffer.byteLength(MANIFEST_NAME);
    m4[local + 40] = m4[local + 40]! ^ 0x01;
    expect(at).toBe(-1); // (deflated: its text is not in the ZIP as such)
    const v4 = verifyEvidencePackage(m4);
    expect(v4.ok).toBe(false);
    expect(v4.altered).toContain("manifest");

    // 5. One byte of the signature flipped: the signature is named as altered.
    const sig = entriesOf(zip).get(SIGNATURE_NAME)!;
    const m5 = Buffer.from(zip);
    const sigAt = m5.indexOf(sig);
    m5[sigAt + 3] = m5[sigAt + 3] === 0x41 ? 0x42 : 0x41;
    const v5 = verifyEvidencePackage(m5);
    expect(v5).toMatchObject({ ok: false, signature: "invalid", altered: ["signature"] });
    expect(v5.problems[0]).toMatch(/manifest.sig was altered/);

    // 6. A file added, and a package re-signed with another key.
    const v6 = verifyEvidencePackage(
      writeZip([
        ...edited.filter((f) => f.name !== `post-${p.id}/versions/v1.json`),
        { name: "extra.txt", data: Buffer.from("x") },
        { name: `post-${p.id}/versions/v1.json`, data: files.find((f) => f.name === `post-${p.id}/versions/v1.json`)!.data },
      ]),
    );
    expect(v6.unlisted).toEqual(["extra.txt"]);
    expect(v6.problems).toContain("extra.txt was added: the manifest does not list it");
    const other = loadEvidenceKey(fs.mkdtempSync(path.join(tmp, "other-")));
    const { zip: otherZip } = (await buildPostEvidence(s.db, p.id, { archiveDir, renderer, key: other, now: NOW }))!;
    const v7 = verifyEvidencePackage(otherZip, { expectedFingerprint: key.fingerprint });
    expect(v7).toMatchObject({ ok: false, signature: "valid", trustedKey: false });
  });

  it("exports a post deleted on the platform with its last version and its deletion time, even when its raw page was pruned", async () => {
    const s = await seed();
    const deletedAt = new Date("2026-12-01T05:00:00Z");
    const p = await addPost(s, { tid: "503", title: "被删的帖子", versions: ["删帖前的第一版"], deletedAt, flag: "confirmed" });
    fs.rmSync(path.join(archiveDir, p.archivePath));
    const { zip, manifest } = (await buildPostEvidence(s.db, p.id, { archiveDir, renderer, key, now: NOW }))!;
    const files = entriesOf(zip);
    const entry = manifest.posts[0]!;
    expect(entry.deletedAt).toBe(deletedAt.toISOString());
    expect(JSON.parse(files.get(`post-${p.id}/versions/v2.json`)!.toString())).toMatchObject({
      text: "现在的内容：被删的帖子",
      deletedAt: deletedAt.toISOString(),
    });
    expect((JSON.parse(files.get(`post-${p.id}/versions/v1.json`)!.toString()) as { text: string }).text).toBe("删帖前的第一版");
    expect(entry.rawPage).toBeNull();
    expect(entry.screenshot).toBeNull();
    expect(entry.notes.join(" ")).toMatch(/no longer in the archive/);
    expect(verifyEvidencePackage(zip, { expectedFingerprint: key.fingerprint }).ok).toBe(true);
  });

  it("exports an incident's flagged posts in one package, each archived page once", async () => {
    const s = await seed();
    const a = await addPost(s, { tid: "601", title: "学生食堂事件一" });
    const b = await addPost(s, { tid: "602", title: "学生食堂事件二", flag: "confirmed" });
    const c = await addPost(s, { tid: "603", title: "无关回帖", flag: null });
    const d = await addPost(s, { tid: "604", title: "误报", flag: "dismissed" });
    const incident = await s.db.incident.create({
      data: { status: "open", title: "食堂卫生", firstSeenAt: new Date("2026-12-01T02:00:00Z"), lastSeenAt: new Date("2026-12-01T03:00:00Z"), size: 4 },
    });
    for (const post of [a, b, c, d]) await s.db.incidentPost.create({ data: { postId: post.id, incidentId: incident.id, reason: "similar" } });
    const built = (await buildIncidentEvidence(s.db, incident.id, { archiveDir, renderer, key, now: NOW }))!;
    expect(built.manifest.subject).toMatchObject({ kind: "incident", incidentId: incident.id, title: "食堂卫生", status: "open" });
    expect(built.manifest.posts.map((p) => p.postId).sort()).toEqual([a.id, b.id].sort());
    const names = [...entriesOf(built.zip).keys()];
    expect(names.filter((n) => n.endsWith(".png"))).toHaveLength(2);
    expect(names.some((n) => n.startsWith(`post-${c.id}/`) || n.startsWith(`post-${d.id}/`))).toBe(false);
    expect(verifyEvidencePackage(built.zip, { expectedFingerprint: key.fingerprint }).ok).toBe(true);
    expect(await buildIncidentEvidence(s.db, 999_999, { archiveDir, renderer, key })).toBeNull();
    expect(await buildPostEvidence(s.db, 999_999, { archiveDir, renderer, key })).toBeNull();
  });

  it("keeps the raw pages and screenshots of open cases when the archive is pruned, and lets the rest go", async () => {
    const s = await seed();
    const open = await addPost(s, { tid: "701", title: "未处理预警", body: "<p>open flag</p>" });
    const confirmed = await addPost(s, { tid: "702", title: "已确认", flag: "confirmed", body: "<p>confirmed flag</p>" });
    const dismissed = await addPost(s, { tid: "703", title: "已驳回", flag: "dismissed", body: "<p>dismissed flag</p>" });
    const plain = await addPost(s, { tid: "704", title: "普通帖子", flag: null, body: "<p>no flag</p>" });
    const inIncident = await addPost(s, { tid: "705", title: "事件成员", flag: null, body: "<p>open incident</p>" });
    const inClosed = await addPost(s, { tid: "706", title: "已驳回事件成员", flag: null, body: "<p>dismissed incident</p>" });
    const when = { firstSeenAt: new Date("2026-12-01T02:00:00Z"), lastSeenAt: new Date("2026-12-01T03:00:00Z") };
    const live = await s.db.incident.create({ data: { status: "open", ...when } });
    const dead = await s.db.incident.create({ data: { status: "dismissed", ...when } });
    await s.db.incidentPost.create({ data: { postId: inIncident.id, incidentId: live.id, reason: "seed" } });
    await s.db.incidentPost.create({ data: { postId: inClosed.id, incidentId: dead.id, reason: "seed" } });
    await renderer.ensure(archiveDir, open.archivePath);
    await renderer.ensure(archiveDir, plain.archivePath);
    // Everything is a year old and over the size limit.
    const old = new Date("2025-11-01T00:00:00Z");
    const account = path.join(archiveDir, String(s.accountId));
    for (const n of fs.readdirSync(account)) fs.utimesSync(path.join(account, n), old, old);

    const keep = await evidenceArchiveFiles(s.db);
    await pruneArchive(archiveDir, { maxAgeDays: 30, maxBytes: 1, keep }, NOW);
    const left = new Set(fs.readdirSync(account).map((n) => path.join(String(s.accountId), n)));
    for (const p of [open, confirmed, inIncident]) expect(left.has(p.archivePath)).toBe(true);
    expect(left.has(screenshotPathOf(open.archivePath))).toBe(true);
    for (const p of [dismissed, plain, inClosed]) expect(left.has(p.archivePath)).toBe(false);
    expect(left.has(screenshotPathOf(plain.archivePath))).toBe(false);
  });

  it("draws the screenshots of a crawl run's new flags in a job, after the run", async () => {
    const s = await seed();
    const p = await addPost(s, { tid: "801", title: "运行中的新预警", body: "<html><body style='background:#123456'><h1>新预警</h1></body></html>" });
    const run = await s.db.crawlRun.create({
      data: {
        accountId: s.accountId,
        trigger: "manual",
        status: "ok",
        startedAt: new Date("2026-12-01T02:00:00Z"),
        finishedAt: new Date("2026-12-01T02:10:00Z"),
      },
    });
    const shot = path.join(archiveDir, screenshotPathOf(p.archivePath));
    expect(fs.existsSync(shot)).toBe(false);
    const r = await drawRunScreenshots(s.db, run.id, { archiveDir, chromiumPath: CHROMIUM });
    expect(r).toEqual({ drawn: 1, skipped: 0, failed: 0 });
    const img = decodePng(fs.readFileSync(shot));
    expect(img.pixel(640, 800).slice(0, 3)).toEqual([0x12, 0x34, 0x56]);
    // Once drawn, a second run of the job draws nothing.
    expect(await drawRunScreenshots(s.db, run.id, { archiveDir, chromiumPath: CHROMIUM })).toEqual({ drawn: 0, skipped: 1, failed: 0 });
  });

  it("a crawl run that flagged posts asks for the screenshot job; the archive's prune job keeps the evidence", async () => {
    const s = await seed();
    const p = await addPost(s, { tid: "901", title: "新预警", body: "<p>flagged in this run</p>" });
    const gone = await addPost(s, { tid: "902", title: "普通", flag: null, body: "<p>not flagged</p>" });
    const run = await s.db.crawlRun.create({
      data: {
        accountId: s.accountId,
        trigger: "manual",
        status: "ok",
        startedAt: new Date("2026-12-01T02:00:00Z"),
        finishedAt: new Date("2026-12-01T02:10:00Z"),
      },
    });
    const quiet = await s.db.crawlRun.create({
      data: {
        accountId: s.accountId,
        trigger: "manual",
        status: "ok",
        startedAt: new Date("2026-12-01T05:00:00Z"),
        finishedAt: new Date("2026-12-01T05:10:00Z"),
      },
    });
    const services = createServices({ db: s.db, hostDelayMs: 0, classify: false, parseThreads: 0 });
    await services.notify!(s.db, run.id);
    await services.notify!(s.db, quiet.id);
    await services.flush();
    const jobs = await s.db.job.findMany({ where: { kind: "evidenceShots" } });
    expect(jobs.map((j) => JSON.parse(j.payload) as unknown)).toEqual([{ kind: "evidenceShots", crawlRunId: run.id }]);

    // The prune job's own entry (the data directory's archive, the configured age): old files go, evidence stays.
    const old = new Date("2025-11-01T00:00:00Z");
    for (const f of [p.archivePath, gone.archivePath]) fs.utimesSync(path.join(archiveDir, f), old, old);
    const saved = { dir: process.env.CAMPUSWATCH_DATA_DIR, days: process.env.CAMPUSWATCH_ARCHIVE_MAX_DAYS };
    process.env.CAMPUSWATCH_DATA_DIR = tmp;
    process.env.CAMPUSWATCH_ARCHIVE_MAX_DAYS = "30";
    try {
      expect(await pruneArchiveNow(s.db)).toBeGreaterThanOrEqual(1);
    } finally {
      if (saved.dir === undefined) delete process.env.CAMPUSWATCH_DATA_DIR;
      else process.env.CAMPUSWATCH_DATA_DIR = saved.dir;
      if (saved.days === undefined) delete process.env.CAMPUSWATCH_ARCHIVE_MAX_DAYS;
      else process.env.CAMPUSWATCH_ARCHIVE_MAX_DAYS = saved.days;
    }
    expect(fs.existsSync(path.join(archiveDir, p.archivePath))).toBe(true);
    expect(fs.existsSync(path.join(archiveDir, gone.archivePath))).toBe(false);
  });
});
