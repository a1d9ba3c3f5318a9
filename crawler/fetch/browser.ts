/**
 * Chromium through playwright-core, for pages that build their lists in script and for Weibo's
 * visitor cookies. One browser per process (launching costs a second and ~100 MB), started on
 * first use and closed after a quiet spell; one BrowserContext per fetcher, so accounts never
 * share cookies or storage.
 *
 * Crawled pages run their own scripts, so the browser is confined (chromium-launch.ts: never root,
 * Chromium's sandbox wherever the kernel allows it) and so is each context: all its traffic goes
 * through a gate (browser-gate.ts) that refuses internal addresses other than the account's own
 * host, and a page that receives more than a byte budget is cut off and closed.
 */
import fs from "node:fs";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { FatalError, NonRetryableError } from "../errors";
import { AddressRefusedError, type AddressPolicy } from "./address-policy";
import { BrowserGate } from "./browser-gate";
import { launchChromium } from "./chromium-launch";
import { BodyTooLargeError } from "./http";
import { ProxyError } from "./proxy-tunnel";
import type { ProxyConfig } from "./proxy-url";

export { CHROMIUM_ARGS, browserConfinement } from "./chromium-launch";
export type { BrowserConfinement } from "./chromium-launch";

/** Bytes one page may receive, all its requests together, unless the session says otherwise (4 × the default HTML cap). */
export const DEFAULT_MAX_PAGE_BYTES = 20 * 1024 * 1024;

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

/**
 * Launch a browser of its own (confined as chromium-launch.ts says), for a caller that does not
 * share the crawl's: a missing or failing Chromium is a {@link FatalError} saying what to do.
 */
