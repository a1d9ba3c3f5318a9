/** Monitored accounts: validation and data access shared by the CLI, the dashboard and the scheduler. */
import { MAX_ADAPTIVE_S, MIN_ADAPTIVE_S } from "../crawler/adaptive-interval";
import { z } from "zod";
import type { Db } from "../lib/db";
import { Prisma } from "@/generated/prisma/client";
import {
  checkRegisteredHost,
  codeBook,
  cronExpression,
  refuseEntryUrl,
  cronProblemCode,
  httpUrl,
  nextRunTimes,
  parseInput,
  ValidationError,
  type Problem,
} from "../lib/validation";
import type { Resolver } from "../lib/net/address";
import { getAdapter, recognisePlatform, searchUrlProblemCode, searchWatchOf } from "@/crawler/adapters";
import { platformEntry, PLATFORMS, type Platform } from "@/lib/platforms";
import { toNumber, type SqlNumber } from "./sql";
import { parseDuration, shanghaiDay } from "../lib/time";
import { createAccountRow, deleteAccountRow, updateAccountRow } from "@/crawler/account-rows";
import { deleteAccountMarks } from "@/crawler/store";
import { recordAudit, type AuditActor } from "../lib/audit";

/** An account's settings as the audit log records them (no cookies or proxy: those have their own kinds). */
function accountAuditValues(a: {
  name: string;
  entryUrl: string;
  platform: string;
  cron: string;
  enabled: boolean;
  fetchMode: string;
  backfillDays: number | null;
  backfillPages: number | null;
  recheckDays: number;
  ocr: boolean;
  adaptive: boolean;
  minIntervalS: number | null;
  maxIntervalS: number | null;
}) {
  return {
    adaptive: a.adaptive,
    minIntervalS: a.minIntervalS,
    maxIntervalS: a.maxIntervalS,
    name: a.name,
    entryUrl: a.entryUrl,
    platform: a.platform,
    cron: a.cron,
    enabled: a.enabled,
    fetchMode: a.fetchMode,
    backfillDays: a.backfillDays,
    backfillPages: a.backfillPages,
    recheckDays: a.recheckDays,
    ocr: a.ocr,
  };
}

/** What `accounts set` may change besides the URL (which registers the account again: {@link updateAccount}). */
export const accountSettingsSchema = z
  .object({
    name: z.string().trim().min(1, "a name cannot be empty").max(200, "at most 200 characters").optional(),
    cron: cronExpression.optional(),
    enabled: z.boolean().optional(),
    ocr: z.boolean().optional(),
    fetchMode: z.enum(["auto", "http", "browser"], { message: "fetch mode is auto, http or browser" }).optional(),
    /** null: no limit (as far as the listing shows). */
    backfillDays: z.number().int().min(1).nullable().optional(),
    backfillPages: z.number().int().min(1).nullable().optional(),
    recheckDays: z.number().int().min(0).max(3650).optional(),
    /** Poll between minIntervalS and maxIntervalS by how often it posts (crawler/adaptive-interval.ts). */
    adaptive: z.boolean().optional(),
    minIntervalS: z.number().int().min(MIN_ADAPTIVE_S, `at least ${MIN_ADAPTIVE_S} seconds`).max(MAX_ADAPTIVE_S, "at most a week").nullable().optional(),
    maxIntervalS: z.number().int().min(MIN_ADAPTIVE_S, `at least ${MIN_ADAPTIVE_S} seconds`).max(MAX_ADAPTIVE_S, "at most a week").nullable().optional(),
  })
  .strict();
export type AccountSettings = z.input<typeof accountSettingsSchema>;

const optionalInt = (min: number) => z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(min).optional());

export const accountInputSchema = z.object({
  url: httpUrl,
  name: z.string().trim().max(200).optional(),
  platform: z.enum(PLATFORMS as unknown as [Platform, ...Platform[]]).optional(),
  cron: cronExpression.optional(),
  enabled: z.boolean().optional(),
  fetchMode: z.enum(["auto", "http", "browser"]).optional(),
  backfillDays: optionalInt(1),
  backfillPages: optionalInt(1),
  recheckDays: optionalInt(0),
  ocr: z.boolean().optional(),
  // As `accounts set` and the form judge them; both bounds and their order: refuseAdaptiveBounds.
  adaptive: accountSettingsSchema.shape.adaptive,
  minIntervalS: accountSettingsSchema.shape.minIntervalS,
  maxIntervalS: accountSettingsSchema.shape.maxIntervalS,
});
export type AccountInput = z.input<typeof accountInputSchema>;

