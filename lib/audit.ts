/**
 * The audit log (issue 33): every change an admin, a reviewer or the CLI makes, with who, when,
 * what, and the values before and after. The one writer of the `AuditEntry` table
 * (docs/tables.md): the dashboard's server functions (server/*) and the CLI call
 * {@link recordAudit} after the change they made succeeded, so one call records one change.
 *
 * Secrets never reach the table: a value under a secret-like key (cookies, password, token,
 * secret, a sealed column) is stored as "set" or "" only, and a webhook URL as its origin
 * (lib/mask.ts) — even when a caller forgot to mask it, because the rule is applied here.
 * Entries are append-only: nothing in the dashboard edits or deletes them.
 */
import type { Db, Prisma } from "./db";
import { csvRow } from "./csv";
import { maskUrl, maskUrlCredentials } from "./mask";

/** Who made a change: a dashboard user, or the command line (userId null, name "cli"). */
export interface AuditActor {
  userId: number | null;
  name: string;
}

/** The actor of every CLI command: the operator at the machine, not a dashboard user. */
export const CLI_ACTOR: AuditActor = Object.freeze({ userId: null, name: "cli" });

/** The actor for a signed-in user (a server action's `guard` result, an API token's owner). */
export function userActor(user: { id: number; username: string }): AuditActor {
  return { userId: user.id, name: user.username };
}

/**
 * The kinds of things a change touches. Other modules (case handling, incidents) use their own
 * kind strings with the same call; these are the ones written today.
 */
export const AUDIT_KINDS = [
  "account",
  "cookies",
  "proxy",
  "robots",
  "topic",
  "channel",
  "samples",
  "user",
  "review",
  "seed",
  "token",
  "case",
  "incident",
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** A JSON-able value of a before/after record. */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };
export type AuditValues = Record<string, AuditValue | undefined>;

/** One change to record. */
export interface AuditChange {
  kind: AuditKind | (string & {});
  /** "create" | "update" | "delete" | "set" | "clear" | "confirm" | "dismiss" | … */
  action: string;
  targetId?: string | number | null;
  /** A label a person recognises (an account's name, a topic's name, a username). */
  target?: string | null;
  before?: AuditValues;
  after?: AuditValues;
  note?: string;
}

/** Keys whose values are secrets: only whether one is set is kept. */
const SECRET_KEY = /(secret|password|passwd|cookie|token|sealed|apikey|api_key|credential)/i;
/** Keys whose values are URLs that carry a secret (robot webhooks): only the origin is kept. */
const WEBHOOK_KEY = /webhook/i;
/** Keys whose values are proxy-like URLs: credentials masked. */
const PROXY_KEY = /proxy/i;

/** Whether a secret is set, as the log says it: "set" or "" (cleared / never set). */
export function secretState(value: unknown): "set" | "" {
  return value === null || value === undefined || value === "" || value === false ? "" : "set";
}

/** One value as stored: secrets reduced to "set"/"", webhook URLs to their origin, proxies masked. */
function maskValue(key: string, value: AuditValue): AuditValue {
  if (value === null || typeof value === "number" || typeof value === "boolean") {
    return SECRET_KEY.test(key) && typeof value !== "boolean" ? secretState(value) : value;
  }
  if (typeof value === "string") {
    // A marker a caller already reduced the secret to passes as it is.
    if (value === "" || value === "set" || value === "cleared") return value;
    if (SECRET_KEY.test(key)) return "set";
    if (WEBHOOK_KEY.test(key)) return maskUrl(value);
    if (PROXY_KEY.test(key)) return maskUrlCredentials(value);
    return value.length > 2000 ? `${value.slice(0, 2000)}…` : value;
  }
  if (Array.isArray(value)) return SECRET_KEY.test(key) ? secretState(value.length) : value.map((v) => maskValue(key, v));
  if (SECRET_KEY.test(key)) return "set";
  return maskValues(value);
}

/** A record with every value masked ({@link maskValue}); undefined values left out. */
export function maskValues(values: AuditValues): Record<string, AuditValue> {
  const out: Record<string, AuditValue> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = maskValue(k, v);
  return out;
}

/**
 * Only what changed: keys whose value differs between before and after (both masked, so a
 * secret replaced by another shows no change unless it was set or cleared — a new secret value
 * is still a change the caller records with a "set" action).
 */
