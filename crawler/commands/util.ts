/** Small helpers shared by the CLI commands. */
import { InvalidArgumentError } from "commander";
import type { Db } from "../../lib/db";
import type { JobView } from "../jobs";
import { maskCredentialsIn } from "../../lib/mask";
import { parseDuration } from "../../lib/time";

/** commander argument parser for a non-negative integer option. */
export function intOption(name: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

/**
 * commander argument parser for a duration in whole seconds: `90`, `90s`, `5m`, `2h`, `1d`
 * (a bare number is seconds).
 */
export function durationOption(name: string) {
  return (value: string): number => {
    const seconds = parseDuration(value);
    if (seconds === null) throw new InvalidArgumentError(`${name} must be a duration like 90s, 5m, 2h or 1d`);
    return seconds;
  };
}

/** commander argument parser for a number from 0 to 1 (a threshold). */
export function thresholdOption(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
    return n;
  };
}

/** commander argument parser for a comma-separated list. */
export function listOption(value: string): string[] {
  return value
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The process-wide database client (lib/db), loaded when a command first needs it: loading Prisma is most of a start-up. */
export async function loadDb(): Promise<Db> {
  return (await import("../../lib/db")).db;
}

/**
 * Run a command body and turn expected failures into a one-line message and exit code 1
 * (a stack trace is for bugs, not for bad input).
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (e) {
      const err = e as Error;
      // By name, not instanceof: lib/validation (zod) is not loaded just to start the CLI, and
      // ValidationError's subclasses keep its name.
      const expected = err.name === "ValidationError" || err.name === "UserInputError" || err.name === "DuplicateUserError";
      // The last net: a message that quotes a URL (a proxy's, the database's) never shows its password.
      console.error(`campuswatch: ${maskCredentialsIn(err.message)}`);
      if (!expected && process.env.CAMPUSWATCH_DEBUG) console.error(maskCredentialsIn(err.stack ?? ""));
      process.exitCode = 1;
    }
  };
}

/** An error in what the user asked for (shown without a stack trace). */
export class UserInputError extends Error {
  override name = "UserInputError";
}

/**
 * The CLI's refusal to run a job while another job of the same key is queued or running (a
 * dashboard's training of the topic, another terminal's discovery): it says which job holds the
 * key and how to follow it, and asks the user to run the command again once it has finished.
 * Refusing, rather than waiting, keeps a command from blocking for as long as someone else's job runs.
 */
export function jobRefusal(what: string, job: JobView): UserInputError {
  const who = job.requestedBy !== null ? "asked for from the dashboard" : "asked for from the command line or by the scheduler";
  return new UserInputError(
    `${what} already has a ${job.kind} job ${job.status} (job ${job.id}, ${who}): run this again when it has finished (campuswatch jobs show ${job.id})`,
  );
}
