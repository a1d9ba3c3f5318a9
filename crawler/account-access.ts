/**
 * What a crawl reads of how its account reaches the platform: the operator's login cookies and
 * the account's own proxy, unsealed (lib/secret-box.ts). The dashboard and the CLI store them
 * (lib/queries/account-access.ts, lib/queries/account-proxy.ts, which re-export these loaders);
 * the crawler reads them here, so that it never imports lib/queries/.
 */
import { rawSqlite, type Db } from "../lib/db";
import type { Account } from "@/generated/prisma/client";
import { dateOf, prepared } from "../lib/sqlite-statements";
import { anyJson, parseJsonColumn } from "../lib/json-column";
import { SealError, unseal } from "../lib/secret-box";
import { parseProxyUrl, type ProxyConfig } from "../lib/net/proxy-url";
import type { Cookie } from "../lib/cookies/cookie";
import { FatalError } from "./errors";

/** Account columns Prisma reads as booleans (stored as 0/1) and as dates (stored as text). */
const ACCOUNT_BOOLEANS = ["enabled", "ocr"] as const;
const ACCOUNT_DATES = ["lastRunAt", "nextRunAt", "crawlRequestedAt", "cookiesSetAt", "robotsPolicySetAt", "createdAt", "updatedAt"] as const;

/**
 * Whole account rows, as Prisma's `db.account.findMany` returns them, in id order: one account
 * (`{ id }`), or every enabled one (`{ enabled: true }`). Every crawl reads its account here, and
 * its cookies and proxy below: on SQLite as prepared statements (lib/db.ts rawSqlite), so that a
 * `crawl once` sends Prisma no query at all when nothing is left to classify or notify (each costs
 * about 1.5 ms of the busy thread, the first ones more; issue 17). A test compares the rows.
 */
export async function readAccounts(db: Db, which: { id: number } | { enabled: true }): Promise<Account[]> {
  const raw = await rawSqlite(db);
  if (!raw) return db.account.findMany({ where: which, orderBy: { id: "asc" } });
  const where = "id" in which ? `"id" = ?` : `"enabled" = 1`;
  const rows = await raw.transaction(
    (sql) => prepared(sql, `SELECT * FROM "Account" WHERE ${where} ORDER BY "id"`).all(...("id" in which ? [which.id] : [])) as Record<string, unknown>[],
  );
  return rows.map((r) => {
    for (const c of ACCOUNT_BOOLEANS) r[c] = r[c] !== 0;
    for (const c of ACCOUNT_DATES) r[c] = r[c] === null ? null : dateOf(r[c]);
    return r as unknown as Account;
  });
}

/** One column of one account on SQLite (see {@link readAccounts}), else through Prisma; undefined when there is no such account. */
async function accountColumn(db: Db, id: number, column: "cookies" | "proxy"): Promise<string | null | undefined> {
  const raw = await rawSqlite(db);
  if (!raw) {
    const row = await db.account.findUnique({ where: { id }, select: { [column]: true } as { cookies: true } });
    return row ? (row as unknown as Record<string, string | null>)[column] : undefined;
  }
  return raw.transaction((sql) => (prepared(sql, `SELECT "${column}" AS "v" FROM "Account" WHERE "id" = ?`).get(id) as { v: string | null } | undefined)?.v);
}

/** The secret-box purpose the login cookies are sealed with. */
export const ACCOUNT_COOKIES_PURPOSE = "account-cookies";
/** The secret-box purpose an account's proxy URL is sealed with. */
export const ACCOUNT_PROXY_PURPOSE = "account-proxy";

/**
 * The account's login cookies for a crawl (decrypted), [] when none. Cookies sealed with another
 * CAMPUSWATCH_SECRET cannot be opened: that is reported through `onError` and the crawl goes on
 * without them (as a visitor), never with a crash.
 */
export async function loadAccountCookies(db: Db, id: number, onError?: (message: string) => void): Promise<Cookie[]> {
  const cookies = await accountColumn(db, id, "cookies");
  if (!cookies) return [];
  try {
    const list = parseJsonColumn(unseal(cookies, ACCOUNT_COOKIES_PURPOSE), anyJson, undefined);
    if (list === undefined) throw new Error("not JSON"); // reported as unreadable below
    return Array.isArray(list) ? (list as Cookie[]) : [];
  } catch (e) {
    onError?.(`the account's stored cookies cannot be used (${e instanceof SealError ? e.message : "unreadable"}): set them again`);
    return [];
  }
}

/**
 * The account's own proxy for a crawl (decrypted), or null when it has none. A proxy sealed with
 * another CAMPUSWATCH_SECRET cannot be opened: that throws a FatalError, so the run fails with a
 * clear reason rather than sending the account's traffic around the proxy it was given.
 */
export async function loadAccountProxy(db: Db, id: number): Promise<ProxyConfig | null> {
  const proxy = await accountColumn(db, id, "proxy");
  if (!proxy) return null;
  try {
    return parseProxyUrl(unseal(proxy, ACCOUNT_PROXY_PURPOSE));
  } catch (e) {
    const why = e instanceof SealError ? e.message : "unreadable";
    throw new FatalError(`the account's stored proxy cannot be used (${why}): set it again`);
  }
}
