/**
 * Chromium through playwright-core, for pages that build their lists in script and for Weibo's
 * visitor cookies. One browser per process (launching costs a second and ~100 MB), started on
 * first use and closed after a quiet spell; one BrowserContext per fetcher, so accounts never
 * share cookies or storage.
 */
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { FatalError } from "../errors";

/**
 * Flags from the toolchain notes: without the `--disable-*` ones Chromium keeps trying to reach
 * Google services through a network that is closed here, which slows everything down.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where Chromium is looked for: the option, else `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export function chromiumPath(explicit?: string): string {
  return explicit ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

/** True when a Chromium executable exists at `path`, so the browser can be used at all. */
export function chromiumAvailable(path: string): boolean {
  return fs.existsSync(path);
}

interface SharedBrowser {
  browser: Promise<Browser>;
  /** Sessions currently using the browser; the idle timer only runs at zero. */
  active: number;
  timer?: NodeJS.Timeout;
}

/** Keyed by executable path, so a test that points at another Chromium gets its own. */
const shared = new Map<string, SharedBrowser>();

async function launch(path: string): Promise<Browser> {
  if (!chromiumAvailable(path)) {
    throw new FatalError(`Chromium not found at ${path}: apt-get install chromium or set CHROMIUM_PATH`);
  }
  try {
    // Loaded on first use: playwright-core takes most of a second to import, and most crawls
    // (and every process that only reads HTTP) never need it.
    const { chromium } = await import("playwright-core");
    return await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
  } catch (err) {
    throw new FatalError(`Chromium at ${path} failed to start: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function acquire(path: string): SharedBrowser {
  let entry = shared.get(path);
  if (!entry) {
    const created: SharedBrowser = { browser: launch(path), active: 0 };
    entry = created;
    shared.set(path, created);
    created.browser.then(
      (b) => b.on("disconnected", () => shared.get(path) === created && shared.delete(path)),
      () => shared.get(path) === created && shared.delete(path),
    );
  }
  clearTimeout(entry.timer);
  entry.active++;
  return entry;
}

function release(path: string, entry: SharedBrowser, idleMs: number): void {
  entry.active--;
  if (entry.active > 0 || shared.get(path) !== entry) return;
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    if (entry.active > 0 || shared.get(path) !== entry) return;
    // Forget it before closing, so a request arriving meanwhile launches a fresh browser.
    shared.delete(path);
    void entry.browser.then((b) => b.close()).catch(() => undefined);
  }, idleMs);
  // The timer itself must not hold a finishing process open (closeSharedBrowser is the prompt exit).
  entry.timer.unref();
}

/** Close every shared browser now (end of a CLI run, end of a test file). */
export async function closeSharedBrowser(): Promise<void> {
  const entries = [...shared.values()];
  shared.clear();
  await Promise.all(
    entries.map(async (entry) => {
      clearTimeout(entry.timer);
      const browser = await entry.browser.catch(() => undefined);
      await browser?.close().catch(() => undefined);
    }),
  );
}

/** Options of a {@link BrowserSession}. */
export interface BrowserSessionOptions {
  executablePath: string;
  userAgent: string;
  idleMs: number;
}

/**
 * One fetcher's window onto the shared browser: its own context (cookies, storage), recreated
 * transparently when the shared browser was closed for idleness in between.
 */
export class BrowserSession {
  /** The context and the browser it lives in; a promise so concurrent first requests share one. */
  private current?: { browser: Browser; context: Promise<BrowserContext> };

  constructor(private readonly options: BrowserSessionOptions) {}

  /**
   * Run `fn` with this session's context and a fresh page, closing the page afterwards. The
   * browser is held while `fn` runs, so it is never closed for idleness under a request.
   */
  async withPage<T>(fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const { executablePath, idleMs } = this.options;
    const entry = acquire(executablePath);
    try {
      const context = await this.contextFor(await entry.browser);
      const page = await context.newPage();
      try {
        return await fn(page, context);
      } finally {
        await page.close().catch(() => undefined);
      }
    } finally {
      release(executablePath, entry, idleMs);
    }
  }

  /** Close this session's context (the shared browser stays for other fetchers). */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    const context = await current?.context.catch(() => undefined);
    await context?.close().catch(() => undefined);
  }

  private contextFor(browser: Browser): Promise<BrowserContext> {
    if (this.current?.browser === browser && browser.isConnected()) return this.current.context;
    const context = this.newContext(browser);
    this.current = { browser, context };
    // A failed context must not be handed out again: the next request tries afresh.
    context.catch(() => this.current?.context === context && (this.current = undefined));
    return context;
  }

  private async newContext(browser: Browser): Promise<BrowserContext> {
    const context = await browser.newContext({ userAgent: this.options.userAgent, serviceWorkers: "block" });
    // Images, fonts and media are never needed to read text; skipping them spares the host.
    await context.route("**/*", (route) => {
      const type = route.request().resourceType();
      return type === "image" || type === "media" || type === "font" ? route.abort() : route.continue();
    });
    return context;
  }
}
