/**
 * lib/zip.ts: what it writes is a ZIP other tools read (Info-ZIP's `unzip -t` and `unzip -p`), what
 * it reads back is byte for byte what was written, and hostile ZIPs are refused or reported.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { isSafeZipName, readZip, writeZip, ZipFormatError } from "@/lib/zip";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-zip-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const hasUnzip = fs.existsSync("/usr/bin/unzip");

const files = [
  { name: "manifest.json", data: Buffer.from(JSON.stringify({ a: "校园".repeat(300) })) },
  { name: "pages/页面.html", data: Buffer.from("<html><body>" + "帖子内容 ".repeat(2000) + "</body></html>") },
  { name: "pages/shot.png", data: Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)), compress: false },
  { name: "empty.txt", data: Buffer.alloc(0) },
];

describe("ZIP writer and reader", () => {
  it("writes an archive that unzip tests clean and extracts unchanged", () => {
    const zip = writeZip(files, new Date("2026-12-03T10:20:30Z"));
    const file = path.join(dir, "a.zip");
    fs.writeFileSync(file, zip);
    if (!hasUnzip) return; // checked in CI, where Info-ZIP is installed
    const test = execFileSync("unzip", ["-t", file], { encoding: "utf8" });
    expect(test).toMatch(/No errors detected/);
    expect(execFileSync("unzip", ["-p", file, "pages/页面.html"]).equals(files[1]!.data)).toBe(true);
    expect(execFileSync("unzip", ["-p", file, "pages/shot.png"]).equals(files[2]!.data)).toBe(true);
    // The time is the one given (DOS time, UTC fields, 2-second steps).
    expect(execFileSync("unzip", ["-Z", "-T", file, "manifest.json"], { encoding: "utf8" })).toMatch(/20261203\.102030/);
  });

  it("reads back what it wrote, deflating text and storing what does not shrink", () => {
    const zip = writeZip(files);
    const back = readZip(zip);
    expect(back.map((e) => e.name)).toEqual(files.map((f) => f.name));
    for (const [i, e] of back.entries()) {
      expect(e.crcOk).toBe(true);
      expect(e.data.equals(files[i]!.data)).toBe(true);
    }
    // Compressed: the repetitive page takes far less than its size; the PNG-like bytes are stored.
    expect(zip.length).toBeLessThan(files[2]!.data.length + files[1]!.data.length / 5);
    expect(zip.indexOf(files[2]!.data)).toBeGreaterThan(0);
  });

  it("reads a ZIP made by Info-ZIP's zip", () => {
    if (!fs.existsSync("/usr/bin/zip")) return;
    const src = path.join(dir, "src");
    fs.mkdirSync(path.join(src, "sub"), { recursive: true });
    fs.writeFileSync(path.join(src, "sub", "a.txt"), "hello ".repeat(100));
    const out = path.join(dir, "infozip.zip");
    execFileSync("zip", ["-r", "-q", out, "sub"], { cwd: src });
    const entries = readZip(fs.readFileSync(out));
    expect(entries.map((e) => [e.name, e.crcOk, e.data.toString()])).toEqual([["sub/a.txt", true, "hello ".repeat(100)]]);
  });

  it("reports a flipped byte in a file's content as a CRC mismatch of that file", () => {
    const zip = writeZip(files);
    const at = zip.indexOf(files[2]!.data.subarray(100, 116));
    zip[at] = zip[at]! ^ 0x01;
    const back = readZip(zip);
    expect(back.filter((e) => !e.crcOk).map((e) => e.name)).toEqual(["pages/shot.png"]);
  });

  it("refuses names that escape a folder, duplicates, and structures that do not add up", () => {
    for (const bad of ["../x", "/etc/passwd", "a/../../b", "a\\b", "C:/x", "a//b", ""]) expect(isSafeZipName(bad)).toBe(false);
    expect(() => writeZip([{ name: "../evil", data: Buffer.from("x") }])).toThrow(/not a safe name/);
    expect(() =>
      writeZip([
        { name: "a", data: Buffer.from("x") },
        { name: "a", data: Buffer.from("y") },
      ]),
    ).toThrow(/two files named a/);
    // A name rewritten inside a valid archive (same length): ".." is refused on reading.
    const zip = writeZip([{ name: "ab/cd", data: Buffer.from("x") }]);
    const evil = Buffer.from(zip.toString("latin1").replaceAll("ab/cd", "../cd"), "latin1");
    expect(() => readZip(evil)).toThrow(ZipFormatError);
    expect(() => readZip(Buffer.from("not a zip at all, just some text that is long enough"))).toThrow(/not a ZIP/);
    // A central directory pointing past the file.
    const cut = Buffer.from(zip);
    cut.writeUInt32LE(0x7fffffff, cut.length - 6);
    expect(() => readZip(cut)).toThrow(/outside the file/);
  });

  it("does not inflate past the declared size (a ZIP bomb)", () => {
    const big = Buffer.alloc(5_000_000, 0x41);
    const zip = writeZip([{ name: "bomb.txt", data: big }]);
    // Declare 1000 bytes in the central directory (offset 24 of its entry): the reader stops there.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(1000, central + 24);
    const [entry] = readZip(zip);
    expect(entry!.crcOk).toBe(false);
    expect(entry!.data.length).toBeLessThanOrEqual(1000);
    expect(zlib.crc32(big)).not.toBe(0);
  });
});
