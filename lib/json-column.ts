/**
 * The one reader of JSON kept in text columns (topic word lists, run errors, flag reasons,
 * evaluations, resume marks, cookie summaries…). Such a column is written by this program, but a
 * hand edit, an older version or a half-finished migration can leave anything in it; a page or a
 * crawl must not crash on that, so a bad value reads as the caller's fallback.
 *
 * Network bodies and uploaded files are not columns: their parsers report what is wrong instead.
 */
import { z } from "zod";

/** Any JSON value: for callers that check the shape themselves or keep the value as it is. */
export const anyJson = z.unknown();

/** A JSON array whose items are checked by the caller. */
export const jsonArray = z.array(z.unknown());

/**
 * The value of a JSON text column checked against `schema`, or `fallback` when the text is
 * missing or empty, is not JSON, or does not have the shape. Never throws.
 *
 * @example parseJsonColumn(run.errors, jsonArray, []) // the run's errors, [] when unreadable
 */
export function parseJsonColumn<S extends z.ZodType>(text: string | null | undefined, schema: S, fallback: z.output<S>): z.output<S>;
export function parseJsonColumn<S extends z.ZodType, F>(text: string | null | undefined, schema: S, fallback: F): z.output<S> | F;
export function parseJsonColumn<S extends z.ZodType, F>(text: string | null | undefined, schema: S, fallback: F): z.output<S> | F {
  if (!text) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fallback;
  }
  const checked = schema.safeParse(value);
  return checked.success ? checked.data : fallback;
}
