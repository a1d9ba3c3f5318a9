/**
 * Wiring: builds the worker's services (fetchers sharing one per-host queue, the classifier,
 * the archive) from configuration, for the CLI, the scheduler and benchmarks.
 */
import path from "node:path";
import type { Db } from "../lib/db";
import { allowInternalFromEnv, crawlerConfig, dataDir, proxyFromEnv, trustedHostsFromEnv } from "../lib/config";
import { addressClassOf, addressesOf, systemResolver, type AddressClass } from "../lib/net/address";
import { createAddressPolicy, createFetcher, HostScheduler, type AddressPolicy, type Resolver, type RobotsPolicy } from "./fetch";
import type { HostGate } from "./fetch/politeness";
import type { ProxyConfig } from "./fetch/proxy-url";
import { classifyPosts } from "./classify";
import { clusterPosts } from "./incidents/cluster";
import { enableSegmentThread } from "./classify/segment-thread";
import { enableParseThreads } from "./parse/thread";
import { createOcr } from "./ocr";
import { pruneArchive } from "./archive";
import { evidenceArchiveFiles } from "./evidence/keep";
import { runFlaggedArchivedPosts } from "./evidence/shots";
import { runMayNotify } from "../lib/notify";
import { incidentsAfterRun } from "./incidents/alerts";
import { appendRunError } from "./runs";
import { requestJob } from "./jobs/requests";
import { loadAccountCookies, loadAccountProxy } from "./account-access";
import type { FetchMode } from "./types";
import type { WorkerServices } from "./worker";
import { updateAccountRows } from "./account-rows";

