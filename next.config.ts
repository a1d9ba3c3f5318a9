import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { SERVER_ACTION_BODY_LIMIT_BYTES } from "./lib/limits";

// Crawled HTML is hostile: the CSP is a second wall behind the sanitizer. No remote scripts,
// frames or objects; images only from this origin (remote ones only when an admin allows them,
// through the image proxy route), no form posts elsewhere.
const csp = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

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
  headers() {
    return Promise.resolve([
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          // same-origin: links out to crawled sites carry no referrer, while form posts keep the
          // Origin header that Next.js checks on server actions.
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ]);
  },
};

// next-intl without locale routing: the plugin only points `next-intl/config` at the request
// configuration (the locale comes from a cookie or Accept-Language, not from the URL).
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

export default withNextIntl(nextConfig);