export function changedValues(before: AuditValues, after: AuditValues): { before: Record<string, AuditValue>; after: Record<string, AuditValue> } {
  const b = maskValues(before);
  const a = maskValues(after);
  const outB: Record<string, AuditValue> = {};
  const outA: Record<string, AuditValue> = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (JSON.stringify(b[key] ?? null) === JSON.stringify(a[key] ?? null)) continue;
    if (key in b) outB[key] = b[key] ?? null;
    if (key in a) outA[key] = a[key] ?? null;
  }
  return { before: outB, after: outA };
}

/** A client or a transaction: an entry may be written inside the change's own transaction. */
type AuditWriter = Db | Prisma.TransactionClient;

/**
 * Record one change. Values are masked here ({@link maskValues}); for an "update" only the keys
 * that changed are kept, and an update that changed nothing records nothing (returns null).
 */
export async function recordAudit(db: AuditWriter, actor: AuditActor, change: AuditChange, now = new Date()) {
  let before = maskValues(change.before ?? {});
  let after = maskValues(change.after ?? {});
  if (change.action === "update" && change.before && change.after) {
    ({ before, after } = changedValues(change.before, change.after));
    if (Object.keys(before).length === 0 && Object.keys(after).length === 0) return null;
  }
  return db.auditEntry.create({
    data: {
      createdAt: now,
      userId: actor.userId,
      actor: actor.name,
      kind: change.kind,
      action: change.action,
      targetId: change.targetId === null || change.targetId === undefined ? "" : String(change.targetId),
      target: (change.target ?? "").slice(0, 500),
      before: JSON.stringify(before),
      after: JSON.stringify(after),
      note: (change.note ?? "").slice(0, 2000),
    },
  });
}

/** The filters of the log's page, CSV export and `campuswatch audit list`. */
export interface AuditFilter {
  /** A username (the actor's name at the time), or "cli". */
  actor?: string;
  kind?: string;
  since?: Date;
  until?: Date;
}

export interface AuditRow {
  id: number;
  createdAt: Date;
  userId: number | null;
  actor: string;
  kind: string;
  action: string;
  targetId: string;
  target: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  note: string;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function whereOf(f: AuditFilter): Prisma.AuditEntryWhereInput {
  return {
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.since || f.until ? { createdAt: { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lt: f.until } : {}) } } : {}),
  };
}

/**
 * Entries newest first, `take` at a time; `beforeId` continues after the last one shown (ids only
 * grow, so paging by id is stable while new entries arrive).
 */
export async function listAudit(db: Db, filter: AuditFilter = {}, { take = 100, beforeId }: { take?: number; beforeId?: number } = {}): Promise<AuditRow[]> {
  const rows = await db.auditEntry.findMany({
    where: { ...whereOf(filter), ...(beforeId ? { id: { lt: beforeId } } : {}) },
    orderBy: { id: "desc" },
    take,
  });
  return rows.map((r) => ({ ...r, before: parseObject(r.before), after: parseObject(r.after) }));
}

/** The actors and kinds present, for the page's filter choices. */
export async function auditChoices(db: Db): Promise<{ actors: string[]; kinds: string[] }> {
  const [actors, kinds] = await Promise.all([
    db.auditEntry.findMany({ distinct: ["actor"], select: { actor: true }, orderBy: { actor: "asc" } }),
    db.auditEntry.findMany({ distinct: ["kind"], select: { kind: true }, orderBy: { kind: "asc" } }),
  ]);
  return { actors: actors.map((a) => a.actor), kinds: kinds.map((k) => k.kind) };
}

export const AUDIT_CSV_HEADER = ["id", "time", "actor", "user_id", "kind", "action", "target_id", "target", "before", "after", "note"] as const;

/** The log as CSV (lib/csv.ts: formula guard, RFC 4180), streamed page by page, newest first. */
export async function* auditCsv(db: Db, filter: AuditFilter = {}): AsyncGenerator<string> {
  yield csvRow([...AUDIT_CSV_HEADER]);
  let beforeId: number | undefined;
  for (;;) {
    const rows = await listAudit(db, filter, { take: 500, beforeId });
    for (const r of rows)
      yield csvRow([r.id, r.createdAt, r.actor, r.userId, r.kind, r.action, r.targetId, r.target, JSON.stringify(r.before), JSON.stringify(r.after), r.note]);
    if (rows.length < 500) return;
    beforeId = rows.at(-1)!.id;
  }
}
