import type { Command } from "commander";
import type { Db } from "../../lib/db";
import type { RunningWorker } from "../queue/pg-worker";
import type { RunSummary } from "../worker";
import { action, intOption, UserInputError } from "./util";

/**
 * The crawler (fetching, parsing, storing, classifying), loaded once a command has work for it:
 * `crawl once` with no accounts, like `--help`, never loads cheerio, nodejieba, Playwright or pg-boss.
 */
async function loadCrawler() {
  const [config, runtime, worker, inProcess, runs, fetch, jobs] = await Promise.all([
    import("../../lib/config"),
    import("../runtime"),
    import("../worker"),
    import("../queue/in-process"),
    import("../runs"),
    import("../fetch"),
    import("../jobs"),
  ]);
  return { ...config, ...runtime, ...worker, ...inProcess, ...runs, ...fetch, ...jobs };
}

/**
 * The crawler, the scheduler and the crawl queue with the other jobs' handlers: what `start`
 * needs and `crawl once` does without (node-cron, the cron parser, discovery, training).
 */
async function loadScheduler() {
  const [crawler, crawlJobs, scheduler] = await Promise.all([loadCrawler(), import("../queue/crawl-jobs"), import("../scheduler")]);
  return { ...crawler, ...crawlJobs, ...scheduler };
}

/** The PostgreSQL queue (pg-boss) and its workers, loaded only on PostgreSQL. */
async function loadPgQueue() {
  const [boss, worker, politeness] = await Promise.all([import("../queue/pg-boss"), import("../queue/pg-worker"), import("../fetch/pg-politeness")]);
  return { ...boss, ...worker, ...politeness };
}

/** The host (with a non-default port) of an entry URL, as politeness counts hosts; undefined when it does not parse. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** One line per finished account run. */
export function formatSummary(name: string, s: RunSummary): string {
  const errs = s.errors.length ? `, ${s.errors.length} errors (last: ${s.errors.at(-1)!.reason})` : "";
  return (
    `account ${s.accountId} ${name}: ${s.status} in ${(s.durationMs / 1000).toFixed(1)}s — ` +
    `${s.pagesList} list + ${s.pagesItem} item pages, ${s.newPosts} new, ${s.changedPosts} changed, ` +
    `${s.unchangedPosts} unchanged, ${s.blocks} blocks${errs}`
  );
}

