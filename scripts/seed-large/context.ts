/**
 * What every part of the large seed shares: the database being filled, the clock, the one
 * deterministic random stream and the ids of the rows the other rows point at.
 */
import type Database from "better-sqlite3";

/** A seeded random stream; the same seed gives the same database. */
export interface Random {
  // Properties, not methods: callers destructure them (`const { rand } = ctx.random`).
  /** Uniform in [0, 1). */
  rand: () => number;
  pick: <T>(xs: readonly T[]) => T;
  chance: (p: number) => boolean;
  /** Uniform in [a, b). */
  between: (a: number, b: number) => number;
}

/**
 * A mulberry32 stream. Every part draws from this one stream in a fixed order, which is what keeps
 * two runs with the same `--seed` (on SQLite or PostgreSQL) identical: a part must not draw more or
 * fewer numbers, or in another order, without changing every row after it.
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  function rand(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const chance = (p: number) => rand() < p;
  const between = (a: number, b: number) => a + rand() * (b - a);
  return { rand, pick, chance, between };
}

/** A date as the Prisma SQLite adapter writes it (ISO-8601 text with an explicit offset). */
export const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** The seed's shared state, passed to each part. */
export interface SeedContext {
  db: Database.Database;
  random: Random;
  /** The seed's "now": the last day ends here. */
  now: number;
  /** Asia/Shanghai midnight of the first day. */
  start: number;
  days: number;
  /** Row ids of ACCOUNTS and TOPICS (./campus), in the same order. */
  accountIds: number[];
  topicIds: number[];
  /** The reviewer whose decisions appear on older flags. */
  reviewerId: number;
}
