/**
 * A process that claims one job and freezes in the middle of it, for the tests of a job whose
 * process is killed (test/integration/jobs/). Run as
 *
 *   node bin/tsx.mjs test/support/job-child.ts JOB_ID      (DATABASE_URL set)
 *
 * It runs the product's handler for real until the handler's first progress report, prints
 * "stalled" and blocks its event loop for good (no heartbeat, no more writes), like a process
 * frozen and then killed: the test SIGKILLs it there.
 */
import fs from "node:fs";
import { db } from "../../lib/db";
import { createJobRunner, jobHandlers, type JobContext, type JobHandlers } from "../../crawler/jobs";

const jobId = Number(process.argv[2]);
const freeze = () => {
  fs.writeSync(1, "stalled\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
const stallingCtx = (ctx: JobContext): JobContext => ({
  ...ctx,
  progress: (p) => {
    ctx.progress(p);
    freeze();
  },
});
const handlers = Object.fromEntries(
  Object.entries(jobHandlers).map(([kind, handler]) => [
    kind,
    (ctx: JobContext, spec: never) => (handler as (c: JobContext, s: never) => Promise<unknown>)(stallingCtx(ctx), spec),
  ]),
) as unknown as JobHandlers;

const runner = createJobRunner({ db, handlers, heartbeatMs: 100, progressEveryMs: 0 });
const done = await runner.run(jobId);
// Reached only when the handler finished without reporting progress: the test then fails on it.
fs.writeSync(1, `finished ${done?.status ?? "not claimed"}\n`);
await db.$disconnect();
