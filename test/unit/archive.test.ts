import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { archiveSource, flushArchive, pruneArchive, readArchived } from "../../crawler/archive";

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("raw archive", () => {
  it("stores a page once, compressed, per account, and reads it back", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-arch-"));
    const body = "<html>" + "校园论坛帖子内容".repeat(500) + "</html>";
    const a = await archiveSource(dir, 7, { url: "http://x/f?kw=1", body });
    const b = await archiveSource(dir, 7, { url: "http://x/f?kw=1", body });
    expect(a).toBe(b);
    expect(a!.startsWith("7" + path.sep)).toBe(true);
    // The path is known at once; the file is written beside the crawl.
    await flushArchive();
    expect(fs.statSync(path.join(dir, a!)).size).toBeLessThan(Buffer.byteLength(body) / 10);
    expect((await readArchived(dir, a!)).body).toBe(body);
    await expect(readArchived(dir, "../../etc/passwd")).rejects.toThrow(/escapes/);
    expect(await archiveSource(null, 7, { url: "u", body })).toBeNull();
  });

  it("makes an account's folder once, and again when it was removed meanwhile", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-arch-"));
    const first = (await archiveSource(dir, 8, { url: "http://x/1", body: "<p>一</p>" }))!;
    await flushArchive();
    expect(fs.existsSync(path.join(dir, first))).toBe(true);
    fs.rmSync(path.join(dir, "8"), { recursive: true });
    const second = (await archiveSource(dir, 8, { url: "http://x/2", body: "<p>二</p>" }))!;
    await flushArchive();
    expect(fs.existsSync(path.join(dir, second))).toBe(true);
    expect((await readArchived(dir, second)).body).toBe("<p>二</p>");
  });

  it("leaves a file already archived (same URL and body, an earlier crawl) as it is", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-arch-"));
    const source = { url: "http://x/same", body: "<p>同一页</p>" };
    const rel = (await archiveSource(dir, 9, source))!;
    await flushArchive();
    const old = new Date("2026-01-01T00:00:00Z");
    fs.utimesSync(path.join(dir, rel), old, old);
    // Past the in-memory memo of recent sources (32): the next call goes to the disk.
    for (let i = 0; i < 40; i++) await archiveSource(dir, 9, { url: `http://x/${i}`, body: `page ${i}` });
    expect(await archiveSource(dir, 9, source)).toBe(rel);
    await flushArchive();
    expect(fs.statSync(path.join(dir, rel)).mtime.toISOString()).toBe(old.toISOString());
  });

  it("a write that fails loses nothing: the path is still given, and the same source is tried again", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-arch-"));
    // The account's folder cannot be made: a file holds its name.
    fs.writeFileSync(path.join(dir, "5"), "");
    const source = { url: "http://x/fails", body: "<p>写不进去</p>" };
    const rel = (await archiveSource(dir, 5, source))!;
    expect(rel.startsWith("5" + path.sep)).toBe(true);
    await flushArchive();
    expect(fs.existsSync(path.join(dir, rel))).toBe(false);
    // Not remembered as written: once the folder can be made, the next item writes it.
    fs.rmSync(path.join(dir, "5"));
    expect(await archiveSource(dir, 5, source)).toBe(rel);
    await flushArchive();
    expect((await readArchived(dir, rel)).body).toBe(source.body);
  });

  it("retention removes files past the age, then the oldest until under the size", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-arch-"));
    const now = new Date("2026-11-29T00:00:00Z");
    const files: string[] = [];
    for (let i = 0; i < 5; i++) {
      const rel = (await archiveSource(dir, 1, { url: `u${i}`, body: `page ${i} ` + "x".repeat(2000 + i) }))!;
      await flushArchive();
      const t = new Date(now.getTime() - (10 - i) * 86_400_000);
      fs.utimesSync(path.join(dir, rel), t, t);
      files.push(rel);
    }
    // Age: files 0 and 1 are 10 and 9 days old.
    expect(await pruneArchive(dir, { maxAgeDays: 8.5, maxBytes: 1e9 }, now)).toBe(2);
    const sizes = files.slice(2).map((f) => fs.statSync(path.join(dir, f)).size);
    // Size: keep only what fits, dropping the oldest first.
    expect(await pruneArchive(dir, { maxAgeDays: 100, maxBytes: sizes[2]! + 1 }, now)).toBe(2);
    expect(fs.existsSync(path.join(dir, files[4]!))).toBe(true);
    expect(fs.existsSync(path.join(dir, files[3]!))).toBe(false);
  });
});
