/**
 * The SQLite backend of lib/store: a plan runs in one synchronous transaction on Prisma's own
 * connection (lib/db.ts rawSqlite), each operation carried out by the driver's `sqlite` half.
 */
import { rawSqlite, type Db } from "../db";
import { runPlan } from "../plan";
import type { PlanDriver, RunOptions, Stores } from "./types";

/** Stores that write through `db`'s own SQLite connection (the client must come from lib/db.ts createDb on a SQLite file). */
export function sqliteStores(db: Db): Stores {
  const connection = async () => {
    const raw = await rawSqlite(db);
    if (!raw) throw new Error("this client has no SQLite connection of its own (not made by lib/db.ts createDb on a SQLite file)");
    return raw;
  };
  return {
    backend: "sqlite",
    async run<Op, R>(plan: () => Generator<Op, R, unknown>, driver: PlanDriver<Op>, _options?: RunOptions): Promise<R> {
      const raw = await connection();
      return raw.transaction((sql) => runPlan(plan(), (op) => driver.sqlite(sql, op)));
    },
    async runEach<Op, R>(plans: readonly (() => Generator<Op, R, unknown>)[], driver: PlanDriver<Op>): Promise<R[]> {
      const raw = await connection();
      // Asked for in one turn of the event loop: the group commit runs them in order, each in a
      // savepoint of its own, and commits once (lib/db.ts GroupCommit). After a failure the rest
      // do nothing and fail, as on Prisma, where they are never started.
      let failed = false;
      return Promise.all(
        plans.map((plan) =>
          raw.transaction((sql) => {
            if (failed) throw new Error("not run: an earlier plan of the same runEach failed");
            try {
              return runPlan(plan(), (op) => driver.sqlite(sql, op));
            } catch (e) {
              failed = true;
              throw e;
            }
          }),
        ),
      );
    },
    async stats() {
      return (await connection()).stats;
    },
  };
}
