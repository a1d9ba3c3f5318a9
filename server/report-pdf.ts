/**
 * A report's HTML (server/report-html.ts) printed to PDF by Chromium: the same Debian Chromium,
 * started the same confined way as the crawler's (crawler/fetch/chromium-launch.ts: never root, its
 * own sandbox when it can start, a short environment). The page gets no network at all: every
 * request is aborted and scripts are off, so a report prints only what its HTML holds.
 */
import { chromiumPath, launchBrowserAt } from "../crawler/fetch/browser";

/** How long printing may take before it is given up (a stuck Chromium must not hold a job for ever). */
const PRINT_TIMEOUT_MS = 60_000;

/**
 * Print `html` to an A4 PDF.
 * @param options.chromium the Chromium executable (default: CHROMIUM_PATH, else /usr/bin/chromium)
 * @throws when Chromium is missing or cannot start
 */
export async function renderReportPdf(html: string, options: { chromium?: string } = {}): Promise<Buffer> {
  const browser = await launchBrowserAt(chromiumPath(options.chromium));
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    await context.route("**/*", (route) => route.abort());
    const page = await context.newPage();
    page.setDefaultTimeout(PRINT_TIMEOUT_MS);
    await page.setContent(html, { waitUntil: "load" });
    const pdf = await page.pdf({ format: "A4", printBackground: true, preferCSSPageSize: true });
    return Buffer.from(pdf);
  } finally {
    await browser.close().catch(() => undefined);
  }
}
