/**
 * The discovery loop: URL store → URL manager → fetcher → page-type analyser → page splitter →
 * page filter → URL parser → URL filter → URL store (method.md §3), one page at a time.
 *
 * One page at a time keeps the crawl a pure function of the frontier: the next URL depends only
 * on what was fetched before, so a paused run resumes into exactly the crawl an uninterrupted run
 * makes. Politeness does not suffer: the fetcher's per-host queue holds one request per host, and
 * consecutive URLs are usually on different hosts, so the host delay rarely costs wall time.
 *
 * Persistence: the frontier, the harvest points, the candidate tallies and the run's counters are
 * written together in one transaction every `flushEvery` pages and whenever the loop stops. A
 * crash therefore loses at most the pages since the last write, and the stored state is always
 * the state after some whole page, from which the crawl replays identically.
 */
import crypto from "node:crypto";
import type { Db, Prisma } from "../../lib/db";
import { crawlerConfig, trustedHostsFromEnv } from "../../lib/config";
import { parseTrustedEntry } from "../../lib/net/address";
import { ValidationError } from "../../lib/validation";
import { cleanText, WordMatcher } from "../classify";
import { FatalError } from "../errors";
import { AddressRefusedError, createAddressPolicy, createFetcher, defaultHostScheduler, type AddressPolicy, type HostScheduler, type PoliteFetcher } from "../fetch";
import type { Fetcher, FetchResult } from "../types";
import { CandidateTally } from "./candidates";
import { Frontier, frontierWrites, loadFrontierEntries, type FrontierEntry, type FrontierState } from "./frontier";
import { parseDiscoveryOptions, type DiscoveryOptions } from "./options";
import { parsePage } from "./page";
import { analysePageType, type PageType } from "./page-type";
import { contentWords, loadTopicJudge, UrlEvidence, type TopicJudge } from "./relevance";
import { commonFilter, mergeByUrl, STRATEGIES, strategyFor, type LinkVerdict, type PageView, type Strategy, type StrategyContext, type StrategyName } from "./strategies";
import { normalizeUrl, siteOf } from "./url";

/** Time as the loop sees it (tests pass a fake one to exercise work/pause windows instantly). */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Resolve after `ms`, or earlier when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** What {@link RunDiscoveryOptions.onPage} receives after every crawled page. */
export interface PageEvent {
  runId: number;
  url: string;
  layer: number;
  /** Pages crawled so far in the run (this one included). */
  crawled: number;
  /** Relevant pages so far. */
  relevantSoFar: number;
  /** The classifier's decision on this page. */
  relevant: boolean;
  score: number;
  pageType: PageType;
  state: FrontierState;
  /** Links of this page the strategy queued (new, raised or revived). */
  queued: number;
  /** Links it rejected. */
  rejected: number;
}

/** Why a session ended. */
export type StopReason = "max-pages" | "exhausted" | "paused" | "stop-after" | "failed";

/** The outcome of a session of {@link runDiscovery}. */
export interface DiscoverySummary {
  runId: number;
  strategy: StrategyName;
  /** The run's status afterwards: "done", "paused" or "failed". */
  status: string;
  reason: StopReason;
  crawled: number;
  relevant: number;
  /** relevant / crawled (0 before the first page). */
  harvestRate: number;
  frontier: Record<FrontierState, number>;
  /** Candidate accounts proposed so far. */
  candidates: number;
  error?: string;
}

