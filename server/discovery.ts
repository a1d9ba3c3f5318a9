/**
 * Topic discovery runs for the dashboard: the list, one run's progress, harvest curves side by
 * side, candidate accounts and their one-click adoption. The crawl itself lives in
 * crawler/discover; this module only reads and writes rows.
 */
import { z } from "zod";
import type { Db } from "../lib/db";
import { FALLBACK_PLATFORM, isPlatform } from "../lib/platforms";
import { codeBook, ValidationError } from "../lib/validation";
import { createAccount, normaliseEntryUrl } from "./accounts";
import type { AuditActor } from "../lib/audit";
import { markCandidateAdopted, pauseDiscoveryRunRow, queueDiscoveryRunRow, STRATEGIES, type HarvestCurve, type StrategyName } from "@/crawler/discover";
import { activeJob, cancelQueuedJob, requestJob, type JobView } from "@/crawler/jobs";

/** A "running" run that has not written anything for this long is taken for dead (its process stopped). */
export const STALE_AFTER_MS = 2 * 60_000;

/** True when a run says "running" but has not moved for {@link STALE_AFTER_MS}. */
export function isStale(run: { status: string; updatedAt: Date }, now = Date.now()): boolean {
  return run.status === "running" && now - run.updatedAt.getTime() > STALE_AFTER_MS;
}

/** Every run, newest first, with its topic and seed set names. */
export async function listDiscoveryRuns(db: Db, take = 100) {
  return db.discoveryRun.findMany({
    orderBy: { id: "desc" },
    take,
    include: { topic: { select: { id: true, name: true } }, seedSet: { select: { id: true, name: true } }, _count: { select: { candidates: true } } },
  });
}

/** One run with its frontier counts per state and its candidates; null when it does not exist. */
export async function getDiscoveryRun(db: Db, id: number) {
  const run = await db.discoveryRun.findUnique({
    where: { id },
    include: { topic: { select: { id: true, name: true, modelVersion: true } }, seedSet: { select: { id: true, name: true } } },
  });
  if (!run) return null;
  const states = await db.frontierUrl.groupBy({ by: ["state"], where: { runId: id }, _count: { _all: true } });
  const frontier = { todo: 0, irrelevant: 0, done: 0 };
  for (const s of states) if (s.state === "todo" || s.state === "irrelevant" || s.state === "done") frontier[s.state] = s._count._all;
  return { ...run, frontier };
}

/** The most recently crawled pages of a run. */
export async function recentPages(db: Db, runId: number, take = 20) {
  return db.frontierUrl.findMany({
    where: { runId, relevant: { not: null } },
    orderBy: [{ fetchedAt: "desc" }, { seq: "desc" }],
    take,
    select: { url: true, state: true, pageType: true, relevance: true, relevant: true, layer: true, reason: true, fetchedAt: true },
  });
}

/** The next URLs the run will crawl (the frontier's order: priority, then discovery order). */
export async function nextInFrontier(db: Db, runId: number, take = 15) {
  return db.frontierUrl.findMany({
    where: { runId, state: "todo" },
    orderBy: [{ priority: "desc" }, { seq: "asc" }],
    take,
    select: { url: true, priority: true, layer: true, anchor: true },
  });
}

/** The kind of reason a URL is irrelevant, for counting ("block rule title-words", "unreachable"…). */
export function reasonGroup(reason: string | null): string {
  const r = reason ?? "";
  const rule = /: rule ([a-z-]+)/.exec(r);
  if (rule) return `block rule: ${rule[1]}`;
  if (/: classifier /.test(r)) return "block classifier below threshold";
  if (r.startsWith("over the 255/L budget")) return "over the 255/L budget";
  if (r.startsWith("relevance ")) return "link relevance below threshold";
  const word = /^sensitive word "([^"]*)"/.exec(r);
  if (word) return `sensitive word “${word[1]}”`;
  if (/robots\.txt/.test(r)) return "disallowed by robots.txt";
  if (r.startsWith("refused ")) return "internal address refused";
  if (r.startsWith("unreachable")) return "unreachable";
  if (r === "found on an off-topic page") return "found on an off-topic page";
  if (r.startsWith("off-topic page")) return "off-topic page (crawled)";
  if (r.startsWith("duplicate of")) return "duplicate content (crawled)";
  if (r.startsWith("not an HTML page")) return "not an HTML page";
  if (r.startsWith("reached by a redirect")) return "redirect target";
  return r || "unknown";
}

