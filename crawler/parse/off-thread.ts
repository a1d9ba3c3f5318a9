/**
 * Page parsing on worker threads, for the crawler.
 *
 * A crawl keeps one JavaScript thread busy: a CPU profile of `crawl once` (bench:crawl-vs-crawlee)
 * showed the main thread idle 2.5% of the time while a quarter of it went to parsing pages
 * (parse5 through cheerio) and running the adapters' selectors over them, and the machine had a
 * core to spare. The adapters' page parsers are pure functions of the page (HTML, URL, the
 * crawl's clock, plain options → plain data), so a worker can run them while the main thread
 * fetches, stores and classifies other accounts' pages.
 *
 * {@link offThread} runs one parser: on a worker when {@link enableParseThreads} turned them on
 * (crawler/runtime.ts does, see `CAMPUSWATCH_PARSE_THREADS`), else on the calling thread. The
 * result is the same either way:
 * - The worker runs the very function the caller names: ./parsers.ts lists them, and a test checks
 *   that every name there is the function the adapters pass.
 * - An option's `warn` callback cannot cross threads: the worker records the warnings and they are
 *   replayed, in order, before the result (or the error) reaches the caller.
 * - Errors keep their class (NonRetryableError, GoneError…: the worker runs on them) and fields.
 * - The page's HTML does not travel back: a parsed item's `source.body` is the page, so the worker
 *   sends an index instead and the caller's own string is put back, the same string as inline.
 * - Whatever cannot be sent (a worker that failed, an option that cannot be cloned) is parsed here.
 * - The worker also reads the text of every item it parsed (../text.ts `htmlToText`, a function of
 *   the HTML alone), which the store would read next on the crawl's thread: it finds it remembered.
 *
 * One entry of ./parsers.ts is not a parser: the raw archive's write (../archive.ts `archiveSync`),
 * which also wants a thread that is not the crawl's (a file written in one go, not five round trips
 * through libuv's pool that each wait for the busy crawl thread).
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import * as errorClasses from "../errors";
import { profileFigure } from "../profile";
import { readText, rememberText } from "../text";
import type { Parsers } from "./parsers";

/** The parsers that may run off the main thread (./parsers.ts). */
export type ParserName = keyof Parsers;

/** Marks a worker started by this module (its `workerData`). */
const WORKER_MARK = "campuswatchParseThread";
/** Where a detached string argument was (see {@link pack}). */
const ARG_KEY = "__cwParseArg";
/** Strings shorter than this travel back as they are: only pages are worth the walk. */
const DETACH_MIN_LENGTH = 256;

/** `warnAt`: arguments whose `warn` option was left behind; `warnFnAt`: arguments that were a warn callback themselves. */
type Request = { id: number; name: ParserName; args: unknown[]; warnAt: number[]; warnFnAt: number[] };
/** An error as it crosses threads: its class by name (`cls`, the constructor's: `name` may differ), its fields. */
type SentError = { cls: string; name: string; message: string; stack?: string; props: Record<string, unknown> };
type Reply = { id: number; warnings: { at: number; warning: unknown }[] } & (
  { ok: true; value: unknown; texts: (string | null)[] } | { ok: false; error: SentError }
);
type Warn = (warning: unknown) => void;
type Pending = {
  name: ParserName;
  fn: (...args: never[]) => unknown;
  args: unknown[];
  warns: Map<number, Warn>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};

/** A parse worker and the requests it has not answered yet. */
type Thread = { worker: Worker; pending: Map<number, Pending>; dead: boolean };

let wanted = 0;
const threads: Thread[] = [];
let nextId = 1;
/** Requests answered by a parse thread, and requests parsed here after their thread was gone. */
const stats = { answered: 0, fellBack: 0 };

/**
 * Parse on `count` worker threads from now on in this process (0: on the calling thread, and the
 * workers stop). Workers start at once, so their start-up overlaps the crawl's own.
 */
export function enableParseThreads(count: number): void {
  wanted = Math.max(0, Math.floor(count));
  while (threads.length > wanted) void stop(threads.at(-1)!);
  while (threads.length < wanted) threads.push(start());
}

/** The number of parse threads in use (0: parsing runs on the calling thread). */
export function parseThreadCount(): number {
  return threads.length;
}

/** How many requests parse threads answered, and how many were parsed here after their thread was gone (since the process started). */
export function parseThreadStats(): { answered: number; fellBack: number } {
  return { ...stats };
}

/**
 * Make the first parse thread fail as a crash would (an uncaught error on it), for tests of what
 * follows: its requests are parsed here, and the next request starts a thread again.
 */
export function failParseThreadForTests(message = "a crash for a test"): void {
  threads[0]?.worker.postMessage({ crash: message });
}

/** Stop every parse thread; requests still out are parsed on the calling thread. */
export async function stopParseThreads(): Promise<void> {
  wanted = 0;
  await Promise.all([...threads].map(stop));
}

/**
 * Run the parser `name` (which is `fn`, as ./parsers.ts lists it) on `args`: on a parse thread when
 * they are on, else here. Same result, warnings and errors either way (see the module comment).
 */