/** `campuswatch crawl once`, `campuswatch start`. */
export function registerCrawlCommands(program: Command) {
  const crawl = program.command("crawl").description("crawl accounts");
  crawl
    .command("once")
    .description("crawl every enabled account (or one) once, print a summary per account")
    .option("--account <id>", "only this account (even if disabled)", intOption("--account", 1))
    .option("--host-delay-ms <n>", "minimum delay between requests to one host", intOption("--host-delay-ms", 0))
    .option("--concurrency <n>", "accounts crawled in parallel", intOption("--concurrency", 1))
    .option("--quiet", "only the summary lines")
    .action(
      action(async (o: { account?: number; hostDelayMs?: number; concurrency?: number; quiet?: boolean }) => {
        const [{ db, dialectOf }, { readAccounts }] = await Promise.all([import("../../lib/db"), import("../account-rows")]);
        const accounts = await readAccounts(db, o.account ? { id: o.account } : { enabled: true });
        if (o.account && accounts.length === 0) throw new UserInputError(`no account with id ${o.account}`);
        if (accounts.length === 0) {
          console.log("no enabled accounts: add one with `campuswatch accounts add URL`");
          return;
        }
        const names = new Map(accounts.map((a) => [a.id, a.name]));
        const accountHosts = new Map(accounts.map((a) => [a.id, hostOf(a.entryUrl)]));
        const { databaseUrl, createServices, createInProcessQueue, crawlHandler, isSkipped, createJobRunner, activeJob, crawlerConfig, closeSharedBrowser } =
          await loadCrawler();
        // On PostgreSQL, stay polite towards hosts that running workers are crawling too.
        const hosts = dialectOf(db) === "postgresql" ? new (await loadPgQueue()).PgHostScheduler(databaseUrl()) : undefined;
        const services = createServices({
          db,
          hostDelayMs: o.hostDelayMs,
          hostGate: hosts,
          onProgress: o.quiet ? undefined : (m) => console.error(`  ${m}`),
        });
        // The crawl handler records a crawl that threw on its run (and says so here); this only sets the exit code.
        const crawl = crawlHandler(services, { log: (m) => console.error(m) });
        const runs: number[] = [];
        const queue = createInProcessQueue(
          async (job) => {
            if (!o.quiet) console.error(`crawling account ${job.accountId} ${names.get(job.accountId)}…`);
            const s = await crawl(job);
            if (isSkipped(s)) return;
            runs.push(s.runId);
            console.log(formatSummary(names.get(job.accountId) ?? "", s));
          },
          {
            concurrency: o.concurrency ?? crawlerConfig().concurrency,
            // Accounts on idle hosts first: a second account of a busy host waits for its turns.
            groupOf: (job) => accountHosts.get(job.accountId),
            onError: () => {
              process.exitCode = 1;
            },
          },
        );
        for (const a of accounts) queue.enqueue({ accountId: a.id, trigger: "cli" });
        await queue.onIdle();
        await services.flush();
        await hosts?.close();
        await closeSharedBrowser();
        // The runs' notification jobs and the archive's retention, run here as jobs (no scheduler
        // may be running to take them); a job a scheduler or worker already took is theirs.
        const runner = createJobRunner({ db });
        for (const runId of runs) {
          const job = await activeJob(db, `notify:run:${runId}`);
          if (job) await runner.run(job.id);
        }
        await runner.runHere({ kind: "pruneArchive" });
      }),
    );

  crawl
    .command("enqueue")
    .description("PostgreSQL: queue a crawl of every enabled account (or one) for the workers")
    .option("--account <id>", "only this account (even if disabled)", intOption("--account", 1))
    .action(
      action(async (o: { account?: number }) => {
        const { db, dialectOf } = await import("../../lib/db");
        if (dialectOf(db) !== "postgresql") {
          throw new UserInputError("crawl enqueue needs PostgreSQL (DATABASE_URL=postgresql://…); on SQLite use `campuswatch crawl once`");
        }
        const accounts = o.account
          ? await db.account.findMany({ where: { id: o.account }, select: { id: true } })
          : await db.account.findMany({ where: { enabled: true }, select: { id: true }, orderBy: { id: "asc" } });
        if (o.account && accounts.length === 0) throw new UserInputError(`no account with id ${o.account}`);
        const [{ databaseUrl }, { startBoss, createPgBossQueue }] = await Promise.all([import("../../lib/config"), loadPgQueue()]);
        const boss = await startBoss(databaseUrl(), { name: "campuswatch enqueue", supervise: false });
        try {
          const queue = createPgBossQueue(boss);
          let queued = 0;
          for (const a of accounts) if (await queue.enqueue({ accountId: a.id, trigger: "manual" })) queued++;
          console.log(`queued ${queued} of ${accounts.length} accounts${queued < accounts.length ? " (the others already have a crawl waiting)" : ""}`);
        } finally {
          await boss.stop({ graceful: false, wait: true });
        }
      }),
    );

  program
    .command("start")
    .description("run the crawl scheduler in the foreground until SIGINT/SIGTERM")
    .option("--host-delay-ms <n>", "minimum delay between requests to one host", intOption("--host-delay-ms", 0))
    .option("--concurrency <n>", "accounts crawled in parallel", intOption("--concurrency", 1))
    .option("--poll-ms <n>", "how often account changes are picked up", intOption("--poll-ms", 100), 5000)
    .option("--workers <n>", "PostgreSQL: crawl workers to run inside this process too (0: only enqueue)", intOption("--workers", 0), 0)
    .action(
      action(async (o: { hostDelayMs?: number; concurrency?: number; pollMs: number; workers: number }) => {
        const running = await startScheduler(o);
        await running.done;
      }),
    );
}

/**
 * Start the scheduler. On SQLite crawl jobs run in this process (in-process queue); on
 * PostgreSQL the scheduler only enqueues to pg-boss and `campuswatch worker` processes crawl
 * (plus `workers` of them inside this process, if asked). Resolves `done` after SIGINT/SIGTERM
 * once in-flight page writes have finished.
 *
 * Posts an earlier process stored but never classified are classified by a job asked for at
 * start, and a promise rejection nobody caught is logged instead of ending the process.
 */