/** Options of one session of a run. */
export interface RunDiscoveryOptions {
  /**
   * Fetch through this fetcher (not closed afterwards). Its owner chose its address policy (none:
   * every address reachable), so the run's trusted hosts do not apply to it.
   * @default a fetcher from fetcherFactory
   */
  fetcher?: Fetcher;
  /**
   * Make the session's fetcher from the run's politeness settings and its address policy (the
   * seeds' hosts, the run's `trustedHosts` and CAMPUSWATCH_TRUSTED_HOSTS are trusted; other
   * internal addresses refused): pass `addressPolicy` on to createFetcher.
   * @default createFetcher
   */
  fetcherFactory?: (options: { hostDelayMs: number; scheduler: HostScheduler; addressPolicy: AddressPolicy }) => PoliteFetcher;
  /** Per-host queue shared with other crawls in the process. @default defaultHostScheduler */
  scheduler?: HostScheduler;
  /** Stop (status "paused") after this many pages in this session. @default no limit */
  stopAfter?: number;
  /** Abort to pause the run after the current page. */
  signal?: AbortSignal;
  /** Called after every crawled page (awaited). */
  onPage?: (event: PageEvent) => void | Promise<void>;
  /** The topic judge. @default the run's topic's model (or its keyword fallback) */
  judge?: TopicJudge;
  /** Pages between two writes of the frontier. @default 20 */
  flushEvery?: number;
  /** Re-read the run's status between pages, so "pause" from the dashboard stops the loop. @default true */
  pollStatus?: boolean;
  /** Take over a run marked "running" (its process died). @default false */
  force?: boolean;
  /** Called once the run is claimed (its status is "running"), before the first page. */
  onClaimed?: () => void;
  /** @default systemClock */
  clock?: Clock;
  /** Progress messages. @default none */
  log?: (message: string) => void;
}

/**
 * The run is being crawled by someone else, or does not exist. Named like the CLI's
 * UserInputError so the CLI prints it as one line, without a stack trace.
 */
export class DiscoveryBusyError extends Error {
  override name = "UserInputError";
}

/**
 * Longest time between two writes of a running run, so its `updatedAt` keeps moving (the
 * dashboard takes a "running" run that stopped moving for minutes for dead) even when pages come
 * slowly (a long host delay) or during a pause window.
 */
const HEARTBEAT_MS = 30_000;

/** What a new run is made of. */
export interface NewDiscoveryRun {
  /** Topic id or name. */
  topic: number | string;
  /** A seed set (id or name), or the seed URLs themselves (e.g. from a file). */
  seeds: { seedSet: number | string } | { urls: readonly string[] };
  /** @default "focused" */
  strategy?: StrategyName;
  /** @default 1000 */
  maxPages?: number;
  options?: Partial<Omit<DiscoveryOptions, "seeds">>;
}

/**
 * Validate and store a new run (status "paused", note "not started": {@link runDiscovery}
 * claims it). The seed URLs are normalized and snapshotted in the run's options, so later edits
 * of the seed set do not change what a resumed run does.
 * @throws ValidationError naming the field (topic, seeds, strategy, maxPages, trustedHosts).
 */
export async function createDiscoveryRun(db: Db, input: NewDiscoveryRun) {
  const strategy = input.strategy ?? "focused";
  if (!STRATEGIES.includes(strategy)) invalid("strategy", `strategy must be one of ${STRATEGIES.join(", ")}`, "discoveryStrategy", { list: STRATEGIES.join(", ") });
  const maxPages = input.maxPages ?? 1000;
  if (!Number.isInteger(maxPages) || maxPages < 1) invalid("maxPages", "max pages must be a whole number ≥ 1", "discoveryMaxPages");
  const topic =
    typeof input.topic === "number"
      ? await db.topic.findUnique({ where: { id: input.topic }, select: { id: true } })
      : await db.topic.findUnique({ where: { name: input.topic }, select: { id: true } });
  if (!topic) invalid("topic", `no topic ${JSON.stringify(input.topic)}`, "discoveryNoTopic");
  let seedSetId: number | null = null;
  let rawSeeds: readonly string[];
  if ("seedSet" in input.seeds) {
    const ref = input.seeds.seedSet;
    const set =
      typeof ref === "number"
        ? await db.seedSet.findUnique({ where: { id: ref }, include: { urls: { orderBy: { id: "asc" } } } })
        : await db.seedSet.findUnique({ where: { name: ref }, include: { urls: { orderBy: { id: "asc" } } } });
    if (!set) invalid("seeds", `no seed set ${JSON.stringify(ref)}`, "discoveryNoSeedSet");
    seedSetId = set.id;
    rawSeeds = set.urls.map((u) => u.url);
  } else {
    rawSeeds = input.seeds.urls;
  }
  const seeds: string[] = [];
  for (const s of rawSeeds) {
    const n = normalizeUrl(s);
    if (!n) invalid("seeds", `not an http(s) URL: ${JSON.stringify(s)}`, "discoverySeedUrl", { url: s });
    if (!seeds.includes(n)) seeds.push(n);
  }
  if (seeds.length === 0) invalid("seeds", "no seed URLs", "discoveryNoSeeds");
  for (const entry of input.options?.trustedHosts ?? []) {
    try {
      parseTrustedEntry(entry);
    } catch (e) {
      invalid("trustedHosts", errorMessage(e), "discoveryTrustedHost", { entry });
    }
  }
  const options = parseDiscoveryOptions(JSON.stringify({ ...input.options, seeds }));
  return db.discoveryRun.create({
    data: { topicId: topic.id, seedSetId, strategy, maxPages, options: JSON.stringify(options), status: "paused", note: "not started" },
  });
}

