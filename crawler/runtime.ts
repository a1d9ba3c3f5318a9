/**
 * Wiring: builds the worker's services (fetchers sharing one per-host queue, the classifier,
 * the archive) from configuration, for the CLI, the scheduler and benchmarks.
 */
import path from "node:path";
import type { Db } from "../lib/db";
import { crawlerConfig, dataDir } from "../lib/config";
import { createFetcher, HostScheduler } from "./fetch";
import type { HostGate } from "./fetch/politeness";
import { classifyPosts } from "./classify";
import { createOcr } from "./ocr";
import { pruneArchive } from "./archive";
import { notifyNewFlags } from "../lib/notify";
import type { WorkerServices } from "./worker";

/** Options of {@link createServices}; unset values come from the environment (lib/config.ts). */
export interface RuntimeOptions {
  db: Db;
  /** @default CAMPUSWATCH_HOST_DELAY_MS or 1000 */
  hostDelayMs?: number;
  /** Classify new and changed posts as they are stored. @default true */
  classify?: boolean;
  /** Fetch and obey robots.txt. @default true */
  respectRobots?: boolean;
  /** Archive raw pages under the data directory. @default true */
  archive?: boolean;
  /** Per-host politeness shared by every fetcher made here. @default a new in-process HostScheduler */
  hostGate?: HostGate;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** Services for {@link crawlAccount}, plus `flush()` to wait for notifications still being delivered. */
export type RuntimeServices = WorkerServices & { flush(): Promise<void> };

/** Services for {@link crawlAccount}: every fetcher made here shares one per-host queue. */
export function createServices(opts: RuntimeOptions): RuntimeServices {
  const cfg = crawlerConfig();
  const scheduler = opts.hostGate ?? new HostScheduler();
  const deliveries = new Set<Promise<unknown>>();
  return {
    notify: (db, runId) => {
      const p = notifyNewFlags(db, runId).finally(() => deliveries.delete(p));
      deliveries.add(p);
      return p;
    },
    flush: async () => {
      await Promise.allSettled([...deliveries]);
    },
    db: opts.db,
    createFetcher: (account, onRequest) =>
      createFetcher({
        mode: account.fetchMode,
        scheduler,
        hostDelayMs: opts.hostDelayMs ?? cfg.hostDelayMs,
        userAgent: cfg.userAgent,
        requestTimeoutMs: cfg.requestTimeoutMs,
        maxBodyBytes: cfg.maxBodyBytes,
        chromiumPath: cfg.chromiumPath,
        respectRobots: opts.respectRobots ?? true,
        onRequest,
        log: (m) => opts.onProgress?.(`account ${account.id}: ${m}`),
      }),
    classify: opts.classify === false ? undefined : (db, ids) => classifyPosts(db, ids),
    archiveDir: opts.archive === false ? null : path.join(dataDir(), "archive"),
    ocr: createOcr({ log: (m) => (opts.onProgress ?? console.warn)(m) }),
    onProgress: opts.onProgress,
    signal: opts.signal,
    now: opts.now,
  };
}

/** Apply the archive retention settings (age and total size); returns the number of files removed. */
export async function pruneArchiveNow(): Promise<number> {
  const cfg = crawlerConfig();
  return pruneArchive(path.join(dataDir(), "archive"), { maxAgeDays: cfg.archiveMaxDays, maxBytes: cfg.archiveMaxMb * 1024 * 1024 });
}
