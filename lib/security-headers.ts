/**
 * The dashboard's security headers, in one place: the per-request Content-Security-Policy that
 * proxy.ts sets on every response it handles (and on the request, where Next.js reads the nonce
 * for the scripts it emits), HSTS, and the static headers next.config.ts sends on every path.
 *
 * Crawled HTML is hostile: the CSP is a second wall behind the sanitizer. Scripts run only with
 * this request's nonce (Next.js puts it on its own scripts; `'strict-dynamic'` lets those load
 * their chunks), so a `<script>` or an `onerror=` that got past the sanitizer does not run; the
 * violation is reported to {@link CSP_REPORT_PATH}. No remote scripts, frames or objects; images
 * only from this origin (remote ones go through the image proxy route), no form posts elsewhere.
 *
 * Styles: `<style>` and stylesheet elements need the nonce or this origin (`style-src-elem`), but
 * style *attributes* stay allowed (`style-src-attr 'unsafe-inline'`): React renders `style={…}`
 * props as attributes and recharts draws its SVG with them, and a nonce cannot be put on an
 * attribute. An injected style attribute cannot run script, and it cannot send anything away
 * either: url() loads are held to this origin by img-src, font-src and default-src.
 */

/** Where browsers send CSP violation reports (app/api/csp-report/route.ts; no sign-in needed). */
export const CSP_REPORT_PATH = "/api/csp-report";

/** A fresh nonce: 128 random bits, base64 (the characters Next.js accepts in `'nonce-…'`). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy for one response. `script-src` comes first and carries the nonce:
 * Next.js takes the nonce from the first `script-src` directive of the request's CSP header.
 */
export function contentSecurityPolicy(nonce: string, options: { dev?: boolean } = {}): string {
  return [
    // React's development build uses eval for its error overlays; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "script-src-attr 'none'",
    "default-src 'self'",
    // Fallback for browsers without CSP level 3's -elem/-attr split.
    "style-src 'self' 'unsafe-inline'",
    `style-src-elem 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // report-uri, not report-to: Chromium ignores report-uri once report-to is present, and sends
    // report-to reports batched, up to a minute later, instead of at once.
    `report-uri ${CSP_REPORT_PATH}`,
  ].join("; ");
}

/**
 * For responses the proxy does not handle (Next's static files, the image optimizer, the
 * favicon): nothing there is a page that should run script.
 */
export const STATIC_FILE_CSP = "default-src 'self'; script-src 'none'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Powerful browser features the dashboard never uses, switched off for this origin and any frame
 * (a crawled page cannot be framed — frame-src 'none' — but a future one must not inherit them).
 */
export const PERMISSIONS_POLICY = [
  "accelerometer",
  "autoplay",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => `${feature}=()`)
  .join(", ");

/** Headers sent on every response, the same for every request (next.config.ts and proxy.ts). */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  // same-origin: links out to crawled sites carry no referrer, while form posts keep the Origin
  // header that Next.js checks on server actions.
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": PERMISSIONS_POLICY,
};

/**
 * Strict-Transport-Security when the dashboard's public URL is https (one year, no subdomains:
 * other services on sibling names are not ours to force); null otherwise — on plain http the
 * header would be ignored by browsers and would lock out a later http-only install on that name.
 */
export function strictTransportSecurity(publicUrl: string | null): string | null {
  if (!publicUrl) return null;
  try {
    return new URL(publicUrl).protocol === "https:" ? "max-age=31536000" : null;
  } catch {
    return null;
  }
}

/** The per-request headers proxy.ts sets on every response: the nonce CSP and, on https, HSTS. */
export function perRequestSecurityHeaders(nonce: string, options: { publicUrl: string | null; dev?: boolean }): Record<string, string> {
  const headers: Record<string, string> = { "Content-Security-Policy": contentSecurityPolicy(nonce, { dev: options.dev }) };
  const hsts = strictTransportSecurity(options.publicUrl);
  if (hsts) headers["Strict-Transport-Security"] = hsts;
  return headers;
}