/** Refuse the run: `message` in English for the CLI, `code` (a `validation` message key) for the dashboard. */
function invalid(field: string, message: string, code: string, values: Record<string, string | number> = {}): never {
  throw new ValidationError(`${field}: ${message}`, { [field]: [message] }, { code, values });
}

/** Pages whose non-link text is shorter than this are judged on all their text (a hub's text is its links). */
const MIN_CONTENT_CHARS = 80;

/** Everything the loop knows besides the frontier, rebuilt from stored rows on resume. */
interface RunState {
  frontier: Frontier;
  evidence: UrlEvidence;
  tally: CandidateTally;
  /** Content checksum → the URL first crawled with it (duplicate pages are not followed again). */
  checksums: Map<string, string>;
}

async function loadState(db: Db, runId: number, options: DiscoveryOptions): Promise<RunState> {
  const stored = await loadFrontierEntries(db, runId);
  const frontier = new Frontier(stored);
  const evidence = new UrlEvidence();
  const tally = new CandidateTally({ minRelevantPages: options.candidateMinPages });
  const checksums = new Map<string, string>();
  for (const e of stored) observeStored(e, evidence, tally, checksums);
  tally.markClean();
  if (stored.length === 0) frontier.addSeeds(options.seeds);
  return { frontier, evidence, tally, checksums };
}

/** What the loop learns from a crawled page; the same on the live path and on rebuild. */
function observeStored(e: FrontierEntry, evidence: UrlEvidence, tally: CandidateTally, checksums: Map<string, string>): void {
  if (e.fetchedAt === null || e.relevant === null) return;
  evidence.observe(e.url, e.relevant);
  tally.observe(e.url, e.relevant);
  if (e.checksum && !checksums.has(e.checksum)) checksums.set(e.checksum, e.url);
}

/** The checkpoint of a page's content (method.md §4): MD5 and length of its cleaned text. */
export function contentCheckpoint(title: string, text: string): { checksum: string; length: number } {
  const cleaned = cleanText(`${title}\n${text}`);
  return { checksum: crypto.createHash("md5").update(cleaned).digest("hex"), length: cleaned.length };
}