/** Why URLs are irrelevant, most frequent first (block rules, classifier, budget, sensitive words…). */
export async function dropReasons(db: Db, runId: number, take = 10) {
  const rows = await db.frontierUrl.findMany({ where: { runId, state: "irrelevant" }, select: { reason: true } });
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = reasonGroup(r.reason);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, take)
    .map(([reason, count]) => ({ reason, count }));
}

/** Harvest curves of runs, keyed "#id strategy". */
export async function harvestCurves(db: Db, runIds: readonly number[]): Promise<HarvestCurve[]> {
  if (runIds.length === 0) return [];
  const runs = await db.discoveryRun.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, strategy: true } });
  const points = await db.harvestPoint.findMany({
    where: { runId: { in: [...runIds] } },
    orderBy: [{ runId: "asc" }, { crawled: "asc" }],
    select: { runId: true, crawled: true, relevant: true },
  });
  return runIds.flatMap((id) => {
    const run = runs.find((r) => r.id === id);
    if (!run) return [];
    return [{ key: `#${id} ${run.strategy}`, points: points.filter((p) => p.runId === id) }];
  });
}

/**
 * Strategies side by side: per topic, the latest run of each strategy (the comparison the
 * harvest-rate plots of the papers make), topics with the newest runs first.
 */
export async function comparisonGroups(db: Db, maxTopics = 4) {
  const runs = await db.discoveryRun.findMany({
    orderBy: { id: "desc" },
    select: { id: true, topicId: true, strategy: true, crawled: true, topic: { select: { name: true } } },
  });
  const groups: { topicId: number; topic: string; runs: { id: number; strategy: string }[] }[] = [];
  for (const r of runs) {
    if (r.crawled === 0) continue;
    let g = groups.find((x) => x.topicId === r.topicId);
    if (!g) {
      if (groups.length >= maxTopics) continue;
      g = { topicId: r.topicId, topic: r.topic.name, runs: [] };
      groups.push(g);
    }
    if (!g.runs.some((x) => x.strategy === r.strategy)) g.runs.push({ id: r.id, strategy: r.strategy });
  }
  const rank = (s: string) => STRATEGIES.indexOf(s as StrategyName);
  for (const g of groups) g.runs.sort((a, b) => rank(a.strategy) - rank(b.strategy));
  return groups.map((g) => ({ topicId: g.topicId, topic: g.topic, runIds: g.runs.map((r) => r.id) }));
}

/** Candidate accounts, best first; of one run, or of all runs. */
export async function listCandidates(db: Db, runId?: number, take = 100) {
  return db.candidateAccount.findMany({
    where: runId === undefined ? {} : { runId },
    orderBy: [{ relevantPages: "desc" }, { score: "desc" }, { id: "asc" }],
    take,
    include: { run: { select: { id: true, strategy: true, topic: { select: { name: true } } } } },
  });
}

/** The start form of the dashboard. */
/** The codes of the start form's refusals: keys of the `discovery.done` messages (app/(dashboard)/discovery/actions.ts). */
export const discoveryProblems = codeBook("discovery.done", [
  "chooseTopic",
  "chooseSeedSet",
  "strategyOneOf",
  "numberOfPages",
  "wholeNumber",
  "atLeast",
  "atMost",
  "milliseconds",
  "zeroOrMore",
]);
const said = discoveryProblems.error;

export const startDiscoverySchema = z.object({
  topicId: z.coerce.number(said("chooseTopic", "choose a topic")).int().positive(said("chooseTopic", "choose a topic")),
  seedSetId: z.coerce.number(said("chooseSeedSet", "choose a seed set")).int().positive(said("chooseSeedSet", "choose a seed set")),
  strategy: z.enum(
    STRATEGIES as unknown as [StrategyName, ...StrategyName[]],
    said("strategyOneOf", `one of ${STRATEGIES.join(", ")}`, { list: STRATEGIES.join(", ") }),
  ),
  maxPages: z.coerce
    .number(said("numberOfPages", "a number of pages"))
    .int(said("wholeNumber", "a whole number"))
    .min(1, said("atLeast", "at least 1", { min: 1 }))
    .max(1_000_000, said("atMost", "at most 1,000,000", { max: 1_000_000 })),
  hostDelayMs: z.coerce
    .number(said("milliseconds", "milliseconds"))
    .int(said("wholeNumber", "a whole number"))
    .min(0, said("zeroOrMore", "0 or more"))
    .max(600_000, said("atMost", "at most 600,000", { max: 600_000 })),
  sameSite: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});