/**
 * Normalise an entry URL so the same account cannot be registered twice by a trailing '#…', and
 * so a Tieba bar given in a mobile or other-host form (`/mo/q/m?kw=`, `wapp.baidu.com/f?kw=`, …)
 * is stored as the desktop list the adapter crawls.
 */
export function normaliseEntryUrl(url: string): string {
  const u = new URL(url.trim());
  u.hash = "";
  const platform = recognisePlatform(u);
  return (platform ? platformEntry(platform).normaliseEntryUrl(u) : null) ?? u.toString();
}

/** Options of {@link createAccount} and {@link updateAccount}. */
export interface RegisterOptions {
  /** Resolves the entry host for its address class (lib/net/address.ts). @default the system resolver */
  resolve?: Resolver;
}

/**
 * Validate and register an account. Throws ValidationError with field errors (url, cron,
 * platform…). The entry host is resolved and its address class stored (lib/validation.ts
 * checkRegisteredHost): a host registered on a public address is never trusted inside later.
 */
export async function createAccount(db: Db, input: AccountInput, actor: AuditActor, options: RegisterOptions = {}) {
  const data = parseInput(accountInputSchema, input);
  // As typed (a Tieba form is rewritten below): too long, credentials, a metadata host.
  refuseEntryUrl(data.url);
  const entryUrl = normaliseEntryUrl(data.url);
  refuseBadSearch(entryUrl);
  const addressClass = await checkRegisteredHost(entryUrl, options.resolve);
  const platform = data.platform ?? recognisePlatform(new URL(entryUrl));
  if (!platform) {
    throw new ValidationError(
      "url: cannot tell the platform from this URL; choose one",
      { url: ["cannot tell the platform from this URL; choose one"] },
      { code: "platformUnknown" },
    );
  }
  const name = data.name || defaultName(entryUrl);
  refuseAdaptiveBounds(data, FIXED_INTERVAL);
  try {
    const row = await createAccountRow(db, {
      data: {
        platform,
        entryUrl,
        name,
        cron: data.cron ?? platformEntry(platform).defaultCron,
        enabled: data.enabled ?? true,
        fetchMode: data.fetchMode ?? "auto",
        backfillDays: data.backfillDays ?? null,
        backfillPages: data.backfillPages ?? null,
        recheckDays: data.recheckDays ?? 0,
        ocr: data.ocr ?? false,
        adaptive: data.adaptive ?? false,
        minIntervalS: data.minIntervalS ?? null,
        maxIntervalS: data.maxIntervalS ?? null,
        addressClass,
      },
    });
    await recordAudit(db, actor, { kind: "account", action: "create", targetId: row.id, target: row.name, after: accountAuditValues(row) });
    return row;
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      throw new ValidationError(`url: ${entryUrl} is already registered`, { url: ["this URL is already registered"] }, { code: "urlTaken" });
    }
    throw e;
  }
}

/**
 * A URL shaped like a platform's search but without a word (or with a bad `cw_pages`) is refused:
 * crawled, it would search for nothing (or everything).
 * @throws ValidationError on the url field, as the account form reports it
 */
function refuseBadSearch(entryUrl: string): void {
  const problem = searchUrlProblemCode(entryUrl);
  if (problem)
    throw new ValidationError(
      `url: ${problem.message}`,
      { url: [problem.message] },
      { issues: [{ code: "custom", path: ["url"], message: problem.message, input: entryUrl, params: { code: problem.code, values: problem.values } }] },
    );
}

