/**
 * OCR: text inside an image of a post is read with Debian's tesseract, stored with the post and
 * classified with it. The image is rendered by Chromium from Chinese text written here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { chromium } from "playwright-core";
import { createOcr } from "../../../crawler/ocr";
import { classifyPosts } from "../../../crawler/classify";
import { crawlFixture, type CrawlFixture } from "./support";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
function tesseractLangs(): string {
  try {
    return execFileSync("tesseract", ["--list-langs"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return "";
  }
}
const langs = tesseractLangs();
const skip = !fs.existsSync(chromiumPath)
  ? `no Chromium at ${chromiumPath}`
  : !/chi_sim/.test(langs)
    ? "tesseract with chi_sim not installed (apt-get install tesseract-ocr tesseract-ocr-chi-sim)"
    : null;
if (skip) console.warn(`skipping OCR tests: ${skip}`);

async function renderPng(text: string): Promise<Buffer> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 160 } });
    await page.setContent(`<body style="margin:0;background:#fff"><div style="font:64px 'Noto Sans CJK SC',sans-serif;padding:30px">${text}</div></body>`);
    return await page.screenshot({ type: "png" });
  } finally {
    await browser.close();
  }
}

describe.skipIf(skip !== null)("OCR of post images", () => {
  let f: CrawlFixture | undefined;
  let images: http.Server | undefined;
  afterAll(async () => {
    await f?.close();
    await new Promise((r) => images?.close(r));
  });

  it("stores the text read from an image with the post, and flags on it", async () => {
    const png = await renderPng("食堂明天全部停业");
    images = http.createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(png));
    await new Promise<void>((r) => images!.listen(0, "127.0.0.1", r));
    const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/notice.png`;

    f = await crawlFixture(
      { seed: 51, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, postsPerAccount: 2, blogFeeds: true },
      { ocr: createOcr({ log: () => undefined }), classify: (db, ids) => classifyPosts(db, ids) },
    );
    await f.t.db.topic.create({ data: { name: "后勤", sensitiveWords: JSON.stringify(["停业"]) } });
    const post = f.site.addPost("blog-1", { title: "通知", html: `<p>见下图</p><p><img src="${imageUrl}"></p>` });
    await f.t.db.account.update({ where: { id: f.ids.get("blog-1")! }, data: { ocr: true } });
    const run = await f.crawl("blog-1");
    expect(run.errors).toEqual([]);
    const row = await f.t.db.post.findFirstOrThrow({ where: { platformId: f.site.platformIdOf(post) } });
    // tesseract's chi_sim model sometimes misreads a character; the key words survive.
    expect(row.ocrText).toContain("明天");
    expect(row.ocrText).toContain("停业");
    expect(row.text).not.toContain("停业");
    const flag = await f.t.db.flag.findFirstOrThrow({ where: { postId: row.id } });
    expect(flag.reasons).toContain("停业");
  });

  it("reports a missing tesseract once and goes on", async () => {
    const messages: string[] = [];
    const ocr = createOcr({ binary: "/nonexistent/tesseract", log: (m) => messages.push(m) });
    expect(await ocr.available()).toBe(false);
    expect(await ocr.available()).toBe(false);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/tesseract not found/);
  });
});