export async function launchBrowserAt(path: string, log?: (message: string) => void): Promise<Browser> {
  if (!chromiumAvailable(path)) {
    throw new FatalError(`Chromium not found at ${path}: apt-get install chromium or set CHROMIUM_PATH`);
  }
  try {
    return await launchChromium(path, { log });
  } catch (err) {
    if (err instanceof FatalError) throw err;
    throw new FatalError(`Chromium at ${path} failed to start: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function acquire(path: string, log?: (message: string) => void): SharedBrowser {
  let entry = shared.get(path);
  if (!entry) {
    const created: SharedBrowser = { browser: launchBrowserAt(path, log), active: 0 };
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
  /**
   * What this session's pages may contact (the account's own host is trusted by the policy);
   * without one, any address. Enforced for every connection, redirect hops included.
   */
  addressPolicy?: AddressPolicy;
  /**
   * The operator's proxy (or none), asked once when the gate starts: the gate checks each
   * connection as always, then opens it through this proxy instead of directly.
   */
  proxy?: () => Promise<ProxyConfig | null>;
  /**
   * Bytes one page may receive, all its requests together: counted decoded for the page's own
   * frames, and on the wire for everything this session's context receives while the page is
   * open (workers, iframes in other processes; two pages open at once count together).
   * @default DEFAULT_MAX_PAGE_BYTES
   */
  maxPageBytes?: number;
  /** The fetcher's log: the sandbox fallback notice and refused connections. @default console.warn */
  log?: (message: string) => void;
  /** Told of each connection the policy refused (once per host:port and session). @default a log line */
  onRefused?: (err: AddressRefusedError) => void;
}

/**
 * One fetcher's window onto the shared browser: its own context (cookies, storage) and gate,
 * recreated transparently when the shared browser was closed for idleness in between.
 */
export class BrowserSession {
  /** The context and the browser it lives in; a promise so concurrent first requests share one. */
  private current?: { browser: Browser; context: Promise<BrowserContext> };
  /** The gate all of this session's traffic goes through; outlives contexts, closed with the session. */
  private gate?: Promise<BrowserGate>;

  constructor(private readonly options: BrowserSessionOptions) {}

  /**
   * Run `fn` with this session's context and a fresh page, closing the page afterwards. The
   * browser is held while `fn` runs, so it is never closed for idleness under a request.
   *
   * Throws {@link AddressRefusedError} when the page's own navigation (or one of its redirect
   * hops) was refused by the address policy, and {@link BodyTooLargeError} when the page
   * received more than `maxPageBytes` (its connections are cut then and the page closed, so `fn` fails).
   */
  async withPage<T>(fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const { executablePath, idleMs, log } = this.options;
    const entry = acquire(executablePath, log);
    try {
      const gate = await this.gateFor();
      const context = await this.contextFor(await entry.browser, gate);
      const page = await context.newPage();
      const guard = await watchPage(page, context, gate, this.options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES).catch(async (err: unknown) => {
        await page.close().catch(() => undefined);
        throw err;
      });
      try {
        const result = await fn(page, context);
        if (guard.tooLarge) throw new BodyTooLargeError(guard.limit);
        return result;
      } catch (err) {
        throw guard.explain(err);
      } finally {
        await guard.close();
      }
    } finally {
      release(executablePath, entry, idleMs);
    }
  }

  /** Close this session's context and gate (the shared browser stays for other fetchers). */
  async close(): Promise<void> {
    const current = this.current;
    const gate = this.gate;
    this.current = undefined;
    this.gate = undefined;
    const context = await current?.context.catch(() => undefined);
    await context?.close().catch(() => undefined);
    await (await gate?.catch(() => undefined))?.close();
  }

  private gateFor(): Promise<BrowserGate> {
    if (!this.gate) {
      const log = this.options.log ?? ((message: string) => console.warn(`[browser] ${message}`));
      const gate = (async () =>
        BrowserGate.start({
          policy: this.options.addressPolicy,
          upstream: (await this.options.proxy?.()) ?? undefined,
          onRefused: this.options.onRefused ?? ((err) => log(`Chromium: ${err.message}`)),
        }))();
      this.gate = gate;
      gate.catch(() => this.gate === gate && (this.gate = undefined));
    }
    return this.gate;
  }

  private contextFor(browser: Browser, gate: BrowserGate): Promise<BrowserContext> {
    if (this.current?.browser === browser && browser.isConnected()) return this.current.context;
    const context = this.newContext(browser, gate);
    this.current = { browser, context };
    // A failed context must not be handed out again: the next request tries afresh.
    context.catch(() => this.current?.context === context && (this.current = undefined));
    return context;
  }

  private async newContext(browser: Browser, gate: BrowserGate): Promise<BrowserContext> {
    const context = await browser.newContext({
      userAgent: this.options.userAgent,
      serviceWorkers: "block",
      // Nothing a crawled page offers for download is wanted.
      acceptDownloads: false,
      // Playwright also sends loopback through it ("<-loopback>"), so nothing goes around the gate.
      // It answers the gate's credential challenge for Chromium (the gate refuses anyone without them).
      proxy: gate.proxySettings,
    });
    // Images, fonts and media are never needed to read text; skipping them spares the host.
    await context.route("**/*", (route) => {
      const type = route.request().resourceType();
      return type === "image" || type === "media" || type === "font" ? route.abort() : route.continue();
    });
    return context;
  }
}

/** What {@link watchPage} learned about one page while `fn` ran. */
interface PageGuard {
  readonly limit: number;
  readonly tooLarge: boolean;
  /** The error `fn`'s failure really stands for: too large, refused, or `err` itself. */
  explain(err: unknown): unknown;
  /** Stop watching and close the page. */
  close(): Promise<void>;
}

/** How long a page over its budget may take to stop loading (once its connections are cut) before it is closed anyway. */
const STOP_LOADING_GRACE_MS = 5_000;

/**
 * Count what `page` receives — decoded bytes of its frame's responses (CDP), and every byte its
 * context's gate passes while the page is open (workers, other-process iframes, compressed
 * data) — and stop it once either passes `limit`: the gate cuts the context's connections and
 * opens no more until the page is closed, so Chromium's navigation fails and `fn` with it. Note
 * the page's failed navigations, so a refusal by the gate can be named instead of Chromium's
 * "ERR_TUNNEL_CONNECTION_FAILED" or "ERR_EMPTY_RESPONSE".
 */
async function watchPage(page: Page, context: BrowserContext, gate: BrowserGate, limit: number): Promise<PageGuard> {
  let decoded = 0;
  let wire = 0;
  let tooLarge = false;
  let unblock: (() => void) | undefined;
  let failedNavigation: Request | undefined;
  let closing: Promise<void> | undefined;
  /** Frames of this page that are loading (CDP frame ids), and who waits for none to be. */
  const loading = new Set<string>();
  let onIdle: (() => void) | undefined;

  const trip = () => {
    if (tooLarge) return;
    tooLarge = true;
    unblock = gate.block();
    // A navigation that fails after it committed never fires "load": close the page so `fn` ends.
    void close();
  };
  const cdp = await context.newCDPSession(page);
  cdp.on("Network.responseReceived", (event) => {
    const length = Number(Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === "content-length")?.[1]);
    if (Number.isFinite(length) && length > limit) trip();
  });
  cdp.on("Network.dataReceived", (event) => {
    decoded += event.dataLength;
    if (decoded > limit) trip();
  });
  cdp.on("Page.frameStartedLoading", (event) => loading.add(event.frameId));
  cdp.on("Page.frameStoppedLoading", (event) => {
    loading.delete(event.frameId);
    if (loading.size === 0) onIdle?.();
  });
  const onFailed = (request: Request) => {
    try {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) failedNavigation = request;
    } catch {
      // A service worker's request has no frame: not the page's navigation.
    }
  };
  page.on("requestfailed", onFailed);
  // No bodies are kept for this session: it only counts.
  await cdp.send("Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  await cdp.send("Page.enable");
  const stopCounting = gate.onBytes((bytes) => {
    wire += bytes;
    if (wire > limit) trip();
  });

  /** Stop watching and close the page (once; `trip` may have started it already). */
  function close(): Promise<void> {
    closing ??= (async () => {
      stopCounting();
      page.off("requestfailed", onFailed);
      if (tooLarge && loading.size > 0) {
        // Closing a page whose navigation is still committing can stall Chromium for a minute
        // and more; with its connections cut, loading stops at once, so wait for that (bounded).
        let grace: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          onIdle = resolve;
          grace = setTimeout(resolve, STOP_LOADING_GRACE_MS);
        });
        clearTimeout(grace);
      }
      await cdp.detach().catch(() => undefined);
      await page.close().catch(() => undefined);
      unblock?.();
    })();
    return closing;
  }

  return {
    limit,
    get tooLarge() {
      return tooLarge;
    },
    explain(err) {
      if (tooLarge) return new BodyTooLargeError(limit);
      // Only Chromium's word for "the proxy would not connect" is rewritten, not fn's own errors.
      // (A refused CONNECT is a failed tunnel; a refused plain-http request, a connection cut unanswered.)
      if (!failedNavigation || !/net::ERR_(TUNNEL_CONNECTION_FAILED|EMPTY_RESPONSE|PROXY_)/.test(err instanceof Error ? err.message : String(err))) return err;
      const url = failedNavigation.url();
      const cause = gate.failureFor(url);
      if (cause instanceof AddressRefusedError) {
        const refused = new AddressRefusedError(url, cause.address, cause.range, cause.hostName);
        const from = failedNavigation.redirectedFrom();
        return from ? refused.viaRedirect(from.url()) : refused;
      }
      if (!cause) return err;
      // The operator's proxy failed: say so, naming it (masked), not the site.
      if (cause instanceof ProxyError) return cause.forUrl(url);
      // "net::ERR_TUNNEL_CONNECTION_FAILED" says nothing; the gate knows what happened. A final
      // answer stays final (a host without addresses); anything else is a network error as before.
      const message = `Chromium could not open ${url}: ${cause.message}`;
      return cause instanceof NonRetryableError ? new NonRetryableError(message, url) : new Error(message);
    },
    close,
  };
}
