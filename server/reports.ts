/**
 * The figures of a daily or weekly report (日报 / 周报): what happened in one period, for all
 * topics or one. Plain data, the same on SQLite and PostgreSQL (Prisma queries only, every one on an
 * indexed column); server/report-html.ts words it in the reader's language and
 * server/report-pdf.ts prints it.
 *
 * Periods are Asia/Shanghai calendar days (lib/time.ts): a daily report covers one day, a weekly
 * report the seven days ending on its date. Without a date, the last full day (yesterday): a
 * report sent in the morning covers the day before, and a weekly one sent on Monday the week before.
 */
import { topicChoices } from "./choices";
import type { Db } from "../lib/db";
import { z } from "zod";
import { parseJsonColumn } from "../lib/json-column";
import { ValidationError } from "../lib/validation";
import { shanghaiDay, shanghaiDayStart } from "../lib/time";
import { addDays } from "../lib/charts/series";

/** A JSON column of words (keywords, platform ids). */
const stringArray = z.array(z.string());

/** How long a report looks back. */
export type ReportPeriod = "day" | "week";
export const REPORT_PERIODS: readonly ReportPeriod[] = ["day", "week"];

/** Incidents listed in the "top incidents" section. */
export const REPORT_TOP_INCIDENTS = 10;

/** Incident states a report lists: candidates are not incidents yet, dismissed and merged ones are gone. */
const LISTED_STATUSES = ["open", "handled"];

/** What a report is asked for. */
export interface ReportRequest {
  period: ReportPeriod;
  /** The last day covered, "2026-12-02" (Asia/Shanghai). @default yesterday */
  date?: string;
  /** Only this topic; null or absent: all topics. */
  topicId?: number | null;
}

