/**
 * Discovery runs started from the dashboard run in the Next.js server process, in the background
 * (the request that started one returns at once). A module-level registry remembers which runs
 * this process is crawling, so a second "resume" does not start a second loop. Pausing does not
 * need the registry: the dashboard sets the run's status to "paused" and the loop, which reads the
 * status between pages, writes its frontier and stops; the registry's abort is only a shortcut.
 */
import type { Db } from "../../lib/db";
import { runDiscovery, type DiscoverySummary } from "./run";

interface Running {
  controller: AbortController;
  /** Settles once the loop has claimed the run (status "running") or has stopped without it. */
  claimed: Promise<void>;
  done: Promise<DiscoverySummary | null>;
}

// On globalThis, so Next.js dev reloads of this module do not forget the runs still going.
const holder = globalThis as unknown as { campuswatchDiscoveries?: Map<number, Running> };
const registry: Map<number, Running> = (holder.campuswatchDiscoveries ??= new Map<number, Running>());

/** True when this process is crawling the run. */
export function isRunningHere(runId: number): boolean {
  return registry.has(runId);
}

/** Ids of the runs this process is crawling. */
export function runningHere(): number[] {
  return [...registry.keys()];
}

/** Options of {@link startInBackground}. */
export interface BackgroundOptions {
  /** Take over a run left "running" by a process that died. @default false */
  force?: boolean;
  /** Where progress and failures go. @default console.error with a prefix */
  log?: (message: string) => void;
}

/**
 * Start (or resume) a run in the background. Returns false when this process is already crawling
 * it. The loop's failures end up in the run's status and note; nothing is thrown to the caller.
 */
export function startInBackground(db: Db, runId: number, options: BackgroundOptions = {}): boolean {
  if (registry.has(runId)) return false;
  const log = options.log ?? ((m: string) => console.error(`[discover ${runId}] ${m}`));
  const controller = new AbortController();
  let onClaimed!: () => void;
  const claimed = new Promise<void>((resolve) => (onClaimed = resolve));
  const done = runDiscovery(db, runId, { signal: controller.signal, force: options.force, log, onClaimed })
    .catch((e: unknown) => {
      log(`could not run: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    })
    .finally(() => {
      registry.delete(runId);
      onClaimed();
    });
  registry.set(runId, { controller, claimed, done });
  return true;
}

/**
 * Resolves once this process's loop of a run has claimed it (or stopped without doing so). The
 * dashboard waits for it before showing the run, so the page shows it "running" and watches it,
 * rather than the "not started" state of a moment before, which a page would never refresh from.
 */
export async function started(runId: number): Promise<void> {
  await registry.get(runId)?.claimed;
}

/** Ask this process's loop of a run to stop after the current page (no-op when not running here). */
export function abortHere(runId: number): boolean {
  const r = registry.get(runId);
  r?.controller.abort();
  return r !== undefined;
}

/** Wait for a background run of this process to stop (tests, shutdown). */
export async function settled(runId: number): Promise<DiscoverySummary | null> {
  return (await registry.get(runId)?.done) ?? null;
}
