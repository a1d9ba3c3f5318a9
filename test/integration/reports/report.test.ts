/**
 * Daily and weekly reports (日报/周报) from a seeded database: the figures, the HTML in both
 * languages, the PDF Chromium prints (a real PDF with text on an A4 page), and `campuswatch report`
 * as a user runs it (the built CLI on the same database), bad arguments refused in one line.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { runCli } from "../../support/cli";
import { seedReportWeek, type ReportSeed } from "../../support/report-seed";
import { reportData } from "@/server/reports";
import { renderReportHtml } from "@/server/report-html";
import { makeReport } from "@/server/report-file";

let t: TestDb;
let seed: ReportSeed;
let dir = "";
const NOW = new Date("2026-12-03T01:00:00Z"); // 09:00 on 12-03 in Beijing: "yesterday" is 12-02

beforeAll(async () => {
  t = await createTestDb();
  seed = await seedReportWeek(t.db);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-report-"));
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The text a PDF shows: every content stream inflated, the strings of its text operators. */
function pdfFacts(pdf: Buffer): { pages: number; textOps: number; fonts: number; mediaBox: string | null } {
  const raw = pdf.toString("latin1");
  let textOps = 0;
  const streams = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streams.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    try {
      const body = zlib.inflateSync(pdf.subarray(start, end)).toString("latin1");
      textOps += (body.match(/\bT[jJ]\b/g) ?? []).length;
    } catch {
      // not a deflated stream (an image, a font program in another filter)
    }
  }
  return {
    pages: (raw.match(/\/Type\s*\/Page(?!s)/g) ?? []).length,
    textOps,
    fonts: (raw.match(/\/Type\s*\/Font\b/g) ?? []).length,
    mediaBox: /\/MediaBox\s*\[([^\]]+)\]/.exec(raw)?.[1]?.trim() ?? null,
  };
}