function defaultName(entryUrl: string): string {
  const u = new URL(entryUrl);
  // A keyword watch is named by its word (and bar), like the dashboard shows it.
  const watch = searchWatchOf(u);
  if (watch) return `“${watch.word}” · ${watch.platform} search${watch.bar ? ` in ${watch.bar}吧` : ""}`;
  const kw = u.searchParams.get("kw");
  if (kw) return `${kw}吧`;
  const fid = u.searchParams.get("fid");
  if (fid) return `${u.host} board ${fid}`;
  return `${u.host}${u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "")}`;
}

/** Accounts with their post and error counts, for lists. */
export async function listAccounts(db: Db) {
  // The sealed cookies and proxy never leave the server, not even encrypted.
  const accounts = await db.account.findMany({ orderBy: { id: "asc" }, omit: { cookies: true, proxy: true } });
  // Every post an account reached, also those another account stored first (PostSource).
  const postCounts = await db.postSource.groupBy({ by: ["accountId"], _count: { _all: true } });
  const errorCounts = await db.crawlRun.groupBy({ by: ["accountId"], _sum: { errorCount: true } });
  const posts = new Map(postCounts.map((r) => [r.accountId, r._count._all]));
  const errors = new Map(errorCounts.map((r) => [r.accountId, r._sum.errorCount ?? 0]));
  return accounts.map((a) => ({ ...a, postCount: posts.get(a.id) ?? 0, errorCount: errors.get(a.id) ?? 0 }));
}

/**
 * Delete an account and, by cascade, its posts, runs and history. Returns what was removed. Posts
 * another account also reached stay, under the one that reached them first (a trigger moves them,
 * migration 20261201040000_post_sources), and are not counted as removed.
 */
export async function removeAccount(db: Db, id: number, actor: AuditActor) {
  const account = await db.account.findUnique({ where: { id } });
  if (!account) throw new ValidationError(`no account with id ${id}`, { id: ["not found"] });
  const posts = await db.post.count({ where: { accountId: id, sources: { every: { accountId: id } } } });
  await deleteAccountRow(db, id);
  await recordAudit(db, actor, {
    kind: "account",
    action: "delete",
    targetId: id,
    target: account.name,
    before: { ...accountAuditValues(account), cookies: account.cookies, proxy: account.proxyDisplay, posts },
  });
  return { account, posts };
}

// ---- dashboard ---------------------------------------------------------------------------------

/** "a, b or c": every entry URL form of a platform (its registry entry's), in the message's English. */
function formsList(p: Platform): string {
  const forms = platformEntry(p).entryUrlForms;
  return forms.length <= 1 ? forms[0] : `${forms.slice(0, -1).join(", ")} or ${forms.at(-1)}`;
}

/** The codes of crawler/adapters `searchUrlProblemCode` (a keyword watch's search URL): keys of the `accounts.watch.errors` messages. */
export const searchUrlProblems = codeBook("accounts.watch.errors", ["noWord", "pagesParam"]);

/** The codes of {@link platformProblemCode} (its own; a search URL's are crawler/adapters' `searchUrlProblems`): keys of the `accounts.validation` messages. */
export const platformUrlProblems = codeBook("accounts.validation", ["platformUrlInvalid", "platformProtocol", "platformUnknown", "platformShape"]);

/**
 * Why `url` cannot be registered as `platform` (or as the platform recognised from it), as a
 * code with its values and the English message, or null. Any http(s) URL can be a blog; the
 * other platforms need their exact entry shape (a Weibo user, a Tieba bar, a Discuz! board),
 * because the adapter builds every request from it. `platformShape` names the platform (the
 * dashboard says its shape from the `platforms` messages) and its entry URL forms.
 */
export function platformProblemCode(url: string, platform: Platform | undefined): Problem | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return { code: "platformUrlInvalid", values: {}, message: "not a valid URL" };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { code: "platformProtocol", values: {}, message: "only http and https URLs can be crawled" };
  const searchProblem = searchUrlProblemCode(u);
  if (searchProblem) return searchProblem;
  const p = platform ?? recognisePlatform(u);
  if (!p) return { code: "platformUnknown", values: {}, message: "cannot tell the platform from this URL; choose one" };
  const entry = platformEntry(p);
  // A keyword watch (the platform's own search with a word), or the platform's entry shape.
  const shapeOk = searchWatchOf(u)?.platform === p || entry.isEntryUrl(u);
  if (shapeOk && (platform === undefined || entry.fallback || getAdapter(p, u.href).recognise(u))) return null;
  return {
    code: "platformShape",
    values: { platform: p, example: entry.entryUrlForms.join(", ") },
    message: `unknown URL shape for a ${entry.shapeLabel}: expected something like ${formsList(p)}`,
  };
}

