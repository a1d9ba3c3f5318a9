/**
 * What the crawl's thread and a parse thread share (./off-thread.ts sends requests, ./thread.ts
 * answers them): the parser names, the messages, and how a parsed value and an error cross
 * threads. A leaf: it imports neither side, so neither imports the other's imports.
 */
import { isMainThread, workerData } from "node:worker_threads";
import * as errorClasses from "../errors";
import { readText, rememberText } from "../text";

/**
 * The parsers that may run off the crawl's thread. ./parsers.ts maps each name to its function
 * (and fails to compile when a name is missing there or one is added); the adapters pass the same
 * function with its name, which test/integration/adapters/parse-threads.test.ts checks.
 */
export type ParserName =
  "discuzList" | "discuzThread" | "discuzCommentMore" | "tiebaList" | "tiebaThread" | "blogListing" | "blogArticle" | "blogFeed" | "blogFeedLinks" | "archive";

/** Marks a worker started by ./off-thread.ts (its `workerData`). */
export const WORKER_MARK = "campuswatchParseThread";

/** True on a parse thread (a worker started by ./off-thread.ts). */
export function isParseThread(): boolean {
  return !isMainThread && Boolean((workerData as Record<string, unknown> | null)?.[WORKER_MARK]);
}

/** Where a detached string argument was (see {@link pack}). */
const ARG_KEY = "__cwParseArg";
/** Strings shorter than this travel back as they are: only pages are worth the walk. */
const DETACH_MIN_LENGTH = 256;

/** A parser's `warn` callback (a field it could not read). */
export type Warn = (warning: unknown) => void;

/** `warnAt`: arguments whose `warn` option was left behind; `warnFnAt`: arguments that were a warn callback themselves. */
export type Request = { id: number; name: ParserName; args: unknown[]; warnAt: number[]; warnFnAt: number[] };
/** An error as it crosses threads: its class by name (`cls`, the constructor's: `name` may differ), its fields. */
export type SentError = { cls: string; name: string; message: string; stack?: string; props: Record<string, unknown> };
export type Reply = { id: number; warnings: { at: number; warning: unknown }[] } & (
  { ok: true; value: unknown; texts: (string | null)[] } | { ok: false; error: SentError }
);

/** The text of an item's HTML, or null where reading it throws (the store then reads it, and meets the error there, as before). */
function textOrNull(html: string): string | null {
  try {
    return readText(html);
  } catch {
    return null;
  }
}

/** An item of a parsed page: it has a platform id and the HTML whose text the store reads. */
function isItem(o: Record<string, unknown>): o is { html: string; platformId: string } {
  return typeof o.html === "string" && typeof o.platformId === "string";
}

/**
 * Prepare a parser's value to travel: every `body` that is one of the (long) string arguments
 * becomes an empty string and the argument's index (the caller has that string already), and the
 * text of every item's HTML is read here (the store reads it next, on the crawl's thread). Returns
 * the texts in the order {@link unpack} meets the items.
 */
export function pack(value: unknown, args: unknown[]): (string | null)[] {
  const strings = args.map((a) => (typeof a === "string" && a.length >= DETACH_MIN_LENGTH ? a : null));
  const texts: (string | null)[] = [];
  walk(value, (o) => {
    if (isItem(o)) texts.push(textOrNull(o.html));
    const body = o.body;
    if (typeof body !== "string" || body.length < DETACH_MIN_LENGTH) return;
    const at = strings.indexOf(body);
    if (at < 0) return;
    o.body = "";
    o[ARG_KEY] = at;
  });
  return texts;
}

/** Undo {@link pack} with the caller's own arguments, and remember the items' texts (../text.ts). */
export function unpack(value: unknown, texts: readonly (string | null)[], args: unknown[]): unknown {
  let next = 0;
  walk(value, (o) => {
    if (isItem(o) && next < texts.length) {
      const text = texts[next++];
      if (text !== null && text !== undefined) rememberText(o.html, text);
    }
    const at = o[ARG_KEY];
    if (typeof at !== "number") return;
    o.body = args[at];
    delete o[ARG_KEY];
  });
  return value;
}

/** Visit every plain object and array element under `value` once. */
function walk(value: unknown, visit: (o: Record<string, unknown>) => void, seen = new Set<object>()): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const v of value) walk(v, visit, seen);
    return;
  }
  if (!isPlainObject(value)) return;
  visit(value);
  for (const v of Object.values(value)) walk(v, visit, seen);
}

/** An object made by a literal (or with no prototype): the only kind whose fields are walked and whose `warn` is taken out. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** An error as it can cross threads: its class name and every field that can be cloned. */
export function sendError(e: unknown): SentError {
  if (!(e instanceof Error)) return { cls: "Error", name: "Error", message: String(e), props: {} };
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    try {
      structuredClone(v);
      props[k] = v;
    } catch {
      // A field that cannot travel is left behind.
    }
  }
  return { cls: e.constructor.name, name: e.name, message: e.message, stack: e.stack, props };
}

/** The crawler's own error classes by name, so an error thrown on a parse thread keeps its class. */
const KNOWN_ERRORS = new Map<string, new (...args: never[]) => Error>(
  (Object.values(errorClasses) as unknown[])
    .filter((c): c is new (...args: never[]) => Error => typeof c === "function" && (c as { prototype: unknown }).prototype instanceof Error)
    .map((c) => [c.name, c]),
);

/** The error {@link sendError} sent, with its class again when it is one of the crawler's or a global one. */
export function rebuildError({ cls: className, name, message, stack, props }: SentError): Error {
  const cls = KNOWN_ERRORS.get(className) ?? (globalThis as Record<string, unknown>)[className];
  const proto =
    typeof cls === "function" && (cls as { prototype: unknown }).prototype instanceof Error ? (cls as { prototype: object }).prototype : Error.prototype;
  const e = Object.create(proto) as Error;
  Object.defineProperty(e, "message", { value: message, writable: true, configurable: true });
  if (stack !== undefined) Object.defineProperty(e, "stack", { value: stack, writable: true, configurable: true });
  Object.assign(e, props);
  if (e.name !== name) Object.defineProperty(e, "name", { value: name, writable: true, configurable: true });
  return e;
}