function isHtml(res: FetchResult): boolean {
  const type = res.contentType.toLowerCase();
  if (type.includes("html")) return true;
  return type === "" && /^\s*</.test(res.body);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The parts of a page visit shared by the crawl and by revisits. */
interface Examined {
  view: PageView;
  verdicts: LinkVerdict[];
  checksum: string;
  length: number;
  finalUrl: string;
}

interface Session {
  db: Db;
  runId: number;
  strategyName: StrategyName;
  strategy: Strategy;
  options: DiscoveryOptions;
  judge: TopicJudge;
  state: RunState;
  sensitive: WordMatcher;
  sites: ReadonlySet<string> | null;
}

function examine(s: Session, entry: FrontierEntry, res: FetchResult): Examined {
  const finalUrl = normalizeUrl(res.url) ?? entry.url;
  const page = parsePage(res.body, finalUrl);
  const body = page.contentText.length >= MIN_CONTENT_CHARS ? page.contentText : page.text;
  const judgement = s.judge.judge(`${page.title}\n${body}`);
  const pageType = analysePageType(page, s.options.focused.pageType);
  const view: PageView = { url: finalUrl, layer: entry.layer, page, judgement, pageType };
  const ctx: StrategyContext = { judge: s.judge, urlEvidence: s.state.evidence, words: contentWords };
  const { candidates, rejected } = commonFilter(view, { sensitive: s.sensitive, sites: s.sites });
  const verdicts = mergeByUrl([...rejected, ...s.strategy.expand(view, candidates, ctx)]);
  const { checksum, length } = contentCheckpoint(page.title, page.text);
  return { view, verdicts, checksum, length, finalUrl };
}

/**
 * Crawl a run until it reaches its max pages, its frontier is empty, it is paused (signal, or
 * status set to "paused" by the dashboard), or `stopAfter` pages were crawled in this session.
 * Resumes from the stored frontier. Fetch failures mark the URL irrelevant and do not count as
 * crawled pages; only a FatalError or a database error fails the run (status "failed", the
 * error in its note), and the summary says so instead of throwing.
 * @throws DiscoveryBusyError when the run is running elsewhere (unless `force`).
 */
export async function runDiscovery(db: Db, runId: number, opts: RunDiscoveryOptions = {}): Promise<DiscoverySummary> {
  const run = await db.discoveryRun.findUnique({ where: { id: runId } });
  if (!run) throw new DiscoveryBusyError(`no discovery run ${runId}`);
  const strategyName = run.strategy as StrategyName;
  if (!STRATEGIES.includes(strategyName)) throw new DiscoveryBusyError(`run ${runId} has an unknown strategy "${run.strategy}"`);
  const options = parseDiscoveryOptions(run.options);
  const claimable = opts.force ? ["paused", "failed", "done", "running"] : ["paused", "failed", "done"];
  const claim = await db.discoveryRun.updateMany({
    where: { id: runId, status: { in: claimable } },
    data: { status: "running", note: "", finishedAt: null },
  });
  if (claim.count === 0) {
    throw new DiscoveryBusyError(`discovery run ${runId} is already running (if its process died, resume with --force)`);
  }
  opts.onClaimed?.();

  const log = opts.log ?? (() => undefined);
  const clock = opts.clock ?? systemClock;
  const flushEvery = Math.max(1, opts.flushEvery ?? 20);
  const pollStatus = opts.pollStatus ?? true;
  let session: Session;
  let fetcher: Fetcher;
  let ownFetcher: PoliteFetcher | null = null;
  try {
    const judge = opts.judge ?? (await loadTopicJudge(db, run.topicId)).judge;
    const state = await loadState(db, runId, options);
    session = {
      db,
      runId,
      strategyName,
      strategy: strategyFor(strategyName, options.focused),
      options,
      judge,
      state,
      sensitive: new WordMatcher(options.sensitiveWords),
      sites: options.sameSite ? new Set(options.seeds.map((u) => siteOf(u))) : null,
    };
    if (opts.fetcher) fetcher = opts.fetcher;
    else {
      const scheduler = opts.scheduler ?? defaultHostScheduler;
      const addressPolicy = runPolicy(options);
      ownFetcher = opts.fetcherFactory
        ? opts.fetcherFactory({ hostDelayMs: options.hostDelayMs, scheduler, addressPolicy })
        : defaultFetcher(options.hostDelayMs, scheduler, addressPolicy, log);
      fetcher = ownFetcher;
    }
  } catch (e) {
    await db.discoveryRun.update({ where: { id: runId }, data: { status: "failed", note: errorMessage(e).slice(0, 500) } });
    throw e;
  }

  const { frontier, evidence, tally, checksums } = session.state;
  let crawled = run.crawled;
  let relevant = run.relevant;
  let points: { crawled: number; relevant: number }[] = [];
  let sinceFlush = 0;
  let lastFlush = clock.now();

  const flush = async (final?: { status?: string; note: string; finishedAt?: Date | null }) => {
    const ops: Prisma.PrismaPromise<unknown>[] = frontierWrites(db, runId, frontier);
    if (points.length > 0) ops.push(db.harvestPoint.createMany({ data: points.map((p) => ({ runId, ...p })) }));
    for (const c of tally.takeChanged()) ops.push(candidateWrite(db, runId, c));
    ops.push(db.discoveryRun.update({ where: { id: runId }, data: { crawled, relevant, ...(final ?? {}) } }));
    await db.$transaction(ops);
    points = [];
    sinceFlush = 0;
    lastFlush = clock.now();
  };

  const externallyPaused = async (): Promise<boolean> => {
    const row = await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true } });
    return row?.status !== "running";
  };

  let reason: StopReason | null = null;
  let error: string | undefined;
  let stoppedOutside = false;
  let sessionPages = 0;
  let windowStart = clock.now();
  log(`run ${runId} (${strategyName}): ${crawled} pages crawled so far, ${frontier.counts().todo} URLs to crawl`);
  try {
    for (;;) {
      if (crawled >= run.maxPages) {
        reason = "max-pages";
        break;
      }
      if (opts.stopAfter !== undefined && sessionPages >= opts.stopAfter) {
        reason = "stop-after";
        break;
      }
      if (opts.signal?.aborted) {
        reason = "paused";
        break;
      }
      if (pollStatus && (await externallyPaused())) {
        reason = "paused";
        stoppedOutside = true;
        break;
      }
      if (options.workMs > 0 && clock.now() - windowStart >= options.workMs) {
        // Polite pause (method.md §5): write what we have, then wait without holding anything.
        await flush();
        const note = `work window over: pausing ${Math.round(options.pauseMs / 1000)} s`;
        log(`run ${runId}: ${note}`);
        const until = clock.now() + options.pauseMs;
        let beat = clock.now();
        while (clock.now() < until && !opts.signal?.aborted) {
          await clock.sleep(Math.min(1_000, until - clock.now()), opts.signal);
          if (pollStatus && (await externallyPaused())) break;
          if (clock.now() - beat >= HEARTBEAT_MS) {
            beat = clock.now();
            await db.discoveryRun.update({ where: { id: runId }, data: { note } });
          }
        }
        windowStart = clock.now();
        continue;
      }
      const entry = frontier.pop();
      if (!entry) {
        reason = "exhausted";
        break;
      }

      let res: FetchResult;
      try {
        res = await fetcher.get(entry.url, { kind: "other" });
      } catch (e) {
        if (e instanceof FatalError) throw e;
        // Unreachable (method.md §4), or refused as internal. fetchedAt marks the attempt, so no later link revives it.
        const reason = e instanceof AddressRefusedError ? e.message : `unreachable: ${errorMessage(e)}`;
        frontier.update(entry, { state: "irrelevant", reason, fetchedAt: new Date() });
        log(`  ${entry.url}: ${errorMessage(e)}`);
        continue;
      }
      if (!isHtml(res)) {
        frontier.update(entry, { state: "irrelevant", reason: `not an HTML page (${res.contentType || "no content type"})`, fetchedAt: new Date() });
        continue;
      }

      const now = new Date();
      const ex = examine(session, entry, res);
      const dup = checksums.get(ex.checksum);
      const validators = { etag: res.headers["etag"] ?? null, lastModified: res.headers["last-modified"] ?? null };
      let queued = 0;
      let rejectedCount = 0;
      let pageRelevant = ex.view.judgement.relevant;
      if (dup !== undefined && dup !== entry.url) {
        // The same content under another URL (method.md §2): crawled, but nothing new to follow.
        pageRelevant = false;
        frontier.update(entry, {
          state: "irrelevant",
          reason: `duplicate of ${dup}`,
          pageType: ex.view.pageType.type,
          relevance: ex.view.judgement.score,
          relevant: false,
          checksum: ex.checksum,
          contentLength: ex.length,
          fetchedAt: now,
          changedAt: now,
          ...validators,
        });
      } else {
        for (const v of ex.verdicts) {
          const outcome = frontier.offer(v, entry.layer);
          if (outcome === "added" || outcome === "raised" || outcome === "revived") queued++;
          else if (!v.accepted) rejectedCount++;
        }
        const state = session.strategy.pageState(ex.view);
        frontier.update(entry, {
          state,
          reason: state === "irrelevant" ? `off-topic page (score ${ex.view.judgement.score.toFixed(3)})` : null,
          pageType: ex.view.pageType.type,
          relevance: ex.view.judgement.score,
          relevant: pageRelevant,
          checksum: ex.checksum,
          contentLength: ex.length,
          fetchedAt: now,
          changedAt: now,
          ...validators,
        });
        if (ex.finalUrl !== entry.url) frontier.alias(ex.finalUrl, entry, `reached by a redirect from ${entry.url}`);
      }
      observeStored(entry, evidence, tally, checksums);

      crawled++;
      sessionPages++;
      sinceFlush++;
      if (pageRelevant) relevant++;
      points.push({ crawled, relevant });
      await opts.onPage?.({
        runId,
        url: entry.url,
        layer: entry.layer,
        crawled,
        relevantSoFar: relevant,
        relevant: pageRelevant,
        score: ex.view.judgement.score,
        pageType: ex.view.pageType.type,
        state: entry.state,
        queued,
        rejected: rejectedCount,
      });
      if (sinceFlush >= flushEvery || clock.now() - lastFlush >= HEARTBEAT_MS) await flush();
    }
  } catch (e) {
    reason = "failed";
    error = errorMessage(e);
    log(`run ${runId} failed: ${error}`);
  } finally {
    await ownFetcher?.close();
  }

  const stop = reason ?? "failed";
  const counts = frontier.counts();
  const status = stop === "max-pages" || stop === "exhausted" ? "done" : stop === "failed" ? "failed" : "paused";
  const note =
    stop === "max-pages"
      ? `reached ${run.maxPages} pages`
      : stop === "exhausted"
        ? `frontier exhausted after ${crawled} pages`
        : stop === "stop-after"
          ? `stopped after ${sessionPages} pages in this session`
          : stop === "paused"
            ? "paused"
            : `failed: ${error ?? "unknown error"}`;
  // The state after the last whole page is consistent (pages are applied to memory at once), so
  // it is written even when the run failed: a resume continues from there.
  // Stopped from outside (the dashboard's Pause): its status and note stay as it set them.
  await flush(stoppedOutside ? undefined : { status, note, finishedAt: status === "done" ? new Date() : null });
  const finalStatus = stoppedOutside
    ? ((await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? "paused")
    : status;
  log(`run ${runId}: ${note}; ${crawled} crawled, ${relevant} relevant`);
  return {
    runId,
    strategy: strategyName,
    status: finalStatus,
    reason: stop,
    crawled,
    relevant,
    harvestRate: crawled === 0 ? 0 : relevant / crawled,
    frontier: counts,
    candidates: tally.proposed().length,
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * The run's address policy: its seeds' hosts were registered by an administrator and may be
 * anywhere (an intranet portal, loopback); links found on pages may not reach internal
 * addresses unless the run or CAMPUSWATCH_TRUSTED_HOSTS trusts them.
 */
function runPolicy(options: DiscoveryOptions): AddressPolicy {
  return createAddressPolicy({ trustedHosts: [...options.seeds, ...options.trustedHosts, ...trustedHostsFromEnv()] });
}

function defaultFetcher(hostDelayMs: number, scheduler: HostScheduler, addressPolicy: AddressPolicy, log: (m: string) => void): PoliteFetcher {
  const cfg = crawlerConfig();
  return createFetcher({
    addressPolicy,
    mode: "http",
    scheduler,
    hostDelayMs,
    userAgent: cfg.userAgent,
    requestTimeoutMs: cfg.requestTimeoutMs,
    maxBodyBytes: cfg.maxBodyBytes,
    // A discovery crawl goes on when one host misbehaves: fewer retries than an account crawl.
    retries: 1,
    log,
  });
}

/** What a revisit found. */
export interface RevisitSummary {
  runId: number;
  /** Crawled pages asked for again. */
  checked: number;
  /** Answered 304 Not Modified to the conditional GET. */
  notModified: number;
  /** Answered in full, but the checkpoint (MD5 + length) was unchanged. */
  unchanged: number;
  /** Changed, and processed again. */
  changed: number;
  failed: number;
  /** URLs the changed pages added to the frontier. */
  newLinks: number;
  status: string;
}

/**
 * Revisit a run's crawled pages (method.md §4's periodic refresh): a conditional GET with the
 * stored ETag / Last-Modified (or, without either, the time the last change was seen), then the
 * checkpoint; only a changed page is processed again (re-judged, its new links queued). Harvest
 * figures are not touched: they describe the first crawl. A run that gained URLs to crawl is left
 * "paused", so resuming crawls them.
 */
export async function revisitDiscovery(db: Db, runId: number, opts: Omit<RunDiscoveryOptions, "stopAfter" | "onPage" | "flushEvery" | "clock"> = {}): Promise<RevisitSummary> {
  const run = await db.discoveryRun.findUnique({ where: { id: runId } });
  if (!run) throw new DiscoveryBusyError(`no discovery run ${runId}`);
  const claim = await db.discoveryRun.updateMany({
    where: { id: runId, status: { in: opts.force ? ["paused", "failed", "done", "running"] : ["paused", "failed", "done"] } },
    data: { status: "running", note: "revisiting" },
  });
  if (claim.count === 0) throw new DiscoveryBusyError(`discovery run ${runId} is already running`);
  try {
    return await revisitClaimed(db, run, opts);
  } catch (e) {
    // The run must not stay "running" after a failure: say why, and leave it resumable.
    await db.discoveryRun.update({ where: { id: runId }, data: { status: "failed", note: `revisit failed: ${errorMessage(e)}`.slice(0, 500) } });
    throw e;
  }
}

type RunRow = NonNullable<Awaited<ReturnType<Db["discoveryRun"]["findUnique"]>>>;

async function revisitClaimed(db: Db, run: RunRow, opts: Omit<RunDiscoveryOptions, "stopAfter" | "onPage" | "flushEvery" | "clock">): Promise<RevisitSummary> {
  const runId = run.id;
  const options = parseDiscoveryOptions(run.options);
  const judge = opts.judge ?? (await loadTopicJudge(db, run.topicId)).judge;
  const state = await loadState(db, runId, options);
  const session: Session = {
    db,
    runId,
    strategyName: run.strategy as StrategyName,
    strategy: strategyFor(run.strategy as StrategyName, options.focused),
    options,
    judge,
    state,
    sensitive: new WordMatcher(options.sensitiveWords),
    sites: options.sameSite ? new Set(options.seeds.map((u) => siteOf(u))) : null,
  };
  const log = opts.log ?? (() => undefined);
  const ownFetcher = opts.fetcher
    ? null
    : opts.fetcherFactory
      ? opts.fetcherFactory({ hostDelayMs: options.hostDelayMs, scheduler: opts.scheduler ?? defaultHostScheduler, addressPolicy: runPolicy(options) })
      : defaultFetcher(options.hostDelayMs, opts.scheduler ?? defaultHostScheduler, runPolicy(options), log);
  const fetcher: Fetcher = opts.fetcher ?? (ownFetcher as PoliteFetcher);
  const summary: RevisitSummary = { runId, checked: 0, notModified: 0, unchanged: 0, changed: 0, failed: 0, newLinks: 0, status: run.status };
  const { frontier } = state;
  try {
    const crawledEntries = frontier.entries().filter((e) => e.fetchedAt !== null && e.relevant !== null);
    for (const entry of crawledEntries) {
      if (opts.signal?.aborted) break;
      summary.checked++;
      const headers: Record<string, string> = {};
      if (entry.etag) headers["if-none-match"] = entry.etag;
      const since = entry.lastModified ?? entry.changedAt?.toUTCString();
      if (since) headers["if-modified-since"] = since;
      let res: FetchResult;
      try {
        res = await fetcher.get(entry.url, { kind: "other", headers });
      } catch (e) {
        if (e instanceof FatalError) throw e;
        summary.failed++;
        continue;
      }
      if (res.status === 304) {
        summary.notModified++;
        continue;
      }
      if (!isHtml(res)) {
        summary.failed++;
        continue;
      }
      const ex = examine(session, entry, res);
      const validators = { etag: res.headers["etag"] ?? null, lastModified: res.headers["last-modified"] ?? null };
      if (ex.checksum === entry.checksum && ex.length === entry.contentLength) {
        summary.unchanged++;
        if (validators.etag !== entry.etag || validators.lastModified !== entry.lastModified) frontier.update(entry, validators);
        continue;
      }
      summary.changed++;
      for (const v of ex.verdicts) if (frontier.offer(v, entry.layer) === "added") summary.newLinks++;
      const pageState = session.strategy.pageState(ex.view);
      frontier.update(entry, {
        state: pageState,
        reason: pageState === "irrelevant" ? `off-topic page (score ${ex.view.judgement.score.toFixed(3)})` : null,
        pageType: ex.view.pageType.type,
        relevance: ex.view.judgement.score,
        relevant: ex.view.judgement.relevant,
        checksum: ex.checksum,
        contentLength: ex.length,
        changedAt: new Date(),
        ...validators,
      });
    }
  } finally {
    await ownFetcher?.close();
  }
  // Candidates from the pages' current verdicts.
  const tally = new CandidateTally({ minRelevantPages: options.candidateMinPages });
  for (const e of frontier.entries()) if (e.fetchedAt !== null && e.relevant !== null) tally.observe(e.url, e.relevant);
  const todo = frontier.counts().todo;
  const status = todo > 0 && run.crawled < run.maxPages ? "paused" : run.status === "running" ? "paused" : run.status;
  const note = `revisited ${summary.checked} pages: ${summary.notModified} not modified, ${summary.unchanged} unchanged, ${summary.changed} changed (${summary.newLinks} new links)`;
  const ops: Prisma.PrismaPromise<unknown>[] = frontierWrites(db, runId, frontier);
  for (const c of tally.proposed()) ops.push(candidateWrite(db, runId, c));
  ops.push(db.discoveryRun.update({ where: { id: runId }, data: { status, note } }));
  await db.$transaction(ops);
  summary.status = status;
  log(`run ${runId}: ${note}`);
  return summary;
}

/** Insert or refresh one candidate account of a run. */
function candidateWrite(
  db: Db,
  runId: number,
  c: { url: string; platform: string; name: string; score: number; relevantPages: number; crawledPages: number },
) {
  const figures = { score: c.score, relevantPages: c.relevantPages, crawledPages: c.crawledPages };
  return db.candidateAccount.upsert({
    where: { runId_url: { runId, url: c.url } },
    create: { runId, url: c.url, platform: c.platform, name: c.name, ...figures },
    update: figures,
  });
}
