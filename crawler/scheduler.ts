/**
 * The scheduler only decides *when*: node-cron runs each enabled account on its own cron
 * expression (Asia/Shanghai) and hands `{ accountId }` to a queue. It re-reads the accounts every
 * `pollMs`, so changes made in the dashboard or the CLI (another process) apply without a restart,
 * and picks up "crawl now" requests the same way. Every second it also hands the jobs the
 * dashboard or the CLI queued (discovery, training, …: crawler/jobs/) to the queue. Its own
 * housekeeping is jobs too: the start-up catch-up classification, the daily training and the
 * hourly archive pruning are asked for as job rows, never run as timers of their own.
 *
 * Nothing it starts may reject unhandled (Node would end the process): every promise is caught
 * where it starts, logged, and when it concerns a crawl, written on the account's runs.
 */
import cron, { type ScheduledTask } from "node-cron";
import type { Db } from "../lib/db";
import { TIME_ZONE, cronProblem, nextRunTimes } from "../lib/validation";
import { scaleOutConfig } from "../lib/config";
import {
  dispatchQueuedJobs,
  forgetDispatches,
  reapDeadJobs,
  requestArchivePrune,
  requestCatchUp,
  requestDailyRetrains,
  requestIncidentCheck,
  type CrawlJob,
} from "./jobs";
import type { JobQueue } from "./queue/in-process";
import { createSkippedRun, reasonOf, recordSkippedRun } from "./runs";
import { updateAccountRow } from "./account-rows";
import { reportCrons, type ReportSchedule } from "../lib/report-schedule";
import { requestScheduledReport } from "./jobs/reports";
import { adaptiveTickCron, chooseInterval, cronIntervalS, loadAdaptiveStats, type AdaptiveStats } from "./adaptive-interval";

export interface SchedulerOptions {
  db: Db;
  queue: JobQueue;
  /** How often account changes and "crawl now" requests are picked up. @default 5000 */
  pollMs?: number;
  /**
   * How often queued jobs with a row (discovery, training, re-scoring, notifications) are handed to
   * the queue and jobs of dead processes reaped. A dashboard click waits at most this long. @default 1000
   */
  jobPollMs?: number;
  /** A running job whose heartbeat is older than this is dead. @default CAMPUSWATCH_WORKER_DEAD_MS or 30000 */
  deadAfterMs?: number;
  /** Ids of the jobs this process is running: alive however late their heartbeat (a long synchronous step). */
  aliveJobs?: () => ReadonlySet<number>;
  /** The queue lives in this process (SQLite): hand-overs of an earlier process died with it and are forgotten at start. */
  inProcess?: boolean;
  /**
   * When topics that learned from reviews are trained in full (cron, Asia/Shanghai); null: never.
   * @default "30 3 * * *" (03:30, when few people review)
   */
  dailyRetrainCron?: string | null;
  /** Ask at start for the classification of posts earlier processes left unclassified (a `catchUp` job). @default true */
  catchUp?: boolean;
  /**
   * When the raw archive's retention is applied (a `pruneArchive` job, also asked for at start);
   * null: never. Only for a scheduler whose queue runs in this process, on this machine's archive.
   * @default null
   */
  archivePruneCron?: string | null;
  /**
   * When the periodic incident check runs (an `incidents` job: heat decay, alerts and updates due,
   * held messages whose quiet hours ended); null: never. @default every ten minutes
   */
  incidentCron?: string | null;
  /**
   * When the daily and weekly reports are e-mailed (a `report` job each, crawler/jobs/reports.ts);
   * null: never. The caller reads it from the environment (lib/report-schedule.ts).
   */
  reportSchedule?: ReportSchedule | null;
  /** The cron an adaptive account ticks on, from its minimum interval. @default adaptiveTickCron */
  adaptiveTickCron?: (minS: number) => string;
  log?: (message: string) => void;
}

interface Entry {
  /** What the task was made from: the cron, and for an adaptive account its bounds too. */
  key: string;
  task: ScheduledTask;
  /** Set for an adaptive account: its base cron and bounds (its task ticks at the minimum). */
  adaptive?: { cron: string; minS: number; maxS: number };
}

/** An account as the scheduler reads it. */
interface AccountSchedule {
  id: number;
  cron: string;
  enabled: boolean;
  crawlRequestedAt: Date | null;
  name: string;
  adaptive: boolean;
  minIntervalS: number | null;
  maxIntervalS: number | null;
}

/** How long the adaptive accounts' statistics are reused: a grouped query a minute, whatever their number. */
const ADAPTIVE_STATS_MS = 60_000;

