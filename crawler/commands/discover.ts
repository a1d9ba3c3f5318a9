import fs from "node:fs";
import { InvalidArgumentError, type Command } from "commander";
import type { Db } from "../../lib/db";
import type { DiscoverySummary, RevisitSummary, StrategyName } from "../discover";
import type { JobSpec, JobView } from "../jobs";
import type { DiscoveryRefusal } from "../../server/discovery";
import { action, intOption, jobRefusal, listOption, loadDb, UserInputError } from "./util";

/**
 * crawler/discover's STRATEGIES (the order its reports use), spelled out so that parsing
 * `--strategy` does not load the discovery crawler (and the classifier) at every start of the CLI;
 * the type check below fails when a strategy is added there and not here.
 */
const STRATEGIES = ["bfs", "best-first", "focused"] as const satisfies readonly StrategyName[];
// Compile-time: every StrategyName is listed above.
const allStrategies: [Exclude<StrategyName, (typeof STRATEGIES)[number]>] extends [never] ? true : false = true;
void allStrategies;

interface DiscoverFlags {
  topic?: string;
  seeds?: string;
  maxPages?: number;
  strategy: StrategyName;
  sameSite?: boolean;
  hostDelayMs?: number;
  workMinutes?: number;
  pauseMinutes?: number;
  dropWords?: string[];
  candidateMinPages?: number;
  resume?: number;
  revisit?: number;
  report?: number;
  force?: boolean;
  json?: boolean;
}

