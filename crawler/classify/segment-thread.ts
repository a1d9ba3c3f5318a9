/**
 * jieba on its own thread, for the crawler. Loading jieba's dictionaries takes about half a second
 * of CPU and cutting every stored post adds more; on the crawler's one JavaScript thread, that
 * time is taken from fetching, parsing and storing. On a worker thread it runs on another core
 * while the crawl goes on, and the main thread never loads jieba at all (its dictionaries cost
 * about 220 MiB per copy, so there is only ever one copy in a crawling process).
 *
 * The tokens are exactly those of the synchronous {@link segment}: the worker returns jieba's raw
 * output and the filters are the same functions (tokenizer.ts's keepTokens/keepTagged); the user
 * words reach the worker before every request that follows a change (tokenizer.ts keeps the
 * wanted set and its generation). Turned on with {@link enableSegmentThread} (the crawler does when
 * CAMPUSWATCH_JIEBA_THREAD=1); off, everything runs on the calling thread as before.
 */
import { Worker } from "node:worker_threads";
import { classifyFile } from "./data-file";
import type { PreparedText } from "./features";
import { cleanText } from "./text-clean";
import { keepTagged, keepTokens, jiebaLoadOptions, segment, userDictionaryState, USER_WORD_TAG, type SegmentOptions } from "./tokenizer";

type Reply = { id: number; tokens?: string[][]; tagged?: { word: string; tag: string }[][]; error?: string };
type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };

let enabled = false;
let worker: Worker | null = null;
/** The user-word generation the current worker was sent last (-1: none yet). */
let sentGeneration = -1;
let nextId = 1;
const pending = new Map<number, Pending>();

/**
 * Segment on the jieba thread from now on in this process ({@link segmentMany}); `false` goes back
 * to the calling thread and stops the worker. The crawler turns it on when CAMPUSWATCH_JIEBA_THREAD=1
 * (crawler/runtime.ts).
 */
export function enableSegmentThread(on = true): void {
  enabled = on;
  if (!on) void stopSegmentThread();
}

/** Whether {@link segmentMany} uses the jieba thread. */
export function segmentThreadEnabled(): boolean {
  return enabled;
}

/** Stop the worker (it is started again when next needed). Pending requests fail. */
export async function stopSegmentThread(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

/** The worker's file; null (a bundle without the sources beside it) means segmenting here. */
let workerFile: string | null | undefined;

function start(file: string): Worker {
  const w = new Worker(file, {
    workerData: { load: jiebaLoadOptions(), tag: USER_WORD_TAG },
    // Its own name in profiles and `top -H`.
    name: "campuswatch jieba",
  });
  sentGeneration = -1;
  w.on("message", (r: Reply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (pending.size === 0) w.unref();
    p.resolve(r);
  });
  const fail = (e: Error) => {
    if (worker === w) worker = null;
    const all = [...pending.values()];
    pending.clear();
    for (const p of all) p.reject(e);
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`the jieba thread stopped (exit code ${code})`)));
  // Idle, it must not keep the process alive; it is ref'd while a request is out.
  w.unref();
  return w;
}

function request(file: string, texts: readonly string[], tag: boolean): Promise<Reply> {
  worker ??= start(file);
  const w = worker;
  const { words, generation } = userDictionaryState();
  const id = nextId++;
  const msg: { id: number; texts: readonly string[]; tag: boolean; words?: string[] } = { id, texts, tag };
  // The words travel only after a change: the worker keeps them between requests.
  if (generation !== sentGeneration) {
    msg.words = [...words];
    sentGeneration = generation;
  }
  return new Promise<Reply>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage(msg);
  });
}

/**
 * {@link segment} of each of `cleaned` (texts already through cleanText), on the jieba thread when
 * it is on, else here. Same tokens either way.
 */
export async function segmentMany(cleaned: readonly string[], options: SegmentOptions = {}): Promise<string[][]> {
  if (enabled && workerFile === undefined) workerFile = classifyFile("jieba-thread.mjs");
  if (!enabled || !workerFile || cleaned.every((t) => t === "")) return cleaned.map((t) => segment(t, options));
  const reply = await request(workerFile, cleaned, options.nounsOnly === true);
  if (reply.error !== undefined) throw new Error(`jieba thread: ${reply.error}`);
  if (options.nounsOnly) return reply.tagged!.map((t) => keepTagged(t, options));
  return reply.tokens!.map((t) => keepTokens(t, options));
}

/** prepareText (./features.ts) of each of `raws`, segmented as {@link segmentMany} does. */
export async function prepareTexts(raws: readonly string[], options: SegmentOptions = {}): Promise<PreparedText[]> {
  const cleaned = raws.map((r) => cleanText(r));
  const tokens = await segmentMany(cleaned, options);
  return cleaned.map((c, i) => ({ cleaned: c, tokens: tokens[i]! }));
}
