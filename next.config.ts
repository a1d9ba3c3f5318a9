import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { SERVER_ACTION_BODY_LIMIT_BYTES } from "./lib/limits";
import { STATIC_FILE_CSP, STATIC_SECURITY_HEADERS } from "./lib/security-headers";

const nextConfig: NextConfig = {
  // A separate build directory lets the test suite build without touching the one `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // `npm test` type-checks the whole project (app, crawler, tests) with tsc once; checking it
  // again inside every build only doubles the time.
  typescript: { ignoreBuildErrors: true },
  // Native addons and Prisma's driver adapter are loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "nodejieba", "playwright-core", "@node-rs/bcrypt", "rate-limiter-flexible"],
  // Uploads (topic samples, seed lists) go through server actions: their body limit is the largest
  // upload the forms state plus room for the other fields (lib/limits.ts), not Next's 1 MB default.
  experimental: { serverActions: { bodySizeLimit: SERVER_ACTION_BODY_LIMIT_BYTES } },
  // The security headers every response carries (lib/security-headers.ts). The Content-Security-Policy
  // with its per-request nonce is set by proxy.ts, on everything but the paths it skips, which
  // get a script-free one here.
  headers() {
    const always = Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value }));
    const staticFileCsp = [{ key: "Content-Security-Policy", value: STATIC_FILE_CSP }];
    return Promise.resolve([
      { source: "/:path*", headers: always },
      { source: "/_next/static/:path*", headers: staticFileCsp },
      { source: "/_next/image", headers: staticFileCsp },
      { source: "/favicon.ico", headers: staticFileCsp },
    ]);
  },
};

// next-intl without locale routing: the plugin only points `next-intl/config` at the request
// configuration (the locale comes from a cookie or Accept-Language, not from the URL).
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

export default withNextIntl(nextConfig);
