/**
 * Running a plan: a generator that yields operations and is sent each one's result (the page
 * store, crawler/store/page-plan.ts, and a batch of verdicts, crawler/classify/write-batch.ts, are
 * written this way so that one set of decisions is carried out by a Prisma or a SQLite driver).
 */

/** Run `plan` to its end, carrying out each operation synchronously with `run`; its return value. */
export function runPlan<Op, R>(plan: Generator<Op, R, unknown>, run: (op: Op) => unknown): R {
  let step = plan.next();
  while (!step.done) step = plan.next(run(step.value));
  return step.value;
}

/** {@link runPlan} with an asynchronous `run`: each operation finishes before the next is asked for. */
export async function runPlanAsync<Op, R>(plan: Generator<Op, R, unknown>, run: (op: Op) => Promise<unknown>): Promise<R> {
  let step = plan.next();
  while (!step.done) step = plan.next(await run(step.value));
  return step.value;
}