function strategyOption(value: string): StrategyName {
  if (!(STRATEGIES as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${STRATEGIES.join(", ")}`);
  return value as StrategyName;
}

/** Seed URLs of a file (one per line; blank lines and # comments skipped), or null when `value` is not a file. */
function seedFile(value: string): string[] | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(value);
  } catch {
    return null;
  }
  if (!stat.isFile()) return null;
  return fs
    .readFileSync(value, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/**
 * `campuswatch discover`: start, resume, revisit or report a topic-discovery run.
 *
 *   campuswatch discover --topic NAME --seeds SET|FILE [--max-pages N] [--strategy focused|best-first|bfs]
 *                        [--same-site] [--host-delay-ms N] [--work-minutes N --pause-minutes N] [--json]
 *   campuswatch discover --resume RUN [--max-pages N] [--force]
 *   campuswatch discover --revisit RUN
 *   campuswatch discover --report RUN [--json]
 */
export function registerDiscoverCommand(program: Command) {
  program
    .command("discover")
    .description("focused discovery crawl from seed URLs: find pages and sites on a topic")
    .option("--topic <name>", "topic to discover (its trained model judges pages; untrained: its keywords)")
    .option("--seeds <set|file>", "a seed set name, or a file with one URL per line")
    .option("--max-pages <n>", "stop after this many crawled pages (with --resume: raise the run's limit)", intOption("--max-pages", 1))
    .option("--strategy <name>", "focused | best-first | bfs", strategyOption, "focused")
    .option("--same-site", "only crawl the seeds' sites")
    .option("--host-delay-ms <n>", "minimum delay between requests to one host", intOption("--host-delay-ms", 0))
    .option("--work-minutes <n>", "crawl this long, then pause (with --pause-minutes)", intOption("--work-minutes", 1))
    .option("--pause-minutes <n>", "length of the pause between work windows", intOption("--pause-minutes", 1))
    .option("--drop-words <words>", "link-text words that drop a link (comma-separated; replaces the built-in spam list)", listOption)
    .option("--candidate-min-pages <n>", "relevant pages a site needs to be proposed as an account", intOption("--candidate-min-pages", 1))
    .option("--resume <run>", "continue a paused, failed or finished run", intOption("--resume", 1))
    .option("--revisit <run>", "re-check a run's crawled pages (conditional GET); changed pages are processed again", intOption("--revisit", 1))
    .option("--report <run>", "print a run's harvest rate at fixed page counts", intOption("--report", 1))
    .option("--force", "with --resume/--revisit: take over a run marked running (its process died)")
    .option("--json", "print the result as JSON")
    .action(action(async (o: DiscoverFlags) => discover(o)));
}

/**
 * `discover` runs its run as a discover job in this process (crawler/jobs/): the job's row is
 * created already claimed by this process, so `jobs list` shows it, and a run another process is
 * running — the dashboard asked for it, or another terminal — is refused with the reason rather
 * than crawled twice. The run is asked for through server/discovery.ts, as the dashboard does.
 */
async function discover(o: DiscoverFlags): Promise<void> {
  const modes = [o.resume, o.revisit, o.report].filter((x) => x !== undefined).length;
  if (modes > 1) throw new UserInputError("use only one of --resume, --revisit, --report");
  const [db, { createDiscoveryRun, setDiscoveryRunMaxPages }] = await Promise.all([loadDb(), import("../discover")]);
  if (o.report !== undefined) return report(db, o.report, o.json === true);
  const [{ createJobRunner, discoverWork }, { requestDiscoveryRun }] = await Promise.all([import("../jobs"), import("../../server/discovery")]);

  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error("stopping after the current page (Ctrl-C again to quit at once)…");
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const runner = createJobRunner({ db, signal: controller.signal });
  try {
    if (o.revisit !== undefined) {
      const runId = o.revisit;
      if (!(await db.discoveryRun.findUnique({ where: { id: runId }, select: { id: true } }))) throw new UserInputError(`no discovery run ${runId}`);
      const spec = { kind: "discover", runId, revisit: true, force: o.force } as const;
      let r: RevisitSummary | undefined;
      const ran = await runner.runHere(spec, {
        handler: (ctx) => discoverWork(ctx, spec, { log: (m) => console.error(m), onSummary: (s) => (r = s as RevisitSummary) }),
      });
      if (ran.refused) throw jobRefusal(`discovery run ${runId}`, ran.refused);
      if (ran.error !== undefined) throw ran.error;
      if (!r) return;
      if (o.json) console.log(JSON.stringify(r));
      else
        console.log(
          `run ${r.runId}: revisited ${r.checked} pages — ${r.notModified} not modified (304), ${r.unchanged} unchanged, ` +
            `${r.changed} changed, ${r.failed} failed; ${r.newLinks} new links; status ${r.status}`,
        );
      return;
    }

    let runId: number;
    if (o.resume !== undefined) {
      runId = o.resume;
      const run = await db.discoveryRun.findUnique({ where: { id: runId }, select: { id: true } });
      if (!run) throw new UserInputError(`no discovery run ${runId}`);
      if (o.maxPages !== undefined) await setDiscoveryRunMaxPages(db, runId, o.maxPages);
    } else {
      if (!o.topic) throw new UserInputError("--topic is required (or --resume/--revisit/--report RUN)");
      if (!o.seeds) throw new UserInputError("--seeds is required: a seed set name or a file of URLs");
      if ((o.workMinutes === undefined) !== (o.pauseMinutes === undefined)) {
        throw new UserInputError("--work-minutes and --pause-minutes go together");
      }
      const urls = seedFile(o.seeds);
      const run = await createDiscoveryRun(db, {
        topic: o.topic,
        seeds: urls ? { urls } : { seedSet: o.seeds },
        strategy: o.strategy,
        maxPages: o.maxPages ?? 1000,
        options: {
          sameSite: o.sameSite === true,
          ...(o.hostDelayMs !== undefined ? { hostDelayMs: o.hostDelayMs } : {}),
          ...(o.workMinutes !== undefined && o.pauseMinutes !== undefined ? { workMs: o.workMinutes * 60_000, pauseMs: o.pauseMinutes * 60_000 } : {}),
          ...(o.dropWords ? { sensitiveWords: o.dropWords } : {}),
          ...(o.candidateMinPages !== undefined ? { candidateMinPages: o.candidateMinPages } : {}),
        },
      });
      runId = run.id;
      console.error(`discovery run ${runId} (${o.strategy}) started`);
    }
    const asked = await requestDiscoveryRun(db, runId, null, { force: o.force, claimedBy: runner.owner });
    if (asked.refused) throw refusal(runId, asked.refused, asked.job);
    const spec = asked.job.spec as Extract<JobSpec, { kind: "discover" }>;
    let summary: DiscoverySummary | undefined;
    const ran = await runner.runClaimed(asked.job.id, (ctx) =>
      discoverWork(ctx, spec, {
        log: (m) => console.error(m),
        onPage: (e) => {
          if (e.crawled % 100 === 0) console.error(`  ${e.crawled} pages, ${e.relevantSoFar} relevant (${((e.relevantSoFar / e.crawled) * 100).toFixed(1)}%)`);
        },
        onSummary: (s) => (summary = s as DiscoverySummary),
      }),
    );
    if (ran.error !== undefined) throw ran.error;
    if (!summary) return;
    printSummary(summary, o.json === true);
    if (summary.status === "failed") process.exitCode = 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** Why requestDiscoveryRun refused, as the CLI says it. */
function refusal(runId: number, why: DiscoveryRefusal, job?: JobView): UserInputError {
  switch (why) {
    case "noRun":
      return new UserInputError(`no discovery run ${runId}`);
    case "alreadyRunning":
      return job ? jobRefusal(`discovery run ${runId}`, job) : new UserInputError(`discovery run ${runId} is already queued or running`);
    case "otherProcess":
      return new UserInputError(`discovery run ${runId} is running in another process; if that process died, take it over with --resume ${runId} --force`);
    case "limitReached":
      return new UserInputError(`discovery run ${runId} has crawled its page limit: raise it with --resume ${runId} --max-pages N`);
  }
}

function printSummary(s: DiscoverySummary, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(s));
    return;
  }
  const rate = (s.harvestRate * 100).toFixed(1);
  console.log(
    `run ${s.runId} (${s.strategy}): ${s.status} (${s.reason}) — ${s.crawled} pages crawled, ${s.relevant} relevant (harvest ${rate}%); ` +
      `frontier ${s.frontier.todo} to crawl, ${s.frontier.irrelevant} irrelevant, ${s.frontier.done} done; ${s.candidates} candidate accounts` +
      (s.error ? `; error: ${s.error}` : ""),
  );
  if (s.status === "paused") console.log(`resume with: campuswatch discover --resume ${s.runId}`);
}

async function report(db: Db, runId: number, json: boolean): Promise<void> {
  const { harvestReport } = await import("../discover");
  const run = await db.discoveryRun.findUnique({
    where: { id: runId },
    include: { topic: { select: { name: true } }, harvest: { orderBy: { crawled: "asc" }, select: { crawled: true, relevant: true } } },
  });
  if (!run) throw new UserInputError(`no discovery run ${runId}`);
  const rows = harvestReport(run.harvest);
  const candidates = await db.candidateAccount.findMany({ where: { runId }, orderBy: [{ relevantPages: "desc" }, { url: "asc" }] });
  if (json) {
    console.log(
      JSON.stringify({
        runId,
        topic: run.topic.name,
        strategy: run.strategy,
        status: run.status,
        crawled: run.crawled,
        relevant: run.relevant,
        harvest: rows,
        candidates: candidates.map((c) => ({
          url: c.url,
          platform: c.platform,
          relevantPages: c.relevantPages,
          crawledPages: c.crawledPages,
          adopted: c.adoptedAccountId !== null,
        })),
      }),
    );
    return;
  }
  console.log(
    `run ${runId} (${run.strategy}), topic ${run.topic.name}: ${run.status}${run.note ? ` (${run.note})` : ""}; ${run.crawled} crawled, ${run.relevant} relevant`,
  );
  if (rows.length === 0) console.log("no pages crawled yet");
  else {
    console.log("pages\trelevant\tharvest rate");
    for (const r of rows) console.log(`${r.pages}\t${r.relevant}\t${r.rate.toFixed(3)}`);
  }
  if (candidates.length > 0) {
    console.log(`candidate accounts (adopt in the dashboard, or: campuswatch accounts add URL):`);
    for (const c of candidates) {
      console.log(
        `  ${c.platform}\t${c.relevantPages}/${c.crawledPages} relevant\t${c.url}${c.adoptedAccountId ? `\tadopted as account ${c.adoptedAccountId}` : ""}`,
      );
    }
  }
}