export function offThread<N extends ParserName>(name: N, fn: Parsers[N], ...args: Parameters<Parsers[N]>): Promise<ReturnType<Parsers[N]>> {
  const thread = pick();
  if (!thread) return inline(fn, args);
  const warns = new Map<number, Warn>();
  const warnFnAt: number[] = [];
  const sent = args.map((a, i) => {
    if (typeof a === "function") {
      // A warn callback passed as an argument of its own (the feed reader's).
      warns.set(i, a as Warn);
      warnFnAt.push(i);
      return null;
    }
    const warn = (a as { warn?: unknown } | null)?.warn;
    if (typeof warn !== "function" || !isPlainObject(a)) return a;
    warns.set(i, warn as Warn);
    const { warn: _warn, ...rest } = a;
    return rest;
  });
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const request: Request = { id, name, args: sent, warnAt: [...warns.keys()].filter((i) => !warnFnAt.includes(i)), warnFnAt };
    try {
      thread.worker.postMessage(request);
    } catch {
      // An argument that cannot be cloned (a caller's own iterable, say): parse here.
      inline(fn, args).then(resolve, reject);
      return;
    }
    thread.pending.set(id, { name, fn: fn, args, warns, resolve: resolve as Pending["resolve"], reject });
    if (thread.pending.size === 1) thread.worker.ref();
  });
}

/** Parse here; a throw becomes the promise's rejection, as a parser called in an async function. */
function inline<F extends (...args: never[]) => unknown>(fn: F, args: unknown[]): Promise<ReturnType<F>> {
  return new Promise((resolve) => resolve(fn(...(args as never[])) as ReturnType<F>));
}

/** The live thread with the fewest requests out, or null (none: parse here). */
/** Threads started again after one stopped on its own; a few at most, so a thread that keeps failing does not keep restarting. */
let restarts = 0;
const MAX_RESTARTS = 3;

function pick(): Thread | null {
  // A thread that stopped on its own (see retire) is started again, within MAX_RESTARTS.
  while (threads.length < wanted && restarts < MAX_RESTARTS) {
    restarts++;
    threads.push(start());
  }
  let best: Thread | null = null;
  for (const t of threads) if (!t.dead && (!best || t.pending.size < best.pending.size)) best = t;
  return best;
}

function start(): Thread {
  // `import.meta["url"]`, not `import.meta.url`: the CLI build rewrites the latter to the source
  // file's location (scripts/build-cli.mjs), and the worker must load this very module, the
  // bundled chunk in dist/ or the TypeScript source under tsx (tests, `CAMPUSWATCH_CLI_SOURCE`).
  const self = import.meta["url"];
  const bootstrap = self.endsWith(".ts")
    ? `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(self)}); })`
    : `import(${JSON.stringify(self)})`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { [WORKER_MARK]: true }, name: "campuswatch parse" });
  const thread: Thread = { worker, pending: new Map(), dead: false };
  worker.on("message", (reply: Reply) => settle(thread, reply));
  worker.on("error", (e) => {
    // Said once on stderr: the crawl goes on, parsing here (or on a restarted thread).
    if (!thread.dead) console.error(`campuswatch: a parse thread failed (${e.message}); its pages are parsed on the crawl's thread`);
    retire(thread);
  });
  worker.on("exit", () => retire(thread));
  // Idle, it must not keep the process alive; it is ref'd while a request is out.
  worker.unref();
  return thread;
}

/**
 * Take a thread out of use (it failed, exited or is being stopped). Parsers are pure: what it did
 * not answer is parsed here, so nothing is lost.
 */
function retire(thread: Thread): void {
  thread.dead = true;
  const index = threads.indexOf(thread);
  if (index >= 0) threads.splice(index, 1);
  const left = [...thread.pending.values()];
  thread.pending.clear();
  stats.fellBack += left.length;
  for (const p of left) inline(p.fn, p.args).then(p.resolve, p.reject);
}

async function stop(thread: Thread): Promise<void> {
  thread.dead = true;
  const index = threads.indexOf(thread);
  if (index >= 0) threads.splice(index, 1);
  await thread.worker.terminate();
  retire(thread);
}

function settle(thread: Thread, reply: Reply): void {
  const p = thread.pending.get(reply.id);
  if (!p) return;
  thread.pending.delete(reply.id);
  stats.answered++;
  if (thread.pending.size === 0) thread.worker.unref();
  try {
    for (const { at, warning } of reply.warnings) p.warns.get(at)?.(warning);
  } catch (e) {
    // As inline: a warn callback that throws ends the parse with its error.
    p.reject(e);
    return;
  }
  if (reply.ok) p.resolve(unpack(reply.value, reply.texts, p.args));
  else p.reject(rebuildError(reply.error));
}

// ---- The worker's side ----

/** Serve parse requests (in a worker started by {@link start}). */
function serve(): void {
  const port = parentPort!;
  const parsers = import("./parsers").then((m) => m.parsers);
  port.on("message", (request: Request | { crash: string }) => {
    // Tests make a thread fail this way ({@link failParseThreadForTests}).
    if ("crash" in request) throw new Error(request.crash);
    void parsers.then((all) => port.postMessage(answer(all, request)));
  });
}

function answer(all: Parsers, { id, name, args, warnAt, warnFnAt }: Request): Reply {
  const warnings: Reply["warnings"] = [];
  for (const at of warnAt) (args[at] as { warn?: Warn }).warn = (warning) => warnings.push({ at, warning });
  for (const at of warnFnAt) args[at] = (warning: unknown) => warnings.push({ at, warning });
  try {
    const fn = all[name] as (...a: unknown[]) => unknown;
    const value = fn(...args);
    const texts = pack(value, args);
    return { id, warnings, ok: true, value, texts };
  } catch (e) {
    return { id, warnings, ok: false, error: sendError(e) };
  }
}

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
function pack(value: unknown, args: unknown[]): (string | null)[] {
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
function unpack(value: unknown, texts: readonly (string | null)[], args: unknown[]): unknown {
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

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function sendError(e: unknown): SentError {
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

function rebuildError({ cls: className, name, message, stack, props }: SentError): Error {
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

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_MARK]) serve();
// With CAMPUSWATCH_PROFILE=1, a crawl's figures say how its pages were parsed.
else profileFigure("parseThreads", () => ({ threads: parseThreadCount(), ...parseThreadStats() }));
