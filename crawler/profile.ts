/**
 * Cheap cumulative timers of the crawl pipeline, for `npm run bench:crawl-vs-crawlee` and anyone
 * asking where a crawl's time goes: with CAMPUSWATCH_PROFILE=1 the process prints, when it exits,
 * one JSON line to stderr — `{"campuswatchProfile":{startupMs, fetchMs, parseMs, storeMs, …}}`.
 * Off (the default), every hook is one boolean test: nothing is timed, nothing is printed.
 *
 * Phases are summed over the accounts crawled at once, so with concurrency 8 they add up to about
 * 8× the wall time: read them as shares. `fetchMs` is time waiting for responses (per-host queue
 * included), `storeMs` the store's reads and page transactions, `classifyMs` the classifier
 * (which judges beside the walk, so it overlaps the others), `archiveMs` the raw archive;
 * `parseMs` is the rest of each account's crawl (adapters parsing pages, the walk's own work),
 * less the time the walk waited for the classifier. `startupMs` runs from the process's start to its first crawl, and
 * `cpuMs` is the process's CPU time: when it is close to `totalMs` the process was busy all along,
 * and the waits above (fetch, archive) are mostly waits for its own event loop.
 */

/** True when CAMPUSWATCH_PROFILE=1: read once, so the hooks cost nothing when off. */
export const profiling = process.env.CAMPUSWATCH_PROFILE === "1";

/** The timed phases; `account` is each account's whole crawl (the others are parts of it). */
export type Phase = "account" | "fetch" | "store" | "classify" | "classifyWait" | "archive";

const totals: Record<Phase, number> = { account: 0, fetch: 0, store: 0, classify: 0, classifyWait: 0, archive: 0 };
let firstCrawlAt: number | null = null;
let lastCrawlEndAt = 0;
let accounts = 0;
let installed = false;

/** Add `ms` to a phase (call only when {@link profiling}). */
export function addTime(phase: Phase, ms: number): void {
  totals[phase] += ms;
}

/** Time a promise-returning call into a phase; without profiling it is just the call. */
export async function timed<T>(phase: Phase, run: () => Promise<T>): Promise<T> {
  if (!profiling) return run();
  const t0 = performance.now();
  try {
    return await run();
  } finally {
    totals[phase] += performance.now() - t0;
  }
}

/** More figures for the printed line, by name, read when it is printed (see {@link profileFigure}). */
const extraFigures = new Map<string, () => unknown>();

/**
 * Print `read()`'s value under `name` with the figures (a module that is not always loaded, like
 * the parse threads', adds its own this way rather than being imported here).
 */
export function profileFigure(name: string, read: () => unknown): void {
  if (profiling) extraFigures.set(name, read);
}

/** Mark an account's crawl as started (the first one ends start-up); returns its start time. */
export function crawlStarted(): number {
  const now = performance.now();
  if (firstCrawlAt === null) firstCrawlAt = now;
  if (!installed) {
    installed = true;
    // Printed when the process ends, after the command's own clean-up: start-up to exit is whole.
    process.once("exit", () => {
      const extra = Object.fromEntries([...extraFigures].map(([name, read]) => [name, read()]));
      process.stderr.write(`${JSON.stringify({ campuswatchProfile: { ...profileSnapshot(), ...extra } })}\n`);
    });
  }
  return now;
}

/** Mark an account's crawl started at `t0` as finished. */
export function crawlFinished(t0: number): void {
  const now = performance.now();
  totals.account += now - t0;
  lastCrawlEndAt = Math.max(lastCrawlEndAt, now);
  accounts++;
}

/** What CAMPUSWATCH_PROFILE=1 prints: accounts crawled and whole milliseconds. */
export interface ProfileFigures {
  accounts: number;
  startupMs: number;
  crawlWallMs: number;
  shutdownMs: number;
  totalMs: number;
  /** CPU time of the process (user + system): near `totalMs` means the crawl was CPU-bound. */
  cpuMs: number;
  accountMs: number;
  fetchMs: number;
  parseMs: number;
  storeMs: number;
  classifyMs: number;
  archiveMs: number;
}

/** The figures so far, in whole milliseconds. */
export function profileSnapshot(): ProfileFigures {
  const r = (n: number) => Math.round(n);
  const { account, fetch, store, classify, classifyWait, archive } = totals;
  const end = performance.now();
  const cpu = process.cpuUsage();
  return {
    accounts,
    startupMs: r(firstCrawlAt ?? end),
    crawlWallMs: r(firstCrawlAt === null ? 0 : lastCrawlEndAt - firstCrawlAt),
    shutdownMs: r(firstCrawlAt === null ? 0 : end - lastCrawlEndAt),
    totalMs: r(end),
    cpuMs: r((cpu.user + cpu.system) / 1000),
    accountMs: r(account),
    fetchMs: r(fetch),
    parseMs: r(Math.max(0, account - fetch - store - classifyWait - archive)),
    storeMs: r(store),
    classifyMs: r(classify),
    archiveMs: r(archive),
  };
}
