/**
 * What one crawl of one account carries through its parts (list walk, threads, commits,
 * deletions): the services, the adapter and its context, the run's counters and how to record
 * a problem on it.
 */
import type { Db } from "../../lib/db";
import type { PoliteFetcher, RequestInfo, RobotsPolicy } from "../fetch";
import type { Ocr } from "../ocr";
import type { RunSummary } from "../runs";
import type { Adapter, AdapterContext, FetchMode, Fetcher } from "../types";
import type { NewThreadMark, StoredPost } from "../store";

/** Services a crawl needs; the caller owns their lifetime. */
export interface WorkerServices {
  db: Db;
  /** Creates the fetcher for one account (one browser context per account). */
  createFetcher: (
    account: {
      id: number;
      fetchMode: FetchMode;
      entryUrl?: string;
      /** Where the entry host resolved when registered (Account.addressClass; null: not yet known). */
      addressClass?: string | null;
      robotsPolicy?: RobotsPolicy;
    },
    onRequest: (r: RequestInfo) => void,
  ) => PoliteFetcher;
  /**
   * Classify new or changed posts and dequeue them from UnclassifiedPost (classifyPosts); omitted
   * in storage-only tests. `posts` are the posts as the store wrote them, so they need not be read
   * again (absent for posts left queued by an earlier run).
   */
  classify?: (db: Db, postIds: number[], posts?: readonly StoredPost[]) => Promise<unknown>;
  /** The crawl's clock. @default () => new Date() */
  now?: () => Date;
  /** Where raw pages are archived; null disables the archive. */
  archiveDir?: string | null;
  /** Progress lines for the CLI. */
  onProgress?: (message: string) => void;
  /** Abort between pages (SIGTERM): the current page's transaction finishes first. */
  signal?: AbortSignal;
  /** Reads text in images for accounts with OCR on (crawler/ocr.ts). */
  ocr?: Ocr;
  /**
   * Ask for the delivery of the run's new flags (lib/notify), batched per run: the runtime queues
   * a `notifyRun` job (crawler/jobs/). Called, and awaited, once the run is recorded; a worker
   * sends them, so a slow webhook never holds up crawling.
   */
  notify?: (db: Db, crawlRunId: number) => Promise<unknown>;
  /**
   * Reply pages one thread may cost per run. A forum thread longer than this is read over several
   * runs (resumed where the last one stopped; the run is "partial" meanwhile); Weibo's comment
   * flow is read this far. @default CAMPUSWATCH_THREAD_PAGE_BUDGET, else 50
   */
  threadPageBudget?: number;
}

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
  /** Posts this run marked deleted (ids): their deletion notices are queued when the run ends (./deletions.ts). */
  deleted: number[];
}

/** Add a line to the run's note (unfinished threads, bounded comment flows, deletions). */
export function note(c: Crawl, line: string): void {
  c.s.notes.push(line);
  c.services.onProgress?.(line);
}
