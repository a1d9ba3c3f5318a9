/**
 * What a crawl session and a revisit share: their options, the clock, the error for a run that is
 * not free to claim, and opening a session on a claimed run (its topic judge, its stored state, its
 * strategy and filters, and a fetcher under the run's address policy).
 */
import type { Db } from "../../lib/db";
import { allowInternalFromEnv, crawlerConfig, trustedHostsFromEnv } from "../../lib/config";
import { WordMatcher } from "../classify";
import { createAddressPolicy, createFetcher, defaultHostScheduler, type AddressPolicy, type HostScheduler, type PoliteFetcher } from "../fetch";
import type { Fetcher } from "../types";
import type { FrontierState } from "./frontier";
import type { DiscoveryOptions } from "./options";
import type { PageType } from "./page-type";
import { loadState, type RunState } from "./persist";
import { seedPolicyHosts, sessionSeedClasses } from "./seed-class";
import type { AddressClass } from "../../lib/net/address";
import { loadTopicJudge, type TopicJudge } from "./relevance";
import { strategyFor, type Strategy, type StrategyName } from "./strategies";
import { siteOf } from "./url";

/** Time as the loop sees it (tests pass a fake one to exercise work/pause windows instantly). */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Resolve after `ms`, or earlier when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** What {@link RunDiscoveryOptions.onPage} receives after every crawled page. */
export interface PageEvent {
  runId: number;
  url: string;
  layer: number;
  /** Pages crawled so far in the run (this one included). */
  crawled: number;
  /** Relevant pages so far. */
  relevantSoFar: number;
  /** The classifier's decision on this page. */
  relevant: boolean;
  score: number;
  pageType: PageType;
  state: FrontierState;
  /** Links of this page the strategy queued (new, raised or revived). */
  queued: number;
  /** Links it rejected. */
  rejected: number;
}

/** Options of one session of a run. */
export interface RunDiscoveryOptions {
  /**
   * Fetch through this fetcher (not closed afterwards). Its owner chose its address policy (none:
   * every address reachable), so the run's trusted hosts do not apply to it.
   * @default a fetcher from fetcherFactory
   */
  fetcher?: Fetcher;
  /**
   * Make the session's fetcher from the run's politeness settings and its address policy (the
   * seeds' hosts, the run's `trustedHosts` and CAMPUSWATCH_TRUSTED_HOSTS are trusted; other
   * internal addresses refused): pass `addressPolicy` on to createFetcher.
   * @default createFetcher
   */
  fetcherFactory?: (options: { hostDelayMs: number; scheduler: HostScheduler; addressPolicy: AddressPolicy }) => PoliteFetcher;
  /** Per-host queue shared with other crawls in the process. @default defaultHostScheduler */
  scheduler?: HostScheduler;
  /** Stop (status "paused") after this many pages in this session. @default no limit */
  stopAfter?: number;
  /** Abort to pause the run after the current page. */
  signal?: AbortSignal;
  /** Called after every crawled page (awaited). */
  onPage?: (event: PageEvent) => void | Promise<void>;
  /** The topic judge. @default the run's topic's model (or its keyword fallback) */
  judge?: TopicJudge;
  /** Pages between two writes of the frontier. @default 20 */
  flushEvery?: number;
  /** Re-read the run's status between pages, so "pause" from the dashboard stops the loop. @default true */
  pollStatus?: boolean;
  /** Take over a run marked "running" (its process died). @default false */
  force?: boolean;
  /** The statuses the run may be claimed from ("running" is added by `force`). @default paused, failed, done, queued */
  claimFrom?: readonly string[];
  /** Called once the run is claimed (its status is "running"), before the first page. */
  onClaimed?: () => void;
  /** @default systemClock */
  clock?: Clock;
  /** Progress messages. @default none */
  log?: (message: string) => void;
}

/**
 * The run is being crawled by someone else, or does not exist. Named like the CLI's
 * UserInputError so the CLI prints it as one line, without a stack trace.
 */
