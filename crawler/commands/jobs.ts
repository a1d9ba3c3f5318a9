import type { Command } from "commander";
import type { JobKind, JobSpec, JobStatus, JobView } from "../jobs";
import { action, intOption, loadDb, UserInputError } from "./util";

/** The jobs layer and the database, loaded when a jobs command runs. */
async function load() {
  const [db, jobs] = await Promise.all([loadDb(), import("../jobs")]);
  return { db, ...jobs };
}

/** crawler/jobs' JOB_KINDS, spelled out so that parsing options does not load zod at every start of the CLI. */
const KINDS = [
  "discover",
  "train",
  "rescore",
  "learn",
  "notify",
  "notifyRun",
  "catchUp",
  "pruneArchive",
  "evidenceShots",
  "incidents",
  "report",
] as const satisfies readonly JobKind[];
// Compile-time: every kind is listed above.
const allKinds: [Exclude<JobKind, (typeof KINDS)[number]>] extends [never] ? true : false = true;
void allKinds;
const STATUSES: readonly JobStatus[] = ["queued", "running", "done", "failed", "cancelled"];

/** One line per job: what the dashboard shows, for a terminal. */
function line(j: JobView): string {
  const what =
    j.status === "running" ? (j.progress?.message ?? "starting") : j.status === "queued" ? "waiting for a worker" : (j.result?.message ?? j.error ?? "");
  return `${j.id}\t${j.kind}\t${j.key}\t${j.status}\tattempt ${j.attempts}/${j.maxAttempts}\t${j.createdAt.toISOString()}\t${what}`;
}

/**
 * `campuswatch jobs …`: ask for background work and follow it, as the dashboard does. Asking only
 * records the job; the scheduler's process (`start`, `run`) or a PostgreSQL worker runs it.
 */
export function registerJobCommands(program: Command) {
  const jobs = program
    .command("jobs")
    .description(
      "background jobs (discovery, training, re-scoring, notifications, catch-up classification, archive pruning; the CLI's own work too): ask for one, follow them",
    );

  jobs
    .command("list")
    .description("recent jobs, newest first")
    .option("--status <status>", `only this status (${STATUSES.join(", ")})`)
    .option("--kind <kind>", `only this kind (${KINDS.join(", ")})`)
    .option("--limit <n>", "at most this many", intOption("--limit", 1), 50)
    .option("--json", "one JSON object per line")
    .action(
      action(async (o: { status?: string; kind?: string; limit: number; json?: boolean }) => {
        if (o.status && !STATUSES.includes(o.status as JobStatus)) throw new UserInputError(`--status must be one of ${STATUSES.join(", ")}`);
        if (o.kind && !(KINDS as readonly string[]).includes(o.kind)) throw new UserInputError(`--kind must be one of ${KINDS.join(", ")}`);
        const { db, listJobs } = await load();
        const rows = await listJobs(db, { take: o.limit, status: o.status as JobStatus | undefined, kind: o.kind as JobKind | undefined });
        for (const j of rows) console.log(o.json ? JSON.stringify(j) : line(j));
        if (!o.json && rows.length === 0) console.log("no jobs");
      }),
    );

  jobs
    .command("show <id>")
    .description("one job with its progress or outcome")
    .action(
      action(async (id: string) => {
        const { db, getJob } = await load();
        const j = /^\d+$/.test(id) ? await getJob(db, Number(id)) : null;
        if (!j) throw new UserInputError(`no job ${id} (see: campuswatch jobs list)`);
        console.log(JSON.stringify(j, null, 2));
      }),
    );

  jobs
    .command("add <kind> [target]")
    .description("ask for a job: train TOPIC | rescore TOPIC | learn TOPIC | discover RUN_ID | notify [NOTIFICATION_ID]; the scheduler or a worker runs it")
    .action(
      action(async (kind: string, target: string | undefined) => {
        const { db, requestJob } = await load();
        let spec: JobSpec;
        if (kind === "train" || kind === "rescore" || kind === "learn") {
          if (!target) throw new UserInputError(`jobs add ${kind} needs a topic name or id`);
          const { findTopic } = await import("./topics-support");
          spec = { kind, topicId: (await findTopic(db, target)).id };
        } else if (kind === "discover") {
          const runId = Number(target);
          if (!target || !Number.isSafeInteger(runId) || runId < 1) throw new UserInputError("jobs add discover needs a run id");
          // The dashboard's way of asking (server/discovery.ts): the run waits "queued", a stale "running" one is taken over.
          const { requestDiscoveryRun } = await import("../../server/discovery");
          const r = await requestDiscoveryRun(db, runId, null);
          if (r.refused === "noRun") throw new UserInputError(`no discovery run ${runId}`);
          if (r.refused === "otherProcess") throw new UserInputError(`discovery run ${runId} is running in another process`);
          if (r.refused === "limitReached") throw new UserInputError(`discovery run ${runId} has crawled its page limit`);
          if (r.refused) {
            console.log(r.job ? `job ${r.job.id} (${r.job.key}) is already ${r.job.status}` : `discovery run ${runId} is already queued or running`);
            return;
          }
          console.log(`queued job ${r.job.id} (${r.job.key})`);
          return;
        } else if (kind === "notify") {
          spec = target ? { kind, notificationIds: [intOption("notification id", 1)(target)] } : { kind };
        } else {
          throw new UserInputError(`unknown job kind "${kind}": one of ${KINDS.join(", ")}`);
        }
        const { job, created } = await requestJob(db, spec);
        console.log(created ? `queued job ${job.id} (${job.key})` : `job ${job.id} (${job.key}) is already ${job.status}`);
      }),
    );
}
