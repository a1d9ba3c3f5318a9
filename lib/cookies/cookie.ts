/**
 * One stored cookie: the shape the login-cookie import (./import.ts) produces, the dashboard
 * seals at rest, and the fetcher's cookie jar (crawler/fetch/cookies.ts) sends. Here, below the
 * crawler, so that lib/ never imports the crawler.
 */

/** One stored cookie. */
export interface Cookie {
  name: string;
  value: string;
  /** Lower-case domain without a leading dot. */
  domain: string;
  /** True when set without a Domain attribute: sent to exactly that host only. */
  hostOnly: boolean;
  path: string;
  /** Expiry in ms since epoch; undefined for a session cookie (lives as long as the jar). */
  expires?: number;
  secure: boolean;
  httpOnly?: boolean;
}
