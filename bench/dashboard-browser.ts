/**
 * The browser half of `npm run bench:dashboard`: how long a person waits for each page, measured
 * in Debian's Chromium (playwright-core, the crawler's launch flags) to the page's `load` event.
 *
 * On pages with charts the time the first chart's SVG appears is read too (a MutationObserver the
 * benchmark adds to every page), because a chart may be drawn after `load`.
 *
 * One browser context is signed in once (the benchmark's session cookie) and keeps its HTTP cache,
 * as a person's browser does between pages: the figures are repeat visits, not first visits with
 * a cold cache. Each load is a full navigation; its time is read from the page's own Navigation
 * Timing entry (`loadEventEnd`, from the start of the navigation), so Playwright's round trips to
 * the browser are not counted.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../crawler/fetch/chromium-launch";

/** A page to load and how long it took, in milliseconds. */
export interface BrowserTiming {
  url: string;
  times: number[];
  /** Bytes of JavaScript the page loaded (decoded size of its script resources, first load). */
  scriptBytes: number;
  /** On pages with charts: when the first chart was drawn (ms since navigation start). */
  drawn: number[];
}

/** Options of {@link browserLoadTimes}. */
export interface BrowserBenchOptions {
  /** Origin of the dashboard server, e.g. `http://127.0.0.1:3211`. */
  base: string;
  /** The signed session token (cookie `cw_session`). */
  token: string;
  /** Timed loads per page. */
  runs: number;
  /** Untimed loads per page first (they fill the HTTP cache and warm the server). */
  warmup: number;
  /** Chromium executable. @default /usr/bin/chromium (or CHROMIUM_PATH) */
  executablePath?: string;
  /** Called for each page with its timings once every round is done. */
  onPage?: (timing: BrowserTiming) => void;
}

/**
 * Load every URL `warmup + runs` times in one signed-in Chromium context and return the timed
 * loads to `load` (milliseconds since navigation start), in alternating rounds.
 */
export async function browserLoadTimes(urls: readonly string[], options: BrowserBenchOptions): Promise<BrowserTiming[]> {
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    // The benchmark loads only its own local dashboard, so Chromium's sandbox (which cannot start
    // as root without the crawler's user switch) buys nothing here; the flags are the crawler's.
    chromiumSandbox: false,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
    const { hostname } = new URL(options.base);
    await context.addCookies([{ name: "cw_session", value: options.token, domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" }]);
    // Note when the first chart SVG enters the document, as a performance mark. A string, not a
    // function: tsx's transform would wrap a function's inner names in a helper the page lacks.
    await context.addInitScript(`{
      const observer = new MutationObserver(() => {
        if (!document.querySelector(".chart-panel svg.recharts-surface")) return;
        performance.mark("cw-chart-drawn");
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    }`);
    const page = await context.newPage();
    const timings: BrowserTiming[] = urls.map((url) => ({ url, times: [], scriptBytes: 0, drawn: [] }));
    // Alternating rounds (every page once per round) so that a busy moment on a shared machine
    // slows every page a little rather than one page a lot.
    for (let round = 0; round < options.warmup + options.runs; round++) {
      for (const timing of timings) {
        const { url } = timing;
        const res = await page.goto(options.base + url, { waitUntil: "load", timeout: 60_000 });
        if (!res || res.status() !== 200) throw new Error(`${url}: HTTP ${res?.status() ?? "none"} in the browser`);
        if (new URL(page.url()).pathname === "/sign-in") throw new Error(`${url}: the browser was sent to sign in`);
        // A page with charts: also when the first chart is drawn (it may be after `load`).
        const hasChart = (await page.locator(".chart-panel").count()) > 0;
        if (hasChart) await page.waitForSelector(".chart-panel svg.recharts-surface", { timeout: 30_000 }).catch(() => undefined);
        const nav = await page.evaluate(() => {
          const e = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
          const scripts = performance
            .getEntriesByType("resource")
            .filter((r) => (r as PerformanceResourceTiming).initiatorType === "script")
            .reduce((s, r) => s + ((r as PerformanceResourceTiming).decodedBodySize || 0), 0);
          const drawn = performance.getEntriesByName("cw-chart-drawn")[0]?.startTime ?? null;
          return { load: e ? e.loadEventEnd - e.startTime : NaN, scripts, drawn };
        });
        if (round === 0) timing.scriptBytes = nav.scripts;
        if (round >= options.warmup) {
          timing.times.push(nav.load);
          if (nav.drawn !== null) timing.drawn.push(nav.drawn);
        }
      }
    }
    for (const timing of timings) options.onPage?.(timing);
    await context.close();
    return timings;
  } finally {
    await browser.close();
  }
}
