/** Small helpers shared by the CLI commands. */
import { InvalidArgumentError } from "commander";
import { ValidationError } from "../../lib/validation";

/** commander argument parser for a non-negative integer option. */
export function intOption(name: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
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
      const expected = err instanceof ValidationError || err.name === "UserInputError" || err.name === "DuplicateUserError";
      console.error(`campuswatch: ${err.message}`);
      if (!expected && process.env.CAMPUSWATCH_DEBUG) console.error(err.stack);
      process.exitCode = 1;
    }
  };
}

/** An error in what the user asked for (shown without a stack trace). */
export class UserInputError extends Error {
  override name = "UserInputError";
}
