/**
 * The local platforms' clock: every date they print, and every post's visibility, is relative to
 * it, and only the test moves it — never the wall clock.
 */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** The clock's start unless a test gives one: Sunday 12:00 in Shanghai. */
export const DEFAULT_NOW = new Date("2025-06-15T04:00:00Z");

/** The test's clock: every date the platforms print is relative to it. */
export interface Clock {
  now(): Date;
  set(at: Date): void;
  advance(ms: number): Date;
}

/** A clock standing at `start` until the test sets or advances it. */
export function createClock(start: Date): Clock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (at) => {
      t = at.getTime();
    },
    advance: (ms) => {
      t += ms;
      return new Date(t);
    },
  };
}