export class DiscoveryBusyError extends Error {
  override name = "UserInputError";
}

/** A stored discovery run, as read by the crawl and the revisit. */
export type RunRow = NonNullable<Awaited<ReturnType<Db["discoveryRun"]["findUnique"]>>>;

/** A claimed run, ready to visit pages. */
export interface Session {
  db: Db;
  runId: number;
  strategyName: StrategyName;
  strategy: Strategy;
  options: DiscoveryOptions;
  judge: TopicJudge;
  state: RunState;
  sensitive: WordMatcher;
  sites: ReadonlySet<string> | null;
}

/** An open session and the fetcher it visits pages through. */
export interface OpenSession {
  session: Session;
  fetcher: Fetcher;
  /** The fetcher this session made, to close when it ends; null when the caller passed one. */
  ownFetcher: PoliteFetcher | null;
}

/**
 * Open a session on a claimed run: load its topic judge and stored state, and make its fetcher
 * unless the caller passed one. The caller marks the run failed when this throws, since the run
 * is already "running".
 */
export async function openSession(
  db: Db,
  run: Pick<RunRow, "id" | "topicId" | "strategy">,
  options: DiscoveryOptions,
  opts: Pick<RunDiscoveryOptions, "fetcher" | "fetcherFactory" | "scheduler" | "judge">,
  log: (message: string) => void,
): Promise<OpenSession> {
  const strategyName = run.strategy as StrategyName;
  const judge = opts.judge ?? (await loadTopicJudge(db, run.topicId)).judge;
  const state = await loadState(db, run.id, options);
  const session: Session = {
    db,
    runId: run.id,
    strategyName,
    strategy: strategyFor(strategyName, options.focused),
    options,
    judge,
    state,
    sensitive: new WordMatcher(options.sensitiveWords),
    sites: options.sameSite ? new Set(options.seeds.map((u) => siteOf(u))) : null,
  };
  if (opts.fetcher) return { session, fetcher: opts.fetcher, ownFetcher: null };
  const scheduler = opts.scheduler ?? defaultHostScheduler;
  const addressPolicy = runPolicy(options, await sessionSeedClasses(db, run.id, options));
  const ownFetcher = opts.fetcherFactory
    ? opts.fetcherFactory({ hostDelayMs: options.hostDelayMs, scheduler, addressPolicy })
    : defaultFetcher(options.hostDelayMs, scheduler, addressPolicy, log);
  return { session, fetcher: ownFetcher, ownFetcher };
}

/**
 * The run's address policy: its seeds' hosts were registered by an administrator, and each is
 * trusted where it was registered, as an account's entry host is (./seed-class.ts): one
 * registered on an internal address (an intranet portal, loopback) may be reached there, one
 * registered on a public address is refused if it now resolves inside. Links found on pages may
 * not reach internal addresses unless the run or CAMPUSWATCH_TRUSTED_HOSTS trusts them.
 */
function runPolicy(options: DiscoveryOptions, classes: Record<string, AddressClass>): AddressPolicy {
  const { trusted, registeredPublic } = seedPolicyHosts(options.seeds, classes);
  return createAddressPolicy({
    trustedHosts: [...trusted, ...options.trustedHosts, ...trustedHostsFromEnv()],
    registeredPublic,
    allowInternal: allowInternalFromEnv(),
  });
}

function defaultFetcher(hostDelayMs: number, scheduler: HostScheduler, addressPolicy: AddressPolicy, log: (m: string) => void): PoliteFetcher {
  const cfg = crawlerConfig();
  return createFetcher({
    addressPolicy,
    mode: "http",
    scheduler,
    hostDelayMs,
    userAgent: cfg.userAgent,
    requestTimeoutMs: cfg.requestTimeoutMs,
    maxBodyBytes: cfg.maxBodyBytes,
    // A discovery crawl goes on when one host misbehaves: fewer retries than an account crawl.
    retries: 1,
    log,
  });
}

/** The message of anything thrown (a run's note records it). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
