/** Crawl runs: the list, one run's detail, and the live status the dashboard polls. */
import { z } from "zod";
import type { Db } from "../lib/db";
import { jsonList } from "../lib/format";

export const RUN_STATUSES = ["running", "ok", "partial", "failed", "skipped"] as const;

export const runFilterSchema = z.object({
  account: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional().catch(undefined)),
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(RUN_STATUSES).optional().catch(undefined)),
  before: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional().catch(undefined)),
});
export type RunFilter = z.infer<typeof runFilterSchema>;

/** A page of runs, newest first (keyset on id). */
export async function listRunsPage(db: Db, f: RunFilter, take = 50) {
  const rows = await db.crawlRun.findMany({
    where: { ...(f.account ? { accountId: f.account } : {}), ...(f.status ? { status: f.status } : {}), ...(f.before ? { id: { lt: f.before } } : {}) },
    orderBy: { id: "desc" },
    take: take + 1,
    include: { account: { select: { id: true, name: true, platform: true } } },
  });
  return { rows: rows.slice(0, take), next: rows.length > take ? rows[take - 1]!.id : null };
}

/** A field the crawler could not read while it still stored the item (CrawlRun.warnings). */
export interface RunWarningRow {
  at?: string;
  url?: string;
  field?: string;
  /** The raw text as crawled: hostile, shown as text only. */
  raw?: string;
  reason?: string;
}

/** The stored warnings as a list; a malformed entry becomes empty fields, never an error. */
export function runWarnings(json: string): RunWarningRow[] {
  // Numbers and booleans read as text; objects and arrays have no text of their own.
  const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);
  return jsonList<Record<string, unknown>>(json)
    .filter((w) => w !== null && typeof w === "object")
    .map((w) => {
      // A time that does not parse is dropped (the page would fail formatting it).
      const at = str(w.at);
      return { at: at && !Number.isNaN(Date.parse(at)) ? at : undefined, url: str(w.url), field: str(w.field), raw: str(w.raw), reason: str(w.reason) };
    });
}

/** One run with its account, errors, warnings and notifications. */
export async function getRun(db: Db, id: number) {
  const run = await db.crawlRun.findUnique({
    where: { id },
    include: {
      account: { select: { id: true, name: true, platform: true, entryUrl: true } },
      notifications: { include: { topic: { select: { name: true } } }, orderBy: { id: "asc" } },
    },
  });
  if (!run) return null;
  const errors = jsonList<{ at?: string; url?: string; kind?: string; reason?: string }>(run.errors);
  const seconds = run.finishedAt ? (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000 : (Date.now() - run.startedAt.getTime()) / 1000;
  const pages = run.pagesList + run.pagesItem + run.pagesOther;
  return { ...run, errorList: errors, warningList: runWarnings(run.warnings), seconds, pages, pagesPerMinute: seconds > 0 ? (pages * 60) / seconds : 0 };
}
export type RunDetail = NonNullable<Awaited<ReturnType<typeof getRun>>>;

/** What is crawling right now and what is waiting; `stamp` changes whenever either does. */
export async function liveStatus(db: Db) {
  const [running, queued, last] = await Promise.all([
    db.crawlRun.findMany({
      where: { status: "running" },
      orderBy: { id: "asc" },
      select: {
        id: true,
        accountId: true,
        startedAt: true,
        pagesList: true,
        pagesItem: true,
        pagesOther: true,
        newPosts: true,
        changedPosts: true,
        errorCount: true,
        account: { select: { name: true, platform: true } },
      },
    }),
    db.account.findMany({ where: { crawlRequestedAt: { not: null } }, select: { id: true, name: true, crawlRequestedAt: true } }),
    db.crawlRun.findFirst({ orderBy: { id: "desc" }, select: { id: true, status: true } }),
  ]);
  const stamp = [running.map((r) => r.id).join(","), queued.map((q) => q.id).join(","), last ? `${last.id}:${last.status}` : ""].join("|");
  return { running, queued, stamp };
}
export type LiveStatus = Awaited<ReturnType<typeof liveStatus>>;