/** Runs enabled accounts on their schedules until {@link Scheduler.stop}. */
export class Scheduler {
  private readonly entries = new Map<number, Entry>();
  /** Accounts whose stored cron expression is invalid, so each refresh does not report it again. */
  private readonly invalid = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;
  private jobTimer: NodeJS.Timeout | undefined;
  private dailyTask: ScheduledTask | undefined;
  private pruneTask: ScheduledTask | undefined;
  private incidentTask: ScheduledTask | undefined;
  private reportTasks: ScheduledTask[] = [];
  private dispatching = false;
  private adaptiveStats: { at: number; ids: string; stats: AdaptiveStats } | null = null;
  private readonly log: (m: string) => void;

  constructor(private readonly opts: SchedulerOptions) {
    this.log = opts.log ?? (() => undefined);
  }

  /** Schedule every enabled account and start watching for changes. */
  async start(): Promise<void> {
    if (this.opts.inProcess) await forgetDispatches(this.opts.db);
    // Housekeeping is asked for as jobs (crawler/jobs/housekeeping.ts), handed over below like any other.
    if (this.opts.catchUp !== false) await requestCatchUp(this.opts.db);
    if (this.opts.archivePruneCron) await requestArchivePrune(this.opts.db);
    await this.refresh();
    // A queue refusing a job at start (its database restarting) must not stop the scheduler: the next pass tries again.
    await this.dispatchJobs().catch((e: unknown) => this.log(`job dispatch failed: ${reasonOf(e)}`));
    this.timer = setInterval(() => this.background("scheduler refresh", this.refresh()), this.opts.pollMs ?? 5000);
    this.jobTimer = setInterval(() => this.background("job dispatch", this.dispatchJobs()), this.opts.jobPollMs ?? 1000);
    const daily = this.opts.dailyRetrainCron === undefined ? "30 3 * * *" : this.opts.dailyRetrainCron;
    if (daily) {
      this.dailyTask = cron.schedule(daily, () => this.background("daily training", this.dailyRetrain()), { timezone: TIME_ZONE, name: "daily-retrain" });
    }
    const prune = this.opts.archivePruneCron;
    if (prune) {
      this.pruneTask = cron.schedule(prune, () => this.background("archive pruning", requestArchivePrune(this.opts.db)), {
        timezone: TIME_ZONE,
        name: "archive-prune",
      });
    }
    const incidents = this.opts.incidentCron === undefined ? "*/10 * * * *" : this.opts.incidentCron;
    if (incidents) {
      this.incidentTask = cron.schedule(incidents, () => this.background("incident check", requestIncidentCheck(this.opts.db)), {
        timezone: TIME_ZONE,
        name: "incident-check",
      });
    }
    if (this.opts.reportSchedule) {
      const crons = reportCrons(this.opts.reportSchedule);
      for (const period of ["day", "week"] as const) {
        const expr = period === "day" ? crons.daily : crons.weekly;
        if (!expr) continue;
        this.reportTasks.push(
          cron.schedule(expr, () => this.background(`the ${period} report`, this.requestReport(period)), { timezone: TIME_ZONE, name: `report-${period}` }),
        );
      }
    }
  }

  /** Ask for the report of the period ending yesterday (crawler/jobs/reports.ts); true when a job was created. */
  async requestReport(period: "day" | "week", now = new Date()): Promise<boolean> {
    const asked = await requestScheduledReport(this.opts.db, period, now);
    if (asked) this.log(`the ${period} report was asked for`);
    return asked;
  }

  /** Ask for the daily full training of topics that learned from reviews since their last one (crawler/jobs/daily.ts). */
  async dailyRetrain(): Promise<number[]> {
    const asked = await requestDailyRetrains(this.opts.db);
    if (asked.length > 0) this.log(`daily training asked for topics ${asked.join(", ")}`);
    return asked;
  }

