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
 * {@link offThread} runs one parser: on a worker when ./thread.ts `enableParseThreads` turned them
 * on (crawler/runtime.ts does, see `CAMPUSWATCH_PARSE_THREADS`), else on the calling thread. The
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
 *
 * This module is the crawl's side (the adapters import it); ./thread.ts is the parse thread's, and
 * ./protocol.ts what both share. This one imports neither ./thread.ts nor ./parsers.ts, which
 * import the adapters: there is no import cycle. It learns which module a thread loads from
 * ./thread.ts itself ({@link runParseThreads}).
 */
import { Worker } from "node:worker_threads";
import { profileFigure } from "../profile";
import { isParseThread, isPlainObject, rebuildError, unpack, WORKER_MARK, type ParserName, type Reply, type Request, type Warn } from "./protocol";

export type { ParserName } from "./protocol";
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
/** The module a parse thread loads (./thread.ts, as source or as the CLI build's chunk). */
let threadModule: string | null = null;
const threads: Thread[] = [];
let nextId = 1;
/** Requests answered by a parse thread, and requests parsed here after their thread was gone. */
const stats = { answered: 0, fellBack: 0 };

/**
 * Parse on `count` worker threads from now on in this process (0: on the calling thread, and the
 * workers stop), each loading `module` (a URL). Workers start at once, so their start-up overlaps
 * the crawl's own. Called by ./thread.ts `enableParseThreads`, which names itself.
 */
export function runParseThreads(count: number, module: string): void {
  threadModule = module;
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
export function offThread<F extends (...args: never[]) => unknown>(name: ParserName, fn: F, ...args: Parameters<F>): Promise<ReturnType<F>> {
  const thread = pick();
  if (!thread) return inline(fn, args);
  const warns = new Map<number, Warn>();
  const warnFnAt: number[] = [];
  const sent = (args as unknown[]).map((a, i) => {
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

/** Start a parse thread on {@link threadModule}: the TypeScript source under tsx (tests, `CAMPUSWATCH_CLI_SOURCE`), or the CLI build's chunk. */
function start(): Thread {
  const script = threadModule!;
  const bootstrap = script.endsWith(".ts")
    ? `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(script)}); })`
    : `import(${JSON.stringify(script)})`;
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

// With CAMPUSWATCH_PROFILE=1, a crawl's figures say how its pages were parsed.
if (!isParseThread()) profileFigure("parseThreads", () => ({ threads: parseThreadCount(), ...parseThreadStats() }));
