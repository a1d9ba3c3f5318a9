/**
 * The parse thread's side of ./off-thread.ts: the module each parse thread loads, which answers
 * the crawl's requests by running the named parser of ./parsers.ts. The crawl's side imports
 * nothing from here; {@link enableParseThreads} tells it this module's address, the only link.
 *
 * The CLI build makes this module an entry of its own (scripts/build-cli.mjs), so that a thread
 * loads a file that holds it, not a shared chunk.
 */
import { parentPort } from "node:worker_threads";
import { runParseThreads } from "./off-thread";
import type { Parsers } from "./parsers";
import { isParseThread, pack, sendError, type Reply, type Request, type Warn } from "./protocol";

/**
 * Parse on `count` worker threads from now on in this process (0: on the calling thread, and the
 * workers stop). Workers start at once, so their start-up overlaps the crawl's own.
 */
export function enableParseThreads(count: number): void {
  // `import.meta["url"]`, not `import.meta.url`: the CLI build rewrites the latter to the source
  // file's location (scripts/build-cli.mjs), and a thread must load this very module, the bundled
  // chunk in dist/ or the TypeScript source under tsx.
  runParseThreads(count, import.meta["url"]);
}

/** Serve parse requests (on a parse thread). */
function serve(): void {
  const port = parentPort!;
  // Loaded here only: the crawl's thread imports this module without the parsers it names.
  const parsers = import("./parsers").then((m) => m.parsers);
  port.on("message", (request: Request | { crash: string }) => {
    // Tests make a thread fail this way (./off-thread.ts failParseThreadForTests).
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

if (isParseThread()) serve();
