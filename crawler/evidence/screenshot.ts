/**
 * Screenshots of archived pages: the raw page a post was read from (crawler/archive.ts), drawn by
 * Chromium as the platform showed it, for evidence packages.
 *
 * A crawled page is hostile, so it is drawn with no way out:
 * - JavaScript is off, service workers are blocked, and the page's scripts, frames, plugins,
 *   refreshes, `<base>` and connection hints (preconnect, prefetch…) are removed before drawing;
 * - the document is answered from the archive by request interception, at its own URL (so its
 *   relative links read as they did), with a Content-Security-Policy that allows inline styles
 *   and `data:` images and fonts only; every other request is aborted before it leaves Chromium;
 * - Chromium resolves no host name and sends anything that would still slip through to a closed
 *   loopback port (launch flags), and runs confined as the crawler's does (chromium-launch.ts).
 * The page's own styles (inline `<style>` and `style` attributes: the archive keeps the page,
 * not its stylesheets) are drawn; images and external stylesheets are not fetched.
 *
 * A screenshot is stored beside its page in the archive, `<hash>.png` next to `<hash>.json.gz`,
 * so the archive's retention covers both and keeps both for evidence (crawler/evidence/keep.ts).
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import * as cheerio from "cheerio";
import { readArchived } from "../archive";
import { launchChromium } from "../fetch/chromium-launch";
import { chromiumAvailable } from "../fetch/browser";

/** Width of the drawn page, CSS pixels (a desktop browser's). */
export const SHOT_WIDTH = 1280;
/** The first screen's height; a longer page is drawn whole up to {@link SHOT_MAX_HEIGHT}. */
const SHOT_VIEWPORT_HEIGHT = 900;
/** Longest drawing: a listing of fifty posts fits; a runaway page is cut rather than a 100 MB PNG. */
export const SHOT_MAX_HEIGHT = 12_000;
/** Time allowed to draw one page (nothing is fetched, so it is quick or never). */
const RENDER_TIMEOUT_MS = 20_000;

/**
 * Launch flags: no DNS (every name fails), and a proxy on the discard port of loopback for any
 * request the interception would miss, so nothing reaches another address.
 */
const NO_NETWORK_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"];

/** The policy of the drawn document: its inline styles and `data:` images and fonts, nothing else. */
const SHOT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'; frame-src 'none'";

/** A drawn page. */
export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
}

/** A stored screenshot, as an evidence package lists it. */
export interface StoredScreenshot extends Screenshot {
  /** Path relative to the archive folder. */
  rel: string;
  /** When it was drawn (the file's modification time). */
  takenAt: Date;
}

/** The screenshot's path in the archive for an archived page's path (`7/ab….json.gz` → `7/ab….png`). */
export function screenshotPathOf(archiveRel: string): string {
  return archiveRel.replace(/\.json\.gz$/, "") + ".png";
}

/** Width and height of a PNG, from its IHDR chunk; null when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(signature) || png.toString("ascii", 12, 16) !== "IHDR") return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * The page as it will be drawn: scripts, frames, plugins, refreshes, `<base>` and connection
 * hints removed; a JSON answer (Weibo's API) or plain text shown as preformatted text.
 */