describe("reports", () => {
  it("a daily report's figures: the day's posts, flags, incidents and hourly trend", async () => {
    const d = await reportData(t.db, { period: "day" }, NOW);
    expect(d.firstDay).toBe("2026-12-02");
    expect(d.lastDay).toBe("2026-12-02");
    expect(d.from.toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(d.summary).toEqual({
      posts: 12,
      newFlags: 5,
      confirmedFlags: 2,
      dismissedFlags: 1,
      openFlags: 3,
      newIncidents: 2,
      handledIncidents: 1,
      burstingIncidents: 1,
    });
    // Open and handled incidents active that day, hottest first: not the older, dismissed or candidate ones.
    expect(d.topIncidents.map((i) => i.id)).toEqual([seed.incidents.canteen, seed.incidents.exam]);
    expect(d.topIncidents[0]).toMatchObject({ title: "二食堂饭菜异物", platforms: ["weibo", "tieba"], size: 6, flaggedCount: 3, heat: 42.5, bursting: true });
    expect(d.trend).toHaveLength(24);
    const hours = Object.fromEntries(d.trend.filter((b) => b.posts > 0).map((b) => [b.key.slice(11), b.posts]));
    expect(hours).toEqual({ "09": 2, "10": 2, "11": 1, "12": 1, "14": 1, "16": 1, "20": 2, "21": 2 });
    expect(d.trend.reduce((n, b) => n + b.flags, 0)).toBe(5);
    expect(d.topics).toEqual([
      { topicId: seed.topics.canteen, name: "食堂", newFlags: 3, confirmed: 2, dismissed: 0 },
      { topicId: seed.topics.exam, name: "考试", newFlags: 2, confirmed: 0, dismissed: 1 },
    ]);
  });

  it("a weekly report covers the seven days ending on its date; one topic's report only that topic", async () => {
    const w = await reportData(t.db, { period: "week", date: "2026-12-02" }, NOW);
    expect([w.firstDay, w.lastDay]).toEqual(["2026-11-26", "2026-12-02"]);
    expect(w.trend.map((b) => [b.key, b.posts, b.flags])).toEqual([
      ["2026-11-26", 0, 0],
      ["2026-11-27", 0, 0],
      ["2026-11-28", 0, 0],
      ["2026-11-29", 0, 0],
      ["2026-11-30", 0, 0],
      ["2026-12-01", 1, 1],
      ["2026-12-02", 12, 5],
    ]);
    expect(w.summary.newIncidents).toBe(3);
    expect(w.topIncidents.map((i) => i.id)).toEqual([seed.incidents.canteen, seed.incidents.exam, seed.incidents.lastWeek]);

    const exam = await reportData(t.db, { period: "week", date: "2026-12-02", topicId: seed.topics.exam }, NOW);
    expect(exam.topic).toEqual({ id: seed.topics.exam, name: "考试" });
    expect(exam.topIncidents.map((i) => i.id)).toEqual([seed.incidents.exam, seed.incidents.lastWeek]);
    expect(exam.summary.newFlags).toBe(3);
    expect(exam.topics).toEqual([]);
    // Posts are the whole volume whatever the topic; flags the topic's.
    expect(exam.trend.at(-1)).toEqual({ key: "2026-12-02", posts: 12, flags: 2 });
  });

  it("the HTML says it in Chinese (English with the English locale), escapes crawled text and has no external resource", async () => {
    await t.db.incident.update({ where: { id: seed.incidents.exam }, data: { title: '<img src="http://127.0.0.1:9/x">泄题' } });
    try {
      const d = await reportData(t.db, { period: "day", date: "2026-12-02" }, NOW);
      const zh = renderReportHtml(d, "zh-CN");
      expect(zh).toContain("CampusWatch 舆情日报");
      for (const h of ["概况", "热度最高的事件", "趋势", "各主题预警"]) expect(zh).toContain(`<h2>${h}</h2>`);
      expect(zh).toMatch(/<dt>新增预警<\/dt><dd>5<\/dd>/);
      expect(zh).toMatch(/<dt>已处置事件<\/dt><dd>1<\/dd>/);
      expect(zh).toContain("二食堂饭菜异物");
      expect(zh).toContain("微博、贴吧");
      expect(zh).toContain("爆发中");
      expect(zh).toContain("已处置");
      expect(zh).toContain("&lt;img src=&quot;http://127.0.0.1:9/x&quot;&gt;泄题");
      expect(zh).not.toContain("<img");
      expect(zh).not.toMatch(/<script|<link|@import|url\(/);
      // Two inline SVG charts; the posts chart has a bar per busy hour with its value.
      expect(zh.match(/<svg /g)).toHaveLength(2);
      expect(zh).toContain('data-key="2026-12-02T09" data-value="2"');
      expect(zh).toContain("每小时帖子及回复数");

      const en = renderReportHtml(d, "en");
      expect(en).toContain("CampusWatch daily report");
      for (const h of ["Summary", "Top incidents by heat", "Trends", "Flags by topic"]) expect(en).toContain(`<h2>${h}</h2>`);
      expect(en).toMatch(/<dt>New flags<\/dt><dd>5<\/dd>/);
      expect(en).toContain("Posts and replies per hour");
      expect(en).not.toMatch(/[预警事件热度概况]/);
      // Served by the dashboard, its one <style> carries the page's CSP nonce.
      expect(renderReportHtml(d, "en", { styleNonce: "abc123" })).toContain('<style nonce="abc123">');
    } finally {
      await t.db.incident.update({ where: { id: seed.incidents.exam }, data: { title: "高数期末考试泄题传言" } });
    }
  });

  it("the PDF is a real A4 PDF with text, printed by Chromium", async () => {
    const r = await makeReport(t.db, { period: "day", date: "2026-12-02", locale: "zh-CN", format: "pdf" }, NOW);
    expect(r.filename).toBe("campuswatch-day-2026-12-02.pdf");
    expect(r.title).toBe("CampusWatch 舆情日报 · 2026-12-02 · 全部主题");
    expect(r.body.subarray(0, 5).toString()).toBe("%PDF-");
    const facts = pdfFacts(r.body);
    expect(facts.pages).toBeGreaterThanOrEqual(1);
    expect(facts.pages).toBeLessThanOrEqual(3);
    // A4 in points.
    expect(facts.mediaBox?.split(/\s+/).map((x) => Math.round(Number(x)))).toEqual([0, 0, 595, 842]);
    expect(facts.fonts).toBeGreaterThan(0);
    expect(facts.textOps).toBeGreaterThan(20);
    fs.writeFileSync(path.join(dir, "day.pdf"), r.body);
  }, 60_000);

  it("campuswatch report writes the same report as HTML and PDF, and refuses bad arguments in one line", async () => {
    const env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
    const cw = (...args: string[]) => runCli(args, { cwd: dir, env });
    const html = path.join(dir, "week.html");
    const ok = await cw("report", "--period", "week", "--date", "2026-12-02", "--topic", "考试", "--locale", "en", "--out", html);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^wrote CampusWatch weekly report · 2026-11-26 to 2026-12-02 · Topic: 考试 to .*week\.html \(HTML, \d+ bytes\)\n$/);
    const text = fs.readFileSync(html, "utf8");
    const direct = renderReportHtml(await reportData(t.db, { period: "week", date: "2026-12-02", topicId: seed.topics.exam }, NOW), "en");
    // The same document as in-process, but for the time it was made.
    const strip = (s: string) => s.replace(/Figures as of [^<]*/, "");
    expect(strip(text)).toBe(strip(direct));

    const pdf = path.join(dir, "day.pdf");
    const p = await cw("report", "--period", "day", "--date", "2026-12-02", "--out", pdf);
    expect(p.code).toBe(0);
    expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");

    const refusals: [string[], RegExp][] = [
      [["--period", "month", "--out", "x.pdf"], /--period must be day or week \(got month\)/],
      [["--period", "day", "--date", "2026-02-30", "--out", "x.pdf"], /--date must be a day written YYYY-MM-DD \(got 2026-02-30\)/],
      [["--period", "day", "--out", "x.docx"], /--out must name a \.pdf or \.html file/],
      [["--period", "day", "--locale", "fr", "--out", "x.pdf"], /--locale must be zh-CN or en/],
      [["--period", "day", "--topic", "没有", "--out", "x.pdf"], /no topic named or numbered "没有"/],
      [["--period", "day", "--out", "no/such/dir/x.pdf"], /--out: the folder .* does not exist/],
      [["--out", "x.pdf"], /required option '--period <period>' not specified/],
    ];
    for (const [args, message] of refusals) {
      const r = await cw("report", ...args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
    expect(fs.existsSync(path.join(dir, "x.pdf"))).toBe(false);
  }, 120_000);
});