  /**
   * Reap jobs whose process died (queued again or failed, crawler/jobs/runner.ts), then hand the
   * queued ones to the queue. One pass at a time: a slow database must not pile passes up.
   */
  async dispatchJobs(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      const { db, queue } = this.opts;
      await reapDeadJobs(db, { deadAfterMs: this.opts.deadAfterMs ?? scaleOutConfig().deadAfterMs, alive: this.opts.aliveJobs?.(), log: this.log });
      const n = await dispatchQueuedJobs(db, (item) => queue.enqueue(item));
      if (n > 0) this.log(`handed ${n} queued job${n === 1 ? "" : "s"} to the queue`);
    } finally {
      this.dispatching = false;
    }
  }

  /** Reconcile cron tasks with the accounts table and enqueue "crawl now" requests. */
  async refresh(): Promise<void> {
    const { db } = this.opts;
    const accounts = await db.account.findMany({
      select: { id: true, cron: true, enabled: true, crawlRequestedAt: true, name: true, adaptive: true, minIntervalS: true, maxIntervalS: true },
    });
    const seen = new Set<number>();
    for (const a of accounts) {
      seen.add(a.id);
      // One account's failure (a row deleted meanwhile, a refused enqueue) must not stop the others.
      try {
        await this.reconcile(a);
      } catch (e) {
        this.log(`account ${a.id}: ${reasonOf(e)}`);
      }
    }
    for (const id of [...this.entries.keys()]) if (!seen.has(id)) this.unschedule(id, "removed");
  }

  private async reconcile(a: AccountSchedule) {
    const current = this.entries.get(a.id);
    const adaptive =
      a.adaptive && a.minIntervalS !== null && a.maxIntervalS !== null ? { cron: a.cron, minS: a.minIntervalS, maxS: a.maxIntervalS } : undefined;
    const key = adaptive ? `adaptive ${adaptive.minS}-${adaptive.maxS} ${a.cron}` : a.cron;
    if (!a.enabled) {
      if (current) this.unschedule(a.id, "disabled");
    } else if (!current || current.key !== key) {
      if (current) this.unschedule(a.id, "interval changed");
      await this.schedule(a.id, a.cron, a.name, adaptive);
    }
    if (a.crawlRequestedAt) {
      await updateAccountRow(this.opts.db, { where: { id: a.id }, data: { crawlRequestedAt: null } });
      await this.submitOrRecord({ accountId: a.id, trigger: "manual" });
    }
  }

  private async schedule(accountId: number, expr: string, name: string, adaptive?: Entry["adaptive"]) {
    const problem = cronProblem(expr);
    if (problem) {
      if (this.invalid.get(accountId) === expr) return;
      this.invalid.set(accountId, expr);
      // A bad expression in the database must not take the scheduler down; it is shown on the account.
      this.log(`account ${accountId}: not scheduled: ${problem}`);
      await updateAccountRow(this.opts.db, { where: { id: accountId }, data: { status: "error", lastError: `invalid cron: ${problem}` } });
      return;
    }
    this.invalid.delete(accountId);
    // An adaptive account ticks at its minimum interval; each tick runs it only when the interval
    // chosen for it (crawler/adaptive-interval.ts) has passed.
    const tickExpr = adaptive ? (this.opts.adaptiveTickCron ?? adaptiveTickCron)(adaptive.minS) : expr;
    try {
      const task = cron.schedule(tickExpr, () => this.background(`account ${accountId}: tick`, this.tick(accountId, expr)), {
        timezone: TIME_ZONE,
        name: `account-${accountId}`,
      });
      this.entries.set(accountId, { key: adaptive ? `adaptive ${adaptive.minS}-${adaptive.maxS} ${expr}` : expr, task, adaptive });
      if (!adaptive) this.background(`account ${accountId}: next run time`, this.updateNextRun(accountId, expr));
      this.log(`scheduled account ${accountId} (${name}) at "${expr}"${adaptive ? `, adaptive between ${adaptive.minS} s and ${adaptive.maxS} s` : ""}`);
    } catch (e) {
      this.log(`account ${accountId}: cannot schedule "${expr}": ${(e as Error).message}`);
      await updateAccountRow(this.opts.db, { where: { id: accountId }, data: { status: "error", lastError: `invalid cron: ${(e as Error).message}` } });
    }
  }

  private unschedule(accountId: number, why: string) {
    const e = this.entries.get(accountId);
    if (!e) return;
    this.background(
      `account ${accountId}: removing its cron task`,
      Promise.resolve().then(() => e.task.destroy()),
    );
    this.entries.delete(accountId);
    this.log(`unscheduled account ${accountId} (${why})`);
  }

  private async tick(accountId: number, expr: string) {
    const adaptive = this.entries.get(accountId)?.adaptive;
    if (adaptive) {
      if (await this.adaptiveDue(accountId, adaptive)) await this.submitOrRecord({ accountId, trigger: "schedule" });
      return;
    }
    await this.submitOrRecord({ accountId, trigger: "schedule" });
    await this.updateNextRun(accountId, expr);
  }

  /**
   * Whether an adaptive account's chosen interval has passed since its last run started; records
   * the interval, why, and the next run time on the account when they change.
   */
  private async adaptiveDue(accountId: number, a: NonNullable<Entry["adaptive"]>): Promise<boolean> {
    const { db } = this.opts;
    const now = new Date();
    const stats = await this.statsOfAdaptive(now);
    const { intervalS, reason } = chooseInterval({
      baseS: cronIntervalS(a.cron, now) || a.maxS,
      minS: a.minS,
      maxS: a.maxS,
      ratePerHour: stats.rates.get(accountId) ?? 0,
      refRatePerHour: stats.refRatePerHour,
      hot: stats.hot.get(accountId) ?? null,
    });
    const last = await db.crawlRun.findFirst({
      where: { accountId, status: { not: "skipped" } },
      orderBy: { startedAt: "desc" },
      select: { startedAt: true },
    });
    // A tick a little early still counts: ticks come on the minute, runs start a moment after.
    const due = !last || now.getTime() - last.startedAt.getTime() >= intervalS * 1000 - 5_000;
    const nextRunAt = new Date((due || !last ? now.getTime() : last.startedAt.getTime()) + intervalS * 1000);
    const reasonJson = JSON.stringify(reason);
    const row = await db.account.findUnique({ where: { id: accountId }, select: { adaptiveIntervalS: true, adaptiveReason: true } });
    if (due || row?.adaptiveIntervalS !== intervalS || row.adaptiveReason !== reasonJson) {
      await updateAccountRow(db, { where: { id: accountId }, data: { adaptiveIntervalS: intervalS, adaptiveReason: reasonJson, nextRunAt } });
    }
    return due;
  }

  /** The adaptive accounts' statistics, read again at most once a minute (or when the set of accounts changed). */
  private async statsOfAdaptive(now: Date): Promise<AdaptiveStats> {
    const ids = [...this.entries].filter(([, e]) => e.adaptive).map(([id]) => id);
    const key = ids.join(",");
    const cached = this.adaptiveStats;
    if (cached && cached.ids === key && now.getTime() - cached.at < ADAPTIVE_STATS_MS) return cached.stats;
    const stats = await loadAdaptiveStats(this.opts.db, ids, now);
    this.adaptiveStats = { at: now.getTime(), ids: key, stats };
    return stats;
  }

  /** {@link submit}, and when the queue itself fails, a skipped run saying why. Never throws. */
  private async submitOrRecord(job: CrawlJob): Promise<void> {
    try {
      await this.submit(job);
    } catch (e) {
      this.log(`account ${job.accountId}: could not queue the crawl: ${reasonOf(e)}`);
      await recordSkippedRun(this.opts.db, job.accountId, job.trigger, `could not queue the crawl: ${reasonOf(e)}`, this.log);
    }
  }

  /** Let `p` run on its own, logging its failure: nothing the scheduler starts may reject unhandled. */
  private background(what: string, p: Promise<unknown>): void {
    p.catch((e: unknown) => {
      try {
        this.log(`${what} failed: ${reasonOf(e)}`);
      } catch {
        // A failing logger must not turn a handled failure into an unhandled one.
      }
    });
  }

  /**
   * Enqueue a job. A tick that finds the account's previous run still going is skipped and
   * recorded as a "skipped" crawl run, so the dashboard shows that the interval is too short.
   */
  async submit(job: CrawlJob): Promise<boolean> {
    if (await this.opts.queue.enqueue(job)) return true;
    const now = new Date();
    await createSkippedRun(this.opts.db, job.accountId, job.trigger, "previous run still going", now);
    this.log(`account ${job.accountId}: previous run still going, tick skipped`);
    return false;
  }

  private async updateNextRun(accountId: number, expr: string) {
    const [next] = nextRunTimes(expr, 1);
    await updateAccountRow(this.opts.db, { where: { id: accountId }, data: { nextRunAt: next ?? null } });
  }

  /** Stop scheduling; running crawls are left to the queue's close(). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.jobTimer) clearInterval(this.jobTimer);
    for (const [what, task] of [
      ["the daily training task", this.dailyTask],
      ["the archive pruning task", this.pruneTask],
      ["the incident check task", this.incidentTask],
      ...this.reportTasks.map((t) => ["a report task", t] as const),
    ] as const) {
      if (task)
        this.background(
          `removing ${what}`,
          Promise.resolve().then(() => task.destroy()),
        );
    }
    for (const id of [...this.entries.keys()]) this.unschedule(id, "stopping");
  }

  /** Account ids with a cron task. */
  scheduled(): number[] {
    return [...this.entries.keys()];
  }
}