export function pageForScreenshot(body: string): string {
  const trimmed = body.trimStart();
  if (!/^<|^\uFEFF</.test(trimmed)) {
    let text = body;
    if (/^[[{]/.test(trimmed)) {
      try {
        text = JSON.stringify(JSON.parse(body), null, 2);
      } catch {
        // not JSON after all: shown as it is
      }
    }
    const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return `<!doctype html><meta charset="utf-8"><pre style="white-space:pre-wrap;word-break:break-all;font:13px/1.5 monospace;margin:16px">${escaped}</pre>`;
  }
  const $ = cheerio.load(body);
  $("script, iframe, frame, frameset, object, embed, applet, portal, base, meta[http-equiv]").remove();
  $("link").each((_, el) => {
    const rel = ($(el).attr("rel") ?? "").toLowerCase();
    if (/\b(preconnect|dns-prefetch|prefetch|prerender|preload|modulepreload|manifest|import)\b/.test(rel)) $(el).remove();
  });
  return $.html();
}

/** Options of {@link ScreenshotRenderer}. */
export interface RendererOptions {
  chromiumPath: string;
  log?: (message: string) => void;
}

/**
 * Draws archived pages, one Chromium for many pages; {@link close} it when done. Chromium is
 * started at the first drawing.
 */
export class ScreenshotRenderer {
  private browser: Promise<Browser> | null = null;
  constructor(private readonly options: RendererOptions) {}

  /** True when the configured Chromium exists. */
  available(): boolean {
    return chromiumAvailable(this.options.chromiumPath);
  }

  /** Draw `body` as served from `url` (nothing is fetched: see the module's comment). */
  async render(source: { url: string; body: string }): Promise<Screenshot> {
    if (!this.available()) throw new Error(`Chromium not found at ${this.options.chromiumPath}: apt-get install chromium or set CHROMIUM_PATH`);
    this.browser ??= launchChromium(this.options.chromiumPath, { log: this.options.log, args: NO_NETWORK_ARGS });
    const browser = await this.browser;
    const context = await browser.newContext({
      javaScriptEnabled: false,
      serviceWorkers: "block",
      acceptDownloads: false,
      viewport: { width: SHOT_WIDTH, height: SHOT_VIEWPORT_HEIGHT },
      deviceScaleFactor: 1,
    });
    try {
      // A URL that is not http(s) (never stored, but the archive is data) is drawn at a placeholder.
      const docUrl = /^https?:\/\//i.test(source.url) ? source.url : "http://archived-page.invalid/";
      const html = Buffer.from(pageForScreenshot(source.body), "utf8");
      let served = false;
      await context.route("**/*", async (route) => {
        const req = route.request();
        if (!served && req.isNavigationRequest() && req.url() === new URL(docUrl).href) {
          served = true;
          await route.fulfill({
            status: 200,
            headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": SHOT_CSP },
            body: html,
          });
        } else {
          await route.abort("blockedbyclient");
        }
      });
      const page = await context.newPage();
      page.setDefaultTimeout(RENDER_TIMEOUT_MS);
      await page.goto(docUrl, { waitUntil: "load", timeout: RENDER_TIMEOUT_MS });
      const full = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0));
      const height = Math.max(1, Math.min(SHOT_MAX_HEIGHT, Math.ceil(full)));
      const png = await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width: SHOT_WIDTH, height }, type: "png", animations: "disabled" });
      const size = pngSize(png);
      if (!size) throw new Error("Chromium returned something that is not a PNG");
      return { png, ...size };
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /**
   * The stored screenshot of an archived page, drawn and stored now when there is none yet
   * (`drawnNow` says which). Null when the archived page itself is gone (pruned, or never written).
   */
  async ensure(archiveDir: string, archiveRel: string): Promise<(StoredScreenshot & { drawnNow: boolean }) | null> {
    const rel = screenshotPathOf(archiveRel);
    const existing = await readStoredScreenshot(archiveDir, rel);
    if (existing) return { ...existing, drawnNow: false };
    let source: { url: string; body: string };
    try {
      source = await readArchived(archiveDir, archiveRel);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    const shot = await this.render(source);
    const file = path.join(archiveDir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written under a temporary name and renamed: a reader never sees half a PNG.
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, shot.png, { mode: 0o600 });
    await fs.rename(temp, file);
    return { ...shot, rel, takenAt: (await fs.stat(file)).mtime, drawnNow: true };
  }

  /** Stop Chromium (when it was started). */
  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
  }
}

/** A screenshot already in the archive, or null. */
export async function readStoredScreenshot(archiveDir: string, rel: string): Promise<StoredScreenshot | null> {
  const file = path.resolve(archiveDir, rel);
  if (!file.startsWith(path.resolve(archiveDir) + path.sep)) throw new Error("screenshot path escapes the archive directory");
  try {
    const [png, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
    const size = pngSize(png);
    return size ? { png, ...size, rel, takenAt: stat.mtime } : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}
