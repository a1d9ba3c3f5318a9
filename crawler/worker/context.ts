/**
 * What one crawl of one account carries through its parts (list walk, threads, commits,
 * deletions): the services, the adapter and its context, the run's counters and how to record
 * a problem on it.
 */
import type { Adapter, AdapterContext, Fetcher } from "../types";
import type { NewThreadMark, StoredPost } from "../store";
import type { RunSummary, WorkerServices } from "../worker";

/** One crawl in progress: built by crawlAccount, passed to every part of the worker. */
export interface Crawl {
  services: WorkerServices;
  adapter: Adapter;
  ctx: AdapterContext;
  accountId: number;
  s: RunSummary;
  /** Record an error on the run; `fallbackUrl` is used only when the error names no URL itself. */
  record: (e: unknown, fallbackUrl?: string) => void;
  /** The account's fetcher when OCR is on for it, else null. */
  ocrFetch: Fetcher | null;
  /** Reply pages one thread may cost per run (forums resume the rest on the next run). */
  pageBudget: number;
  /** The store's clock (services.now). */
  now: () => Date;
  /**
   * Posts stored as created or changed and not classified yet (they wait in UnclassifiedPost too):
   * classified a batch at a time (./commit.ts), and whatever is left when the crawl ends.
   */
  toClassify: { ids: number[]; posts: StoredPost[] };
  /**
   * The batches handed to the classifier, judged one after another while the walk goes on (the
   * segmentation runs on the jieba thread); awaited before the run is recorded.
   */
  classifying: { chain: Promise<void>; batches: number };
  /** First marks of threads read to their end, written together once their list page is done (./walk.ts). */
  newMarks: NewThreadMark[];
}

/** Add a line to the run's note (unfinished threads, bounded comment flows, deletions). */
export function note(c: Crawl, line: string): void {
  c.s.notes.push(line);
  c.services.onProgress?.(line);
}