export type StartDiscoveryInput = z.infer<typeof startDiscoverySchema>;

/**
 * Ask a running run to pause: the loop sees the status between pages, writes its frontier and
 * stops. Returns false when the run was not running.
 */
export async function requestPause(db: Db, runId: number): Promise<boolean> {
  const paused = await pauseDiscoveryRunRow(db, runId, "paused from the dashboard");
  // Not started yet: withdraw its job too (a job already running stops at its next page).
  await cancelQueuedJob(db, `discover:${runId}`, "paused from the dashboard before it started");
  return paused;
}

/** Why {@link requestDiscoveryRun} did not ask for a run: keys of the dashboard's `discovery.done` messages. */
export type DiscoveryRefusal = "noRun" | "alreadyRunning" | "otherProcess" | "limitReached";

/** Options of {@link requestDiscoveryRun}. */
export interface DiscoveryRequestOptions {
  /**
   * Take over a run marked "running" even though it wrote lately: the operator says its process
   * died (`discover --resume RUN --force`). Without it only a stale run is taken over.
   */
  force?: boolean;
  /**
   * Create the job already claimed by this runner, which runs it at once in its own process (the
   * CLI: crawler/jobs/runner.ts `runClaimed`); it then has one attempt.
   */
  claimedBy?: string;
}

/**
 * Ask for a run to be crawled (a new run, or a paused, failed or finished one resumed): the run
 * waits "queued" until the scheduler's process or a PostgreSQL worker takes it (crawler/jobs/),
 * or, with `claimedBy`, until the CLI that asked runs it. A run "running" whose process has
 * stopped writing (stale) is taken over. Answers at once. The dashboard and the CLI both ask here.
 */
export async function requestDiscoveryRun(
  db: Db,
  runId: number,
  requestedBy: number | null,
  options: DiscoveryRequestOptions = {},
): Promise<{ refused: DiscoveryRefusal; job?: JobView } | { refused?: undefined; job: JobView }> {
  const run = await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true, updatedAt: true, crawled: true, maxPages: true } });
  if (!run) return { refused: "noRun" };
  const active = await activeJob(db, `discover:${runId}`);
  if (active) return { refused: "alreadyRunning", job: active };
  if (run.status === "running" && !isStale(run) && !options.force) return { refused: "otherProcess" };
  if (run.status === "done" && run.crawled >= run.maxPages) return { refused: "limitReached" };
  const force = run.status === "running";
  if (!force) {
    if (!(await queueDiscoveryRunRow(db, runId, "waiting for a worker to start it"))) return { refused: "alreadyRunning" };
  }
  const { job, created } = await requestJob(
    db,
    { kind: "discover", runId, force },
    { requestedBy, ...(options.claimedBy ? { claimedBy: options.claimedBy, maxAttempts: 1 } : {}) },
  );
  return created ? { job } : { refused: "alreadyRunning", job };
}

/**
 * Adopt a candidate: register it as a monitored account (platform and name from the candidate)
 * and remember the account on the candidate. Idempotent: adopting again, or a URL already
 * registered by hand, links the existing account.
 * @throws ValidationError when the candidate does not exist.
 */
export async function adoptCandidate(db: Db, candidateId: number, actor: AuditActor): Promise<{ accountId: number; created: boolean }> {
  const c = await db.candidateAccount.findUnique({ where: { id: candidateId } });
  if (!c) throw new ValidationError("candidate: no such candidate", { candidate: ["no such candidate"] }, { code: "noCandidate" });
  if (c.adoptedAccountId !== null) {
    const existing = await db.account.findUnique({ where: { id: c.adoptedAccountId }, select: { id: true } });
    if (existing) return { accountId: existing.id, created: false };
  }
  let accountId: number;
  let created = false;
  const platform = isPlatform(c.platform) ? c.platform : FALLBACK_PLATFORM;
  try {
    accountId = (await createAccount(db, { url: c.url, platform, name: c.name }, actor)).id;
    created = true;
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const existing = await db.account.findUnique({ where: { entryUrl: normaliseEntryUrl(c.url) }, select: { id: true } });
    if (!existing) throw e;
    accountId = existing.id;
  }
  await markCandidateAdopted(db, c.id, accountId);
  return { accountId, created };
}
