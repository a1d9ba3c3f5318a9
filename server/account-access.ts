/**
 * How an account reaches its platform: the operator's login cookies (sealed at rest, never shown
 * back: only their domains and expiry), and later its proxy and robots.txt policy. The crawler
 * reads the cookies through {@link loadAccountCookies} when a crawl's fetcher starts.
 */
import type { Db } from "../lib/db";
import { jsonArray, parseJsonColumn } from "../lib/json-column";
import { seal } from "../lib/secret-box";
import { ValidationError } from "../lib/validation";
import { CookieInputError, parseCookieInput, summariseCookies, type CookieFormat, type CookieSummary } from "../lib/cookies/import";
import type { Platform } from "../lib/platforms";
import { ACCOUNT_COOKIES } from "../lib/sealed-columns";
import { updateAccountRow, updateAccountRows } from "@/crawler/account-rows";
import { recordAudit, type AuditActor } from "../lib/audit";

// The crawler reads the cookies (decrypted) itself, so that it never imports server/; kept
// here too for the CLI and the tests.
export { loadAccountCookies } from "@/crawler/account-access";

/** Cookies refused: a ValidationError (field `cookies`) that keeps the parser's code for the dashboard. */
export class CookieRefusal extends ValidationError {
  constructor(readonly cause: CookieInputError) {
    super(`cookies: ${cause.message}`, { cookies: [cause.message] }, { code: `cookies.${cause.code}`, values: cause.values });
  }
}

/** What storing cookies did, for the form's or the CLI's answer (no values). */
export interface CookiesStored {
  format: CookieFormat;
  count: number;
  summary: CookieSummary[];
  /** Cookies of other sites in the input, by domain, left out. */
  skipped: Record<string, number>;
  expired: number;
}

async function accountOrThrow(db: Db, id: number) {
  const account = await db.account.findUnique({
    where: { id },
    select: { id: true, name: true, entryUrl: true, platform: true, cookiesSetAt: true, cookieSummary: true, robotsPolicy: true, robotsPolicySetBy: true },
  });
  if (!account) throw new ValidationError(`no account with id ${id}`, { id: ["no such account"] }, { code: "accountGone" });
  return account;
}

/**
 * Replace an account's login cookies with those in `text` (a Cookie header value, a Netscape
 * cookies.txt or a JSON export). A refusal changes nothing and says why ({@link CookieRefusal}).
 */
export async function setAccountCookies(db: Db, id: number, text: string, actor: AuditActor, now = new Date()): Promise<CookiesStored> {
  const account = await accountOrThrow(db, id);
  let parsed;
  try {
    parsed = parseCookieInput(text, { entryUrl: account.entryUrl, platform: account.platform as Platform }, now.getTime());
  } catch (e) {
    if (e instanceof CookieInputError) {
      throw new CookieRefusal(e);
    }
    throw e;
  }
  const summary = summariseCookies(parsed.cookies);
  await updateAccountRow(db, {
    where: { id },
    data: { cookies: seal(JSON.stringify(parsed.cookies), ACCOUNT_COOKIES, id), cookieSummary: JSON.stringify(summary), cookiesSetAt: now },
  });
  await clearRelogin(db, id);
  // Only that cookies are set, how many and for which domains: never a name or a value.
  await recordAudit(db, actor, {
    kind: "cookies",
    action: "set",
    targetId: id,
    target: account.name,
    before: cookieAuditState(account),
    after: { cookies: "set", count: parsed.cookies.length, domains: summary.map((c) => c.domain) },
  });
  return { format: parsed.format, count: parsed.cookies.length, summary, skipped: parsed.skipped, expired: parsed.expired };
}

/** Forget an account's login cookies. */
export async function clearAccountCookies(db: Db, id: number, actor: AuditActor): Promise<void> {
  const account = await accountOrThrow(db, id);
  await updateAccountRow(db, { where: { id }, data: { cookies: null, cookieSummary: "[]", cookiesSetAt: null } });
  await clearRelogin(db, id);
  await recordAudit(db, actor, {
    kind: "cookies",
    action: "clear",
    targetId: id,
    target: account.name,
    before: cookieAuditState(account),
    after: { cookies: "" },
  });
}

/** The cookies an account had, as the audit log says it: set or not, and for which domains. */
function cookieAuditState(a: { cookiesSetAt: Date | null; cookieSummary: string }) {
  const domains = cookieSummaryOf(a).map((c) => c.domain);
  return a.cookiesSetAt ? { cookies: "set", count: domains.length, domains } : { cookies: "" };
}

/**
 * New cookies (or none: crawled as a visitor from now on) answer an expired login: the account
 * leaves "relogin" (需要重新登录) for "idle", and the next expiry is notified again (lib/notify/login.ts
 * counts from `cookiesSetAt`).
 */
async function clearRelogin(db: Db, id: number): Promise<void> {
  await updateAccountRows(db, { where: { id, status: "relogin" }, data: { status: "idle", lastError: null } });
}

/** The stored cookies' domains, counts and expiry, for display. */
export function cookieSummaryOf(row: { cookieSummary: string }): CookieSummary[] {
  return parseJsonColumn(row.cookieSummary, jsonArray, []) as CookieSummary[];
}

/** Whether an account's crawls obey robots.txt Disallow rules; Crawl-delay is honoured either way. */
export type RobotsPolicyValue = "obey" | "ignore";

/** Parse a robots policy typed by a user ("obey" | "ignore"), or a ValidationError saying which are allowed. */
export function parseRobotsPolicy(value: string): RobotsPolicyValue {
  const v = value.trim().toLowerCase();
  if (v === "obey" || v === "ignore") return v;
  throw new ValidationError(`robots: must be obey or ignore (got ${JSON.stringify(value)})`, { robots: ["must be obey or ignore"] }, { code: "robotsPolicy" });
}

/**
 * Set an account's robots.txt policy. `ignore` is for boards the operator runs or has permission
 * to crawl; who set it (`by`: a dashboard user name, or "cli (unix user)") and when are stored and
 * shown on the account and on every run it governs. Setting `obey` clears them.
 */
export async function setRobotsPolicy(db: Db, id: number, policy: RobotsPolicyValue, by: string, actor: AuditActor, now = new Date()): Promise<void> {
  const account = await accountOrThrow(db, id);
  await updateAccountRow(db, {
    where: { id },
    data:
      policy === "ignore"
        ? { robotsPolicy: "ignore", robotsPolicySetBy: by.slice(0, 100), robotsPolicySetAt: now }
        : { robotsPolicy: "obey", robotsPolicySetBy: null, robotsPolicySetAt: null },
  });
  await recordAudit(db, actor, {
    kind: "robots",
    action: policy,
    targetId: id,
    target: account.name,
    before: { robotsPolicy: account.robotsPolicy },
    after: { robotsPolicy: policy },
  });
}