/** {@link platformProblemCode}'s English message (the CLI prints it), or null. */
export function platformProblem(url: string, platform: Platform | undefined): string | null {
  return platformProblemCode(url, platform)?.message ?? null;
}

/**
 * What the account form's switches (enabled, OCR, fetch mode, backfill, re-check, adaptive) say,
 * as {@link accountSettingsSchema} takes them, so the form and `accounts set` are judged by one set
 * of rules. Only a form that shows the switches sends `switches`: without it nothing is read (an
 * unticked checkbox sends nothing, so its absence alone cannot mean "off"). A blank limit is no
 * limit, a blank re-check is off; a number or duration that does not read as one stays text, and
 * the settings schema refuses it on its own field.
 */
function formSettings(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  if (raw.switches === undefined) return undefined;
  const text = (key: string) => {
    const v = raw[key];
    return typeof v === "string" ? v.trim() : "";
  };
  const whole = (key: string, blank: number | null) => {
    const v = text(key);
    return v === "" ? blank : /^\d+$/.test(v) ? Number(v) : v;
  };
  const duration = (key: string) => (text(key) === "" ? null : (parseDuration(text(key)) ?? text(key)));
  return {
    enabled: raw.enabled === "on",
    ocr: raw.ocr === "on",
    fetchMode: text("fetchMode") || "auto",
    backfillDays: whole("backfillDays", null),
    backfillPages: whole("backfillPages", null),
    recheckDays: whole("recheckDays", 0),
    adaptive: raw.adaptive === "on",
    minIntervalS: duration("minIntervalS"),
    maxIntervalS: duration("maxIntervalS"),
  };
}

/** The account form as {@link accountFormSchema} reads it (its switches and the URL choice optional: older callers send neither). */
export interface AccountForm {
  url: string;
  platform: Platform | undefined;
  name: string | undefined;
  cron: string;
  /** The switches, validated by {@link accountSettingsSchema}; absent: left as they are. */
  settings?: z.output<typeof accountSettingsSchema>;
  /** When the URL changes: keep the history marks (the default) or start over (see {@link updateAccount}). */
  marks?: "keep" | "reset";
}

/**
 * The account form. The interval field: a preset's cron expression, or "custom" with the
 * expression in `cron`. The switches are {@link accountSettingsSchema}'s, under `settings` (an
 * issue's path is `settings.<field>`); `marks` answers "keep the history marks?" when the URL changes.
 */
export const accountFormSchema = z
  .preprocess(
    (raw) => (raw && typeof raw === "object" ? { ...raw, settings: formSettings(raw as Record<string, unknown>) } : raw),
    z.object({
      url: httpUrl,
      platform: z.preprocess((v) => (v === "" || v === "auto" ? undefined : v), z.enum(PLATFORMS as unknown as [Platform, ...Platform[]]).optional()),
      name: z.string().trim().max(200, "at most 200 characters").optional(),
      interval: z.string().trim().min(1, "choose an interval"),
      cron: z.string().trim().optional(),
      settings: accountSettingsSchema.optional(),
      marks: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["keep", "reset"]).optional()),
    }),
  )
  .transform((v, ctx): AccountForm => {
    const cron = v.interval === "custom" ? (v.cron ?? "") : v.interval;
    const problem = cron ? cronProblemCode(cron) : { code: "cronMissing" as const, values: {}, message: "enter a cron expression" };
    if (problem) ctx.addIssue({ code: "custom", path: ["cron"], message: problem.message, params: { code: problem.code, values: problem.values } });
    const urlProblem = platformProblemCode(v.url, v.platform);
    if (urlProblem) ctx.addIssue({ code: "custom", path: ["url"], message: urlProblem.message, params: { code: urlProblem.code, values: urlProblem.values } });
    return { url: v.url, platform: v.platform, name: v.name || undefined, cron, settings: v.settings, marks: v.marks };
  });

