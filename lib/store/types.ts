/**
 * The types of the data-access seam (./index.ts): what an aggregate's store and a backend are.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { Db, Prisma } from "../db";

/** The two ways a client's rows are written. */
export type Backend = "sqlite" | "prisma";

/** A transaction client, or the client itself: what a Prisma implementation runs on. */
export type Tx = Prisma.TransactionClient | Db;

/**
 * An aggregate's store: its operations `Op` carried out on each backend. Each returns what the
 * plan expects back for that operation (documented with the operation's type).
 */
export interface PlanDriver<Op> {
  /** On SQLite's own connection, inside the plan's synchronous transaction: never awaits. */
  sqlite(sql: BetterSqlite3.Database, op: Op): unknown;
  /** Through Prisma, on the plan's transaction (or the client, for a plan run without one); `db` is the client itself. */
  prisma(tx: Tx, op: Op, db: Db): Promise<unknown>;
}

/** How a plan runs. */
export interface RunOptions {
  /**
   * Prisma: run the operations in one interactive transaction (on SQLite every plan is one
   * transaction anyway). A single read needs none. @default true
   */
  transaction?: boolean;
  /** Prisma's transaction limits, for plans that may be long (a page of 50 posts on a loaded machine). */
  timeout?: number;
  maxWait?: number;
}

/** A client's stores: where plans are carried out. */
export interface Stores {
  readonly backend: Backend;
  /** Carry out a plan, all or nothing: each operation it yields runs on this backend, its result sent back. */
  run<Op, R>(plan: () => Generator<Op, R, unknown>, driver: PlanDriver<Op>, options?: RunOptions): Promise<R>;
  /**
   * Carry out plans one after another, each all or nothing and each seeing the writes of those
   * before it; their results in order. A failure stops the run with its error: the plans before it
   * are kept. On SQLite they share one commit (each in a savepoint), which is why a caller with
   * many small plans (clustering, one post each) hands them over together.
   */
  runEach<Op, R>(plans: readonly (() => Generator<Op, R, unknown>)[], driver: PlanDriver<Op>, options?: RunOptions): Promise<R[]>;
  /** Writes and commits on SQLite's own connection so far (CAMPUSWATCH_PROFILE prints them); null elsewhere. */
  stats(): Promise<{ writes: number; commits: number } | null>;
}
