/**
 * The Prisma backend of lib/store: how rows are written on PostgreSQL (and on a SQLite client
 * without its own connection). A plan runs in one interactive transaction unless it asks for none.
 */
import type { Db } from "../db";
import { runPlanAsync } from "../plan";
import type { PlanDriver, RunOptions, Stores } from "./types";

/** Stores that write through Prisma's queries on `db`. */
export function prismaStores(db: Db): Stores {
  const stores: Stores = {
    backend: "prisma",
    run<Op, R>(plan: () => Generator<Op, R, unknown>, driver: PlanDriver<Op>, options: RunOptions = {}): Promise<R> {
      if (options.transaction === false) return runPlanAsync(plan(), (op) => driver.prisma(db, op, db));
      return db.$transaction((tx) => runPlanAsync(plan(), (op) => driver.prisma(tx, op, db)), {
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
        ...(options.maxWait !== undefined ? { maxWait: options.maxWait } : {}),
      });
    },
    async runEach<Op, R>(plans: readonly (() => Generator<Op, R, unknown>)[], driver: PlanDriver<Op>, options: RunOptions = {}): Promise<R[]> {
      const out: R[] = [];
      for (const plan of plans) out.push(await stores.run(plan, driver, options));
      return out;
    },
    stats: () => Promise.resolve(null),
  };
  return stores;
}