/** Accounts with what the accounts page shows: counts from the daily roll-ups, last run, errors this week. */
export async function listAccountStatus(db: Db, now = new Date()) {
  // "This week" is today and the six days before it, as Shanghai calendar days: the roll-ups are
  // kept per Shanghai day, like every chart on the dashboard.
  const weekAgo = shanghaiDay(new Date(now.getTime() - 6 * 86_400_000));
  const [accounts, posts, flags, runs7, lastRuns] = await Promise.all([
    db.account.findMany({ orderBy: [{ platform: "asc" }, { name: "asc" }], omit: { cookies: true, proxy: true } }),
    db.$queryRaw<{ accountId: SqlNumber; n: SqlNumber }[]>`SELECT "accountId", sum("n") AS "n" FROM "post_day_stats" GROUP BY "accountId"`,
    db.$queryRaw<
      { accountId: SqlNumber; n: SqlNumber }[]
    >`SELECT "accountId", sum("n") AS "n" FROM "flag_day_stats" WHERE "status" = 'open' GROUP BY "accountId"`,
    db.$queryRaw<{ accountId: SqlNumber; runs: SqlNumber; errors: SqlNumber; blocks: SqlNumber }[]>`
      SELECT "accountId", sum("runs") AS "runs", sum("errors") AS "errors", sum("blocks") AS "blocks" FROM "run_day_stats" WHERE "day" >= ${weekAgo} GROUP BY "accountId"`,
    // One index seek per account on (accountId, startedAt), newest first. (PostgreSQL's planner
    // may walk CrawlRun_startedAt_idx backwards instead: as quick while every account runs, but
    // an account whose last run is old costs a walk over every run since.)
    db.$queryRaw<{ accountId: SqlNumber; id: SqlNumber; status: string }[]>`
      SELECT r."accountId", r."id", r."status" FROM "Account" a
      JOIN "CrawlRun" r ON r."id" = (SELECT x."id" FROM "CrawlRun" x WHERE x."accountId" = a."id" ORDER BY x."startedAt" DESC, x."id" DESC LIMIT 1)`,
  ]);
  const byId = <T extends { accountId: SqlNumber }>(rows: T[]) => new Map(rows.map((r) => [toNumber(r.accountId), r]));
  const p = byId(posts);
  const f = byId(flags);
  const r = byId(runs7);
  const last = byId(lastRuns);
  return accounts.map((a) => ({
    ...a,
    // An adaptive account's next run is the scheduler's choice (crawler/adaptive-interval.ts), not its cron's.
    nextRunAt: a.enabled ? (a.nextRunAt && (a.nextRunAt > now || a.adaptive) ? a.nextRunAt : safeNextRun(a.cron, now)) : null,
    postCount: toNumber(p.get(a.id)?.n),
    openFlags: toNumber(f.get(a.id)?.n),
    runs7d: toNumber(r.get(a.id)?.runs),
    errors7d: toNumber(r.get(a.id)?.errors),
    blocks7d: toNumber(r.get(a.id)?.blocks),
    lastRun: last.get(a.id) ? { id: toNumber(last.get(a.id)!.id), status: last.get(a.id)!.status } : null,
  }));
}
export type AccountStatus = Awaited<ReturnType<typeof listAccountStatus>>[number];

function safeNextRun(cron: string, now: Date): Date | null {
  try {
    return nextRunTimes(cron, 1, now)[0] ?? null;
  } catch {
    return null;
  }
}

/** One account with its status figures, or null. */
export async function getAccountStatus(db: Db, id: number) {
  const all = await listAccountStatus(db);
  return all.find((a) => a.id === id) ?? null;
}