export async function startScheduler(o: { hostDelayMs?: number; concurrency?: number; pollMs?: number; workers?: number; log?: (m: string) => void }) {
  const log = o.log ?? ((m: string) => console.log(`[scheduler] ${m}`));
  const [{ db, dialectOf }, crawler] = await Promise.all([import("../../lib/db"), loadScheduler()]);
  const { logUnhandledRejections, createServices, createCrawlQueue, crawlerConfig, Scheduler, closeSharedBrowser } = crawler;
  // Always to stderr, even when the caller silences the log: it means a bug to fix.
  logUnhandledRejections((m) => console.error(`[scheduler] ${m}`));
  const reportSchedule = await loadReportSchedule();
  if (dialectOf(db) === "postgresql") return startPgScheduler({ ...o, log, reportSchedule }, db, crawler);
  const abort = new AbortController();
  const services = createServices({ db, hostDelayMs: o.hostDelayMs, signal: abort.signal });
  const queue = createCrawlQueue(services, {
    concurrency: o.concurrency ?? crawlerConfig().concurrency,
    log,
    onSummary: (job, s) => log(formatSummary(`(${job.trigger})`, s)),
  });
  // The start-up catch-up classification and the archive's retention (at start, then hourly) are
  // jobs the scheduler asks for; this queue runs them.
  const scheduler = new Scheduler({
    db,
    queue,
    pollMs: o.pollMs,
    log,
    inProcess: true,
    aliveJobs: () => queue.runner.active(),
    archivePruneCron: ARCHIVE_PRUNE_CRON,
    reportSchedule,
  });
  await scheduler.start();
  log(`running ${scheduler.scheduled().length} accounts; Ctrl-C to stop`);
  const done = new Promise<void>((resolve) => {
    const stop = async (signal: string) => {
      log(`${signal}: stopping, letting in-flight writes finish…`);
      scheduler.stop();
      abort.abort();
      await queue.close();
      await services.flush();
      await closeSharedBrowser();
      log("stopped");
    };
    stopOnSignals(stop, log, resolve, crawler.reasonOf);
  });
  return { scheduler, queue, done };
}

/**
 * The report e-mail settings (lib/report-schedule.ts), refused with the variable's name when wrong,
 * and this process made able to run `report` jobs (the sender words reports, which the crawler
 * layer cannot: crawler/jobs/reports.ts).
 */
export async function loadReportSchedule() {
  const [{ reportScheduleFromEnv }, { setReportSender }, { sendReportMail }] = await Promise.all([
    import("../../lib/report-schedule"),
    import("../jobs/reports"),
    import("../../server/report-mail"),
  ]);
  setReportSender((db, spec, schedule) => sendReportMail(db, spec, schedule));
  return reportScheduleFromEnv();
}

/** When the raw archive's retention is applied: hourly, on the hour (and when the scheduler starts). */
const ARCHIVE_PRUNE_CRON = "0 * * * *";

/** The PostgreSQL scheduler: enqueue only; optional embedded workers. */
async function startPgScheduler(
  o: {
    hostDelayMs?: number;
    concurrency?: number;
    pollMs?: number;
    workers?: number;
    log: (m: string) => void;
    reportSchedule: Awaited<ReturnType<typeof loadReportSchedule>>;
  },
  db: Db,
  crawler: Awaited<ReturnType<typeof loadScheduler>>,
) {
  const { log } = o;
  const { databaseUrl, Scheduler, crawlerConfig, reasonOf } = crawler;
  const { startBoss, createPgBossQueue, startWorker } = await loadPgQueue();
  const url = databaseUrl();
  const boss = await startBoss(url, { name: "campuswatch scheduler" });
  const queue = createPgBossQueue(boss);
  const workers: RunningWorker[] = [];
  const aliveJobs = () => new Set(workers.flatMap((w) => [...w.activeJobs()]));
  const scheduler = new Scheduler({ db, queue, pollMs: o.pollMs, log, aliveJobs, reportSchedule: o.reportSchedule });
  await scheduler.start();
  for (let i = 0; i < (o.workers ?? 0); i++) {
    workers.push(
      await startWorker({ db, url, concurrency: o.concurrency ?? crawlerConfig().concurrency, hostDelayMs: o.hostDelayMs, log: (m) => log(`worker: ${m}`) }),
    );
  }
  log(`running ${scheduler.scheduled().length} accounts on PostgreSQL (pg-boss queue "crawl", ${workers.length} workers in this process); Ctrl-C to stop`);
  const done = new Promise<void>((resolve) => {
    const stop = async (signal: string) => {
      log(`${signal}: stopping…`);
      scheduler.stop();
      await Promise.all(workers.map((w) => w.stop()));
      await boss.stop({ graceful: true, wait: true });
      log("stopped");
    };
    stopOnSignals(stop, log, resolve, reasonOf);
  });
  return { scheduler, queue, done };
}

/** On SIGINT or SIGTERM run `stop` once, log a failure of it (`reasonOf`: crawler/runs.ts) instead of crashing, then `resolve`. */
function stopOnSignals(stop: (signal: string) => Promise<void>, log: (m: string) => void, resolve: () => void, reasonOf: (e: unknown) => string): void {
  const onSignal = (signal: string) =>
    void stop(signal)
      .catch((e: unknown) => log(`stopping failed: ${reasonOf(e)}`))
      .finally(resolve);
  process.once("SIGINT", () => onSignal("SIGINT"));
  process.once("SIGTERM", () => onSignal("SIGTERM"));
}
