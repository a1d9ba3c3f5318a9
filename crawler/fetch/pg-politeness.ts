/**
 * Per-host politeness across processes and machines: every `campuswatch worker` sharing one
 * PostgreSQL database sees the same hosts, so the host sees one polite crawler however many
 * workers there are.
 *
 * How:
 * - One request at a time per host: a session advisory lock keyed by the host, held on a
 *   dedicated connection while the request runs. PostgreSQL releases it when the connection
 *   ends, so a worker killed mid-request never leaves a host locked.
 * - The gap between requests and Retry-After hold-offs: the "HostPoliteness" row of the host
 *   (when the last request ended, until when to stay away), compared with the database's clock,
 *   so workers on machines with skewed clocks agree.
 * - Within one process, requests for a host first queue in an in-memory {@link HostScheduler}
 *   (with no delay of its own), so a process holds at most one connection per host it waits for.
 */
import pg from "pg";
import { HostScheduler, sleep, type HostGate } from "./politeness";

/** Options of {@link PgHostScheduler}. */
export interface PgHostSchedulerOptions {
  /** Connections for politeness (one per host being waited for or fetched at once). @default 16 */
  maxConnections?: number;
}

/** {@link HostGate} whose state lives in PostgreSQL (see the module comment). */
export class PgHostScheduler implements HostGate {
  private readonly pool: pg.Pool;
  private readonly local = new HostScheduler();
  /** Hold-offs this process knows of (Date.now() scale), so {@link holdOffRemaining} can answer synchronously. */
  private readonly knownHolds = new Map<string, number>();
  private readonly pendingWrites = new Set<Promise<unknown>>();

  /** @param url a postgresql:// URL (the database the worker stores posts in) */
  constructor(url: string, opts: PgHostSchedulerOptions = {}) {
    this.pool = new pg.Pool({ connectionString: url, max: opts.maxConnections ?? 16, application_name: "campuswatch politeness" });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    this.pool.on("error", () => undefined);
  }

  run<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T> {
    return this.local.run(host, 0, () => this.runLocked(host, delayMs, task));
  }

  private async runLocked<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let clean = false;
    try {
      // Blocks (without polling) until no other worker is requesting from this host.
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`host:${host}`]);
      try {
        // Re-read after each sleep: another worker may have raised the hold-off meanwhile.
        for (;;) {
          const { rows } = await client.query<{ wait_ms: number | null; hold_ms: number | null }>(
            `SELECT extract(epoch FROM greatest("lastEndAt" + $2 * interval '1 millisecond', "holdUntil") - (clock_timestamp() AT TIME ZONE 'UTC')) * 1000 AS wait_ms,
                    extract(epoch FROM "holdUntil" - (clock_timestamp() AT TIME ZONE 'UTC')) * 1000 AS hold_ms
             FROM "HostPoliteness" WHERE "host" = $1`,
            [host, delayMs],
          );
          const holdMs = Number(rows[0]?.hold_ms ?? 0);
          if (holdMs > 0) this.knownHolds.set(host, Date.now() + holdMs);
          const wait = Number(rows[0]?.wait_ms ?? 0);
          if (!(wait > 0)) break;
          await sleep(wait);
        }
        try {
          return await task();
        } finally {
          await client.query(
            `INSERT INTO "HostPoliteness" ("host", "lastEndAt") VALUES ($1, clock_timestamp() AT TIME ZONE 'UTC')
             ON CONFLICT ("host") DO UPDATE SET "lastEndAt" = excluded."lastEndAt"`,
            [host],
          );
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [`host:${host}`]);
        clean = true;
      }
    } finally {
      // A connection whose lock or unlock query failed may still hold the lock: close it rather
      // than return it to the pool (closing releases the lock).
      client.release(!clean);
    }
  }

  holdOff(host: string, ms: number): void {
    this.knownHolds.set(host, Math.max(this.knownHolds.get(host) ?? 0, Date.now() + ms));
    const write = this.pool
      .query(
        `INSERT INTO "HostPoliteness" ("host", "holdUntil") VALUES ($1, (clock_timestamp() AT TIME ZONE 'UTC') + $2 * interval '1 millisecond')
         ON CONFLICT ("host") DO UPDATE SET "holdUntil" = greatest("HostPoliteness"."holdUntil", excluded."holdUntil")`,
        [host, ms],
      )
      .catch(() => undefined)
      .finally(() => this.pendingWrites.delete(write));
    this.pendingWrites.add(write);
  }

  holdOffRemaining(host: string): number {
    return Math.max(0, (this.knownHolds.get(host) ?? 0) - Date.now());
  }

  /** Finish pending writes and close the connections. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pendingWrites]);
    await this.pool.end();
  }
}
