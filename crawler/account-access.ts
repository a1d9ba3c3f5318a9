/**
 * What a crawl reads of how its account reaches the platform: the operator's login cookies and
 * the account's own proxy, unsealed (lib/secret-box.ts). The dashboard and the CLI store them
 * (server/account-access.ts, server/account-proxy.ts, which re-export these loaders);
 * the crawler reads them here, so that it never imports server/.
 */
import type { Db } from "../lib/db";
import { storesOf } from "../lib/store";
import { anyJson, parseJsonColumn } from "../lib/json-column";
import { SealError, unseal } from "../lib/secret-box";
import { ACCOUNT_COOKIES, ACCOUNT_PROXY } from "../lib/sealed-columns";
import { parseProxyUrl, type ProxyConfig } from "../lib/net/proxy-url";
import type { Cookie } from "../lib/cookies/cookie";
import { FatalError } from "./errors";
import { CRAWL_STORE, one } from "./store/driver";

/** One sealed column of one account (read as ./account-rows.ts reads accounts); undefined when there is no such account. */
function accountColumn(db: Db, id: number, column: "cookies" | "proxy"): Promise<string | null | undefined> {
  return storesOf(db).run(() => one<string | null | undefined>({ op: "accountAccess", id, column }), CRAWL_STORE, { transaction: false });
}

/**
 * The account's login cookies for a crawl (decrypted), [] when none. Cookies sealed with another
 * CAMPUSWATCH_SECRET cannot be opened: that is reported through `onError` and the crawl goes on
 * without them (as a visitor), never with a crash.
 */
export async function loadAccountCookies(db: Db, id: number, onError?: (message: string) => void): Promise<Cookie[]> {
  const cookies = await accountColumn(db, id, "cookies");
  if (!cookies) return [];
  try {
    const list = parseJsonColumn(unseal(cookies, ACCOUNT_COOKIES, id), anyJson, undefined);
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
    return parseProxyUrl(unseal(proxy, ACCOUNT_PROXY, id));
  } catch (e) {
    const why = e instanceof SealError ? e.message : "unreadable";
    throw new FatalError(`the account's stored proxy cannot be used (${why}): set it again`);
  }
}