/**
 * Change an account from its form: URL, name, platform, interval and, when the form sends them,
 * its switches (the rules of `accounts set`, {@link accountSettingsSchema}). Throws ValidationError
 * (url on a clash, or refused as at registration; a switch on its own field) before anything is
 * written. A changed entry URL is registered again: its address class is found anew; an unchanged
 * one keeps the class it had. With `marks: "reset"` a changed URL also starts over: the account's
 * history marks (where each listing and thread stopped) and its listing validators (a 304 would
 * end the first run before it reads anything) are deleted in the same transaction as the change,
 * so a failed change keeps them. One audit entry, saying what was done with the marks.
 */
export async function updateAccount(db: Db, id: number, form: AccountForm, actor: AuditActor, options: RegisterOptions = {}) {
  const entryUrl = normaliseEntryUrl(form.url);
  refuseBadSearch(entryUrl);
  const before = await db.account.findUnique({ where: { id } });
  if (!before) throw new ValidationError(`no account with id ${id}`, { id: ["no such account"] }, { code: "notFound" });
  const settings = form.settings ?? {};
  refuseAdaptiveBounds(settings, before);
  const moved = before.entryUrl !== entryUrl;
  const addressClass = moved ? await checkRegisteredHost(entryUrl, options.resolve) : undefined;
  const platform = form.platform ?? recognisePlatform(new URL(entryUrl));
  if (!platform)
    throw new ValidationError("url: cannot tell the platform", { url: ["cannot tell the platform from this URL; choose one"] }, { code: "platformUnknown" });
  const reset = moved && form.marks === "reset";
  try {
    return await db.$transaction(async (tx) => {
      const row = await updateAccountRow(tx, {
        where: { id },
        data: {
          ...settings,
          entryUrl,
          platform,
          cron: form.cron,
          ...(form.name ? { name: form.name } : {}),
          ...(moved ? { addressClass } : {}),
          ...(reset ? { listValidators: null } : {}),
        },
      });
      // What the marks held is counted in the same transaction that deletes them (the log says how many).
      const marks = moved ? await tx.historyMark.count({ where: { accountId: id } }) : 0;
      if (reset) await deleteAccountMarks(tx, id);
      await recordAudit(tx, actor, {
        kind: "account",
        action: "update",
        targetId: id,
        target: row.name,
        before: { ...accountAuditValues(before), ...(moved ? { historyMarks: marks } : {}) },
        after: { ...accountAuditValues(row), ...(moved ? { historyMarks: reset ? 0 : marks, marks: reset ? "reset" : "keep" } : {}) },
      });
      return row;
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      throw new ValidationError(`url: ${entryUrl} is already registered`, { url: ["another account already has this URL"] }, { code: "urlTaken" });
    }
    throw e;
  }
}

/** An account's adaptive settings as stored (defaults for an account not yet created). */
const FIXED_INTERVAL = { adaptive: false, minIntervalS: null, maxIntervalS: null } as const;

/**
 * Refuse adaptive bounds that cannot be polled by: an adaptive account without both bounds, or a
 * minimum over the maximum. Judged as they will be stored: `data` over the account's current
 * values (`before`), so `accounts set --max-interval` alone is checked against the stored minimum.
 * @throws ValidationError on minIntervalS, with code adaptiveBounds or adaptiveOrder
 */
function refuseAdaptiveBounds(
  data: Pick<z.output<typeof accountSettingsSchema>, "adaptive" | "minIntervalS" | "maxIntervalS">,
  before: { adaptive: boolean; minIntervalS: number | null; maxIntervalS: number | null },
): void {
  const minS = data.minIntervalS !== undefined ? data.minIntervalS : before.minIntervalS;
  const maxS = data.maxIntervalS !== undefined ? data.maxIntervalS : before.maxIntervalS;
  if ((data.adaptive ?? before.adaptive) && (minS === null || maxS === null)) {
    throw new ValidationError(
      "adaptive: an adaptive interval needs a minimum and a maximum interval",
      { minIntervalS: ["an adaptive interval needs a minimum and a maximum interval"] },
      { code: "adaptiveBounds" },
    );
  }
  if (minS !== null && maxS !== null && minS > maxS) {
    throw new ValidationError(
      "minIntervalS: the minimum interval is longer than the maximum",
      { minIntervalS: ["the minimum interval is longer than the maximum"] },
      { code: "adaptiveOrder" },
    );
  }
}

/**
 * Change an account's name, interval, schedule, OCR, fetch mode, backfill limits or re-check
 * window (what registration sets). Validated first (ValidationError names the field); nothing is
 * written when a value is refused; one audit entry with the fields that changed.
 */
export async function changeAccountSettings(db: Db, id: number, changes: AccountSettings, actor: AuditActor) {
  const data = parseInput(accountSettingsSchema, changes);
  const before = await db.account.findUnique({ where: { id } });
  if (!before) throw new ValidationError(`no account with id ${id}`, { id: ["no such account"] }, { code: "notFound" });
  refuseAdaptiveBounds(data, before);
  const row = await updateAccountRow(db, { where: { id }, data });
  await recordAudit(db, actor, {
    kind: "account",
    action: "update",
    targetId: id,
    target: row.name,
    before: accountAuditValues(before),
    after: accountAuditValues(row),
  });
  return row;
}

/** Ask the scheduler to crawl an account now (it polls for this flag). */
export function requestCrawl(db: Db, id: number) {
  return updateAccountRow(db, { where: { id }, data: { crawlRequestedAt: new Date() } });
}

/** Enable or disable an account's schedule; a change of state is audited (setting it again is not a change). */
export async function setAccountEnabled(db: Db, id: number, enabled: boolean, actor: AuditActor) {
  const before = await db.account.findUnique({ where: { id }, select: { enabled: true } });
  const row = await updateAccountRow(db, { where: { id }, data: { enabled } });
  await recordAudit(db, actor, {
    kind: "account",
    action: "update",
    targetId: id,
    target: row.name,
    before: { enabled: before?.enabled ?? null },
    after: { enabled },
  });
  return row;
}

/** What deleting an account removes: its posts, replies, flags (reviewed ones among them) and runs. */
export interface DeletionImpact {
  posts: number;
  replies: number;
  flags: number;
  reviewed: number;
  runs: number;
}

/** What deleting an account removes with it, for the confirmation dialog. */
export async function deletionImpact(db: Db, id: number): Promise<DeletionImpact> {
  return (await deletionImpacts(db, [id])).get(id)!;
}

/** What deleting each account would remove, batched: three grouped queries for the whole table instead of three per account. */
export async function deletionImpacts(db: Db, ids: number[]): Promise<Map<number, DeletionImpact>> {
  const out = new Map<number, DeletionImpact>(ids.map((id) => [id, { posts: 0, replies: 0, flags: 0, reviewed: 0, runs: 0 }]));
  if (ids.length === 0) return out;
  const list = Prisma.join(ids);
  const [posts, flags, runs] = await Promise.all([
    db.$queryRaw<
      { accountId: SqlNumber; kind: string; n: SqlNumber }[]
    >`SELECT "accountId", "kind", sum("n") AS "n" FROM "post_day_stats" WHERE "accountId" IN (${list}) GROUP BY "accountId", "kind"`,
    db.$queryRaw<
      { accountId: SqlNumber; status: string; n: SqlNumber }[]
    >`SELECT "accountId", "status", sum("n") AS "n" FROM "flag_day_stats" WHERE "accountId" IN (${list}) GROUP BY "accountId", "status"`,
    db.$queryRaw<
      { accountId: SqlNumber; n: SqlNumber | null }[]
    >`SELECT "accountId", sum("runs") AS "n" FROM "run_day_stats" WHERE "accountId" IN (${list}) GROUP BY "accountId"`,
  ]);
  for (const r of posts) {
    const impact = out.get(toNumber(r.accountId));
    if (!impact) continue;
    if (r.kind === "post") impact.posts += toNumber(r.n);
    else if (r.kind === "reply") impact.replies += toNumber(r.n);
  }
  for (const r of flags) {
    const impact = out.get(toNumber(r.accountId));
    if (!impact) continue;
    impact.flags += toNumber(r.n);
    if (r.status !== "open") impact.reviewed += toNumber(r.n);
  }
  for (const r of runs) {
    const impact = out.get(toNumber(r.accountId));
    if (impact) impact.runs += toNumber(r.n);
  }
  return out;
}
