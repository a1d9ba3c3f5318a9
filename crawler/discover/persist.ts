/**
 * A run's stored state: reading it back into memory on resume, and writing a checkpoint of it.
 *
 * A checkpoint is the frontier's pending changes, the new harvest points, the changed candidate
 * accounts and the run's own row, written in one transaction: the stored frontier and the run's
 * counters then always agree, and the stored state is always the state after some whole page, from
 * which the crawl replays identically.
 */
import type { Db, Prisma } from "../../lib/db";
import { CandidateTally, type CandidateRow } from "./candidates";
import { Frontier, frontierWrites, loadFrontierEntries, type FrontierEntry } from "./frontier";
import type { DiscoveryOptions } from "./options";
import { UrlEvidence } from "./relevance";

/** Everything the loop knows besides the frontier, rebuilt from stored rows on resume. */
export interface RunState {
  frontier: Frontier;
  evidence: UrlEvidence;
  tally: CandidateTally;
  /** Content checksum → the URL first crawled with it (duplicate pages are not followed again). */
  checksums: Map<string, string>;
}

/**
 * Rebuild a run's in-memory state from its stored frontier (a new run starts from its seeds).
 * The candidate tally starts clean: what was stored need not be written again.
 */
export async function loadState(db: Db, runId: number, options: DiscoveryOptions): Promise<RunState> {
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

/**
 * What the loop learns from a crawled page. The same function serves the live path and the
 * rebuild, so a resumed run knows exactly what an uninterrupted one would.
 */
export function observeStored(e: FrontierEntry, evidence: UrlEvidence, tally: CandidateTally, checksums: Map<string, string>): void {
  if (e.fetchedAt === null || e.relevant === null) return;
  evidence.observe(e.url, e.relevant);
  tally.observe(e.url, e.relevant);
  if (e.checksum && !checksums.has(e.checksum)) checksums.set(e.checksum, e.url);
}

/** The fields of the run's own row a checkpoint may set. */
export interface RunRowUpdate {
  crawled?: number;
  relevant?: number;
  status?: string;
  note?: string;
  finishedAt?: Date | null;
}

/** What one checkpoint writes besides the frontier's pending changes. */
export interface Checkpoint {
  /** Harvest-curve points (crawled, relevant) since the last checkpoint. */
  points?: readonly { crawled: number; relevant: number }[];
  /** Candidate accounts to insert or refresh. */
  candidates: readonly CandidateRow[];
  run: RunRowUpdate;
}

/**
 * Write a checkpoint of the run in one transaction (see the module comment for why together).
 * Takes the frontier's pending changes, so a second call writes only what changed since.
 */
export async function writeCheckpoint(db: Db, runId: number, frontier: Frontier, checkpoint: Checkpoint): Promise<void> {
  const ops: Prisma.PrismaPromise<unknown>[] = frontierWrites(db, runId, frontier);
  const points = checkpoint.points ?? [];
  if (points.length > 0) ops.push(db.harvestPoint.createMany({ data: points.map((p) => ({ runId, ...p })) }));
  for (const c of checkpoint.candidates) ops.push(candidateWrite(db, runId, c));
  ops.push(db.discoveryRun.update({ where: { id: runId }, data: checkpoint.run }));
  await db.$transaction(ops);
}

/** Insert or refresh one candidate account of a run. */
function candidateWrite(db: Db, runId: number, c: CandidateRow) {
  const figures = { score: c.score, relevantPages: c.relevantPages, crawledPages: c.crawledPages };
  return db.candidateAccount.upsert({
    where: { runId_url: { runId, url: c.url } },
    create: { runId, url: c.url, platform: c.platform, name: c.name, ...figures },
    update: figures,
  });
}
