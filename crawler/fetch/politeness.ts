/**
 * Per-host politeness shared across fetchers. Every account has its own fetcher, but several
 * accounts often watch the same forum, and the forum sees one crawler: so the queue lives here,
 * not in the fetcher, and all fetchers of a process share {@link defaultHostScheduler}.
 */

/**
 * What a fetcher needs from per-host politeness: run a request when the host is free and the
 * delay has passed, and spread a host's "leave me alone" to every other fetcher. One
 * implementation per scope: {@link HostScheduler} within a process, `PgHostScheduler`
 * (./pg-politeness.ts) across every worker process sharing a PostgreSQL database.
 */
export interface HostGate {
  /** Run `task` once `host` is free and at least `delayMs` after the previous request there ended. */
  run<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T>;
  /** Keep everyone away from `host` for `ms` (Retry-After). Only ever extends a hold-off. */
  holdOff(host: string, ms: number): void;
  /** Milliseconds left of the hold-off on `host` as far as this process knows (0 when none). */
  holdOffRemaining(host: string): number;
}

interface HostState {
  /** Settles when the last queued task for this host has finished (the queue's tail). */
  tail: Promise<void>;
  /** When the last request to this host ended (performance.now(): monotonic, immune to clock jumps); -Infinity if never. */
  lastEnd: number;
  /** No request may start before this instant (performance.now() scale; a Retry-After the host asked for). */
  holdUntil: number;
  /** Tasks queued or running, so idle hosts can be forgotten. */
  pending: number;
}

/**
 * A FIFO queue per host (URL host including port): at most one task in flight per host, and a
 * minimum gap between the end of one task and the start of the next. Waiting happens inside the
 * host's own queue, so a slow or throttled host never delays another host.
 */
export class HostScheduler implements HostGate {
  private readonly hosts = new Map<string, HostState>();

  /**
   * Run `task` once `host` is free, at least `delayMs` after the previous task for that host ended
   * and not before any hold-off set by {@link holdOff}. Tasks for one host run in call order.
   * The delay is the caller's: fetchers with different settings (or a robots.txt Crawl-delay) can
   * share one queue, and each request waits the gap it needs.
   */
  async run<T>(host: string, delayMs: number, task: () => Promise<T>): Promise<T> {
    const state = this.state(host);
    const previous = state.tail;
    let release!: () => void;
    state.tail = new Promise<void>((resolve) => (release = resolve));
    state.pending++;
    try {
      await previous;
      // Re-read after waiting: holdOff may have been raised while we were queued.
      for (;;) {
        const wait = Math.max(state.lastEnd + delayMs, state.holdUntil) - performance.now();
        if (wait <= 0) break;
        await sleep(wait);
      }
      try {
        return await task();
      } finally {
        state.lastEnd = performance.now();
      }
    } finally {
      state.pending--;
      release();
      this.prune();
    }
  }

  /**
   * Ask every fetcher sharing this scheduler to leave `host` alone for `ms` (the host sent
   * Retry-After or throttled us). Only ever extends an existing hold-off.
   */
  holdOff(host: string, ms: number): void {
    const state = this.state(host);
    state.holdUntil = Math.max(state.holdUntil, performance.now() + ms);
  }

  /** Milliseconds left of the hold-off on `host` (0 when none). */
  holdOffRemaining(host: string): number {
    const state = this.hosts.get(host);
    return state ? Math.max(0, state.holdUntil - performance.now()) : 0;
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { tail: Promise.resolve(), lastEnd: -Infinity, holdUntil: -Infinity, pending: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }

  /**
   * Forget idle hosts once the map grows large, so a long-running process that follows links to
   * many hosts does not grow without bound. An hour is far above any delay or hold-off we honour.
   */
  private prune(): void {
    if (this.hosts.size < 1000) return;
    const now = performance.now();
    for (const [host, s] of this.hosts) {
      if (s.pending === 0 && s.holdUntil <= now && now - s.lastEnd > 3_600_000) this.hosts.delete(host);
    }
  }
}

/** The scheduler every fetcher uses unless given another: one per process, as hosts see us. */
export const defaultHostScheduler = new HostScheduler();

/** The politeness key of a URL: its host including a non-default port. */
export function hostKey(url: string | URL): string {
  return (typeof url === "string" ? new URL(url) : url).host;
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