/** Options of {@link createServices}; unset values come from the environment (lib/config.ts). */
export interface RuntimeOptions {
  db: Db;
  /** @default CAMPUSWATCH_HOST_DELAY_MS or 1000 */
  hostDelayMs?: number;
  /** Classify new and changed posts as they are stored. @default true */
  classify?: boolean;
  /** Fetch and obey robots.txt. @default true */
  respectRobots?: boolean;
  /** Archive raw pages under the data directory. @default true */
  archive?: boolean;
  /** Per-host politeness shared by every fetcher made here. @default a new in-process HostScheduler */
  hostGate?: HostGate;
  /**
   * Hosts trusted on internal addresses for every account, on top of each account's own entry
   * URL host and `CAMPUSWATCH_TRUSTED_HOSTS` (see crawler/fetch/address-policy.ts).
   */
  trustedHosts?: readonly string[];
  /** Host name resolver of the address policy. @default the system resolver */
  resolve?: Resolver;
  /** The proxy of accounts without their own (null: direct). @default CAMPUSWATCH_PROXY */
  proxy?: ProxyConfig | null;
  /** Worker threads that parse pages (0: the calling thread). @default CAMPUSWATCH_PARSE_THREADS, or 1 with a core to spare */
  parseThreads?: number;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** Services for {@link crawlAccount}, plus `flush()` to wait for notification jobs still being asked for. */
export type RuntimeServices = WorkerServices & { flush(): Promise<void> };

/** Services for {@link crawlAccount}: every fetcher made here shares one per-host queue. */
export function createServices(opts: RuntimeOptions): RuntimeServices {
  const cfg = crawlerConfig();
  const scheduler = opts.hostGate ?? new HostScheduler();
  // Read (and validated) once: a malformed CAMPUSWATCH_TRUSTED_HOSTS stops the process at start.
  const trusted = [...trustedHostsFromEnv(), ...(opts.trustedHosts ?? [])];
  // Likewise CAMPUSWATCH_PROXY: an unknown scheme stops the process at start, not a crawl later.
  const globalProxy = opts.proxy === undefined ? proxyFromEnv() : opts.proxy;
  const allowInternal = allowInternalFromEnv();
  // A host registered on a public address is not trusted on an internal one: resolving inside now
  // is DNS rebinding or a taken-over domain, refused with that reason (lib/net/address.ts).
  const policyFor = (entryUrl: string, addressClass: AddressClass) =>
    createAddressPolicy({
      trustedHosts: addressClass === "public" ? trusted : [entryUrl, ...trusted],
      registeredPublic: addressClass === "public" ? [entryUrl] : [],
      allowInternal,
      resolve: opts.resolve,
    });
  /** The account's policy: its class as given, else read, else found now (classified at its first crawl). */
  const accountPolicy = async (account: { id: number; entryUrl?: string; addressClass?: string | null }): Promise<AddressPolicy> => {
    let { entryUrl, addressClass } = account;
    if (entryUrl === undefined || addressClass === undefined) {
      const row = await opts.db.account.findUniqueOrThrow({ where: { id: account.id }, select: { entryUrl: true, addressClass: true } });
      ({ entryUrl, addressClass } = row);
    }
    if (addressClass === "public" || addressClass === "internal") return policyFor(entryUrl, addressClass);
    return policyFor(entryUrl, await classifyAtFirstCrawl(opts.db, account.id, entryUrl, opts.resolve ?? systemResolver, opts.onProgress));
  };
  const requests = new Set<Promise<unknown>>();
  // CAMPUSWATCH_JIEBA_THREAD=1: the classifier's jieba runs beside the crawl (process-wide; see segment-thread.ts).
  if (opts.classify !== false && cfg.jiebaThread) enableSegmentThread();
  // Pages are parsed on worker threads (process-wide; see parse/off-thread.ts and parse/thread.ts).
  enableParseThreads(opts.parseThreads ?? cfg.parseThreads);
  return {
    // The run's notifications are a job (crawler/jobs/ notifyRun), asked for only when the run may
    // have something to say: a worker sends them, and a failure is written on the job.
    // Likewise the screenshots of the pages behind the run's new flags (crawler/evidence/shots.ts):
    // drawn by a worker after the run, never during the crawl.
    notify: (db, runId) => {
      const p = incidentsAfterRun(db, runId, opts.now?.() ?? new Date())
        .catch((e: unknown) => appendRunError(db, runId, "IncidentError", e, opts.onProgress))
        .then(() =>
          Promise.all([
            runMayNotify(db, runId).then((may) => (may ? requestJob(db, { kind: "notifyRun", crawlRunId: runId }) : null)),
            opts.archive === false
              ? null
              : runFlaggedArchivedPosts(db, runId).then((has) => (has ? requestJob(db, { kind: "evidenceShots", crawlRunId: runId }) : null)),
          ]),
        )
        .finally(() => requests.delete(p));
      requests.add(p);
      return p;
    },
    flush: async () => {
      await Promise.allSettled([...requests]);
    },
    db: opts.db,
    // The account's entry URL is the host its administrator registered: trusted wherever it is.
    // The worker may pass it; otherwise it is read from the database before the first request.
    createFetcher: (account: { id: number; fetchMode: FetchMode; entryUrl?: string; addressClass?: string | null; robotsPolicy?: RobotsPolicy }, onRequest) =>
      createFetcher({
        addressPolicy:
          account.entryUrl !== undefined && (account.addressClass === "public" || account.addressClass === "internal")
            ? policyFor(account.entryUrl, account.addressClass)
            : deferredPolicy(accountPolicy(account)),
        mode: account.fetchMode,
        scheduler,
        hostDelayMs: opts.hostDelayMs ?? cfg.hostDelayMs,
        userAgent: cfg.userAgent,
        requestTimeoutMs: cfg.requestTimeoutMs,
        maxBodyBytes: cfg.maxBodyBytes,
        chromiumPath: cfg.chromiumPath,
        respectRobots: opts.respectRobots ?? true,
        robotsPolicy:
          account.robotsPolicy ??
          (() =>
            opts.db.account
              .findUnique({ where: { id: account.id }, select: { robotsPolicy: true } })
              .then((a) => (a?.robotsPolicy === "ignore" ? "ignore" : "obey"))),
        // The operator's login cookies, decrypted when the crawl's first request goes out.
        cookies: () => loadAccountCookies(opts.db, account.id, (m) => opts.onProgress?.(`account ${account.id}: ${m}`)),
        // The account's own proxy wins over the global one; read (and decrypted) before the first request.
        proxy: async () => (await loadAccountProxy(opts.db, account.id)) ?? globalProxy,
        onRequest,
        log: (m) => opts.onProgress?.(`account ${account.id}: ${m}`),
      }),
    // The posts as the store wrote them are judged without reading them again.
    // Then cluster them into incidents (after classification, so their flags count): a failure
    // leaves them in the IncidentQueue for the next catch-up and does not fail the crawl.
    classify:
      opts.classify === false
        ? undefined
        : async (db, ids, posts) => {
            const r = await classifyPosts(db, ids, { posts });
            await clusterPosts(db, ids).catch((e: unknown) => opts.onProgress?.(`incident clustering failed (the posts stay queued): ${(e as Error).message}`));
            return r;
          },
    archiveDir: opts.archive === false ? null : path.join(dataDir(), "archive"),
    ocr: createOcr({ log: (m) => (opts.onProgress ?? console.warn)(m) }),
    onProgress: opts.onProgress,
    signal: opts.signal,
    now: opts.now,
  };
}

/**
 * Apply the archive retention settings (age and total size); returns the number of files removed.
 * The raw pages and screenshots of posts with an open flag or in an open incident are kept
 * whatever their age (crawler/evidence/keep.ts).
 */
export async function pruneArchiveNow(db: Db): Promise<number> {
  const cfg = crawlerConfig();
  const keep = await evidenceArchiveFiles(db);
  return pruneArchive(path.join(dataDir(), "archive"), { maxAgeDays: cfg.archiveMaxDays, maxBytes: cfg.archiveMaxMb * 1024 * 1024, keep });
}

/**
 * The address class of an account registered before classes were recorded (or whose host did not
 * resolve at registration), found at its first crawl and stored: a host resolving to public
 * addresses only is `public` from now on, anything else `internal` (as it would have been trusted
 * before). When the host does not resolve now either, nothing is stored and the account is
 * trusted as before for this run; the crawl itself then fails on the same DNS error.
 */
async function classifyAtFirstCrawl(db: Db, id: number, entryUrl: string, resolve: Resolver, log?: (message: string) => void): Promise<AddressClass> {
  const host = new URL(entryUrl).hostname;
  let addressClass: AddressClass;
  try {
    addressClass = addressClassOf(await addressesOf(host, resolve));
  } catch {
    return "internal";
  }
  // Only a row still without a class: a registration racing this keeps its own answer.
  await updateAccountRows(db, { where: { id, addressClass: null }, data: { addressClass } });
  log?.(`account ${id}: ${host} recorded as registered on ${addressClass === "public" ? "a public" : "an internal"} address`);
  return addressClass;
}

/**
 * A policy whose trusted hosts are still being loaded. Until then nothing is trusted (fail
 * closed); `check` and `resolveHost` wait for the load, and the fetcher checks every URL before
 * it connects, so in practice the real policy is always in force.
 */
function deferredPolicy(load: Promise<AddressPolicy>): AddressPolicy {
  let ready: AddressPolicy | undefined;
  const loading = load.then((p) => (ready = p));
  // A failed load surfaces through check(); it must not also be an unhandled rejection.
  loading.catch(() => undefined);
  return {
    isTrusted: (url) => ready?.isTrusted(url) ?? false,
    check: async (url) => (await loading).check(url),
    resolveHost: async (hostname, o) => (await loading).resolveHost(hostname, o),
  };
}