/** One incident of the top list. */
export interface ReportIncident {
  id: number;
  title: string;
  status: string;
  heat: number;
  bursting: boolean;
  keywords: string[];
  platforms: string[];
  size: number;
  flaggedCount: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** One bucket of the trend: an hour of a daily report, a day of a weekly one. */
export interface ReportBucket {
  /** "2026-12-02" for a day, "2026-12-02T14" for an hour (Asia/Shanghai). */
  key: string;
  /** Posts and replies published in it (every platform, every topic: the volume the flags stand in). */
  posts: number;
  /** Flags raised in it (of the topic, or of every topic). */
  flags: number;
}

/** One topic's flags in the period (the all-topics report's table). */
export interface ReportTopicRow {
  topicId: number;
  name: string;
  newFlags: number;
  confirmed: number;
  dismissed: number;
}

/** Every figure of one report. */
export interface ReportData {
  period: ReportPeriod;
  /** First and last day covered (Asia/Shanghai), and the instants that bound them [from, to). */
  firstDay: string;
  lastDay: string;
  from: Date;
  to: Date;
  topic: { id: number; name: string } | null;
  /** When the figures were read. */
  generatedAt: Date;
  summary: {
    posts: number;
    newFlags: number;
    /** Flags reviewed in the period, by decision. */
    confirmedFlags: number;
    dismissedFlags: number;
    /** Flags still waiting for a review when the report was made. */
    openFlags: number;
    /** Incidents first seen in the period (open or handled now). */
    newIncidents: number;
    /** Incidents a reviewer marked handled in the period. */
    handledIncidents: number;
    /** Incidents the burst model calls bursting now, among those active in the period. */
    burstingIncidents: number;
  };
  /** The hottest incidents active in the period, hottest first. */
  topIncidents: ReportIncident[];
  trend: ReportBucket[];
  /** Per topic (all-topics report only; empty for one topic's report). */
  topics: ReportTopicRow[];
}

/**
 * A report's request did not make sense (a bad date, an unknown topic): a ValidationError, so the
 * CLI prints its one line and a route handler answers 400 (lib/http.ts).
 */
export class ReportRequestError extends ValidationError {
  constructor(message: string) {
    super(message, {});
  }
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written "YYYY-MM-DD". */
export function isReportDay(day: string): boolean {
  if (!DAY_RE.test(day)) return false;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

/** The default last day of a report made at `now`: yesterday in Asia/Shanghai. */
export function defaultReportDay(now = new Date()): string {
  return addDays(shanghaiDay(now), -1);
}

/** The days a report covers, oldest first. */
export function reportDays(period: ReportPeriod, lastDay: string): string[] {
  const n = period === "day" ? 1 : 7;
  return Array.from({ length: n }, (_, i) => addDays(lastDay, i - n + 1));
}

/**
 * Read every figure of a report.
 * @throws ReportRequestError for a malformed date or an unknown topic
 */
export async function reportData(db: Db, req: ReportRequest, now = new Date()): Promise<ReportData> {
  const lastDay = req.date ?? defaultReportDay(now);
  if (!isReportDay(lastDay)) throw new ReportRequestError(`date must be a day written YYYY-MM-DD (got ${lastDay})`);
  const days = reportDays(req.period, lastDay);
  const from = shanghaiDayStart(days[0]!);
  const to = shanghaiDayStart(addDays(lastDay, 1));

  let topic: ReportData["topic"] = null;
  if (req.topicId !== undefined && req.topicId !== null) {
    topic = await db.topic.findUnique({ where: { id: req.topicId }, select: { id: true, name: true } });
    if (!topic) throw new ReportRequestError(`no topic with id ${req.topicId}`);
  }
  const topicWhere = topic ? { topicId: topic.id } : {};
  const inPeriod = { gte: from, lt: to };
  // Active in the period: first seen before its end and last seen after its start.
  const activeIncidents = { status: { in: LISTED_STATUSES }, firstSeenAt: { lt: to }, lastSeenAt: { gte: from }, ...topicWhere };

  const [posts, newFlags, confirmedFlags, dismissedFlags, openFlags, newIncidents, handledIncidents, burstingIncidents, top, trend, topics] = await Promise.all(
    [
      db.post.count({ where: { publishedAt: inPeriod } }),
      db.flag.count({ where: { createdAt: inPeriod, ...topicWhere } }),
      db.flag.count({ where: { reviewedAt: inPeriod, status: "confirmed", ...topicWhere } }),
      db.flag.count({ where: { reviewedAt: inPeriod, status: "dismissed", ...topicWhere } }),
      db.flag.count({ where: { status: "open", createdAt: { lt: to }, ...topicWhere } }),
      db.incident.count({ where: { status: { in: LISTED_STATUSES }, firstSeenAt: inPeriod, ...topicWhere } }),
      db.incident.count({ where: { handledAt: inPeriod, status: "handled", ...topicWhere } }),
      db.incident.count({ where: { ...activeIncidents, bursting: true } }),
      db.incident.findMany({
        where: activeIncidents,
        orderBy: [{ heat: "desc" }, { id: "asc" }],
        take: REPORT_TOP_INCIDENTS,
        select: {
          id: true,
          title: true,
          status: true,
          heat: true,
          bursting: true,
          keywords: true,
          platforms: true,
          size: true,
          flaggedCount: true,
          firstSeenAt: true,
          lastSeenAt: true,
        },
      }),
      trendOf(db, req.period, days, topic?.id ?? null),
      topic ? Promise.resolve([]) : topicRows(db, from, to),
    ],
  );

  return {
    period: req.period,
    firstDay: days[0]!,
    lastDay,
    from,
    to,
    topic,
    generatedAt: now,
    summary: { posts, newFlags, confirmedFlags, dismissedFlags, openFlags, newIncidents, handledIncidents, burstingIncidents },
    topIncidents: top.map((i) => ({
      ...i,
      keywords: parseJsonColumn(i.keywords, stringArray, []),
      platforms: parseJsonColumn(i.platforms, stringArray, []),
    })),
    trend,
    topics,
  };
}

/**
 * Posts and flags per hour (daily report) or per day (weekly report). One count per bucket on the
 * indexed time columns: 24 or 7 small queries, whatever the number of posts, on either database
 * (bucketing by hour in SQL differs between SQLite and PostgreSQL).
 */
async function trendOf(db: Db, period: ReportPeriod, days: readonly string[], topicId: number | null): Promise<ReportBucket[]> {
  const buckets: { key: string; from: Date; to: Date }[] =
    period === "day"
      ? Array.from({ length: 24 }, (_, h) => {
          const start = new Date(shanghaiDayStart(days[0]!).getTime() + h * 3_600_000);
          return { key: `${days[0]}T${String(h).padStart(2, "0")}`, from: start, to: new Date(start.getTime() + 3_600_000) };
        })
      : days.map((d) => ({ key: d, from: shanghaiDayStart(d), to: shanghaiDayStart(addDays(d, 1)) }));
  return Promise.all(
    buckets.map(async (b) => {
      const range = { gte: b.from, lt: b.to };
      const [posts, flags] = await Promise.all([
        db.post.count({ where: { publishedAt: range } }),
        db.flag.count({ where: { createdAt: range, ...(topicId !== null ? { topicId } : {}) } }),
      ]);
      return { key: b.key, posts, flags };
    }),
  );
}

/** New, confirmed and dismissed flags per topic in [from, to): topics with none are left out. */
async function topicRows(db: Db, from: Date, to: Date): Promise<ReportTopicRow[]> {
  const [created, reviewed, topics] = await Promise.all([
    db.flag.groupBy({ by: ["topicId"], where: { createdAt: { gte: from, lt: to } }, _count: { _all: true } }),
    db.flag.groupBy({
      by: ["topicId", "status"],
      where: { reviewedAt: { gte: from, lt: to }, status: { in: ["confirmed", "dismissed"] } },
      _count: { _all: true },
    }),
    db.topic.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  const rows = topics.map((t) => ({
    topicId: t.id,
    name: t.name,
    newFlags: created.find((c) => c.topicId === t.id)?._count._all ?? 0,
    confirmed: reviewed.find((r) => r.topicId === t.id && r.status === "confirmed")?._count._all ?? 0,
    dismissed: reviewed.find((r) => r.topicId === t.id && r.status === "dismissed")?._count._all ?? 0,
  }));
  return rows.filter((r) => r.newFlags + r.confirmed + r.dismissed > 0).sort((a, b) => b.newFlags - a.newFlags || a.name.localeCompare(b.name));
}

/** A topic named by id or by name, as the CLI and the dashboard take it; null when none matches. */
export async function findReportTopic(db: Db, idOrName: string): Promise<{ id: number; name: string } | null> {
  const byName = await db.topic.findUnique({ where: { name: idOrName }, select: { id: true, name: true } });
  if (byName) return byName;
  if (!/^\d+$/.test(idOrName)) return null;
  return db.topic.findUnique({ where: { id: Number(idOrName) }, select: { id: true, name: true } });
}

/** The topics a report can be limited to, by name (the reports page's choice). */
export function reportTopicChoices(db: Db): Promise<{ id: number; name: string }[]> {
  return topicChoices(db);
}
