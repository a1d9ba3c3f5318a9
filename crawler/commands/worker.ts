import type { Command } from "commander";
import { action, intOption, UserInputError } from "./util";

/** `campuswatch worker`: claim and run crawl jobs from pg-boss until SIGINT/SIGTERM. */
export function registerWorkerCommand(program: Command) {
  program
    .command("worker")
    .description("PostgreSQL: run crawl jobs from the pg-boss queue (start any number, on any machine)")
    .option("--concurrency <n>", "crawl jobs at once", intOption("--concurrency", 1))
    .option("--host-delay-ms <n>", "minimum delay between requests to one host, across all workers", intOption("--host-delay-ms", 0))
    .option("--poll-s <n>", "seconds between queue polls when idle (≥ 1)", intOption("--poll-s", 1))
    .action(
      action(async (o: { concurrency?: number; hostDelayMs?: number; pollS?: number }) => {
        const { db, dialectOf } = await import("../../lib/db");
        if (dialectOf(db) !== "postgresql") {
          throw new UserInputError("workers need PostgreSQL (DATABASE_URL=postgresql://…); on SQLite `campuswatch start` crawls in-process");
        }
        const [{ crawlerConfig, databaseUrl }, { startWorker }, { logUnhandledRejections }, { reasonOf }] = await Promise.all([
          import("../../lib/config"),
          import("../queue/pg-worker"),
          import("../queue/crawl-jobs"),
          import("../runs"),
        ]);
        // This worker may run a scheduled report's job: it checks the settings and can make the report.
        await (await import("./crawl")).loadReportSchedule();
        const log = (m: string) => console.log(`[worker] ${m}`);
        logUnhandledRejections((m) => console.error(`[worker] ${m}`));
        const worker = await startWorker({
          db,
          url: databaseUrl(),
          concurrency: o.concurrency ?? crawlerConfig().concurrency,
          hostDelayMs: o.hostDelayMs,
          pollSeconds: o.pollS,
        });
        const stop = () => void worker.stop().catch((e: unknown) => log(`stopping failed: ${reasonOf(e)}`));
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        await worker.done;
      }),
    );
}
