/**
 * The discovery frontier (method.md §4): every URL of a run in exactly one state — `todo` (to
 * crawl), `irrelevant` (off-topic, unreachable, or a link the strategy dropped) or `done`
 * (fetched and useful) — with the `todo` URLs ordered by priority, ties by discovery order.
 *
 * The frontier lives in memory during a run (a priority queue over a URL map) and is written to
 * FrontierUrl rows in batches. The order is a total order on stored fields only (priority, then
 * seq), so a frontier read back from the database pops exactly as the one that was written:
 * that is what makes a paused run resume into the same crawl as an uninterrupted one.
 */
import type { Db, Prisma } from "../../lib/db";
import { SEED_PRIORITY, type LinkVerdict } from "./strategies";

/** The three states. */
export type FrontierState = "todo" | "irrelevant" | "done";

/** One URL of a run (mirrors a FrontierUrl row). */
export interface FrontierEntry {
  url: string;
  state: FrontierState;
  priority: number;
  layer: number;
  /** Discovery order in this run, from 0. */
  seq: number;
  anchor: string;
  pageType: string | null;
  relevance: number | null;
  relevant: boolean | null;
  reason: string | null;
  etag: string | null;
  lastModified: string | null;
  checksum: string | null;
  contentLength: number | null;
  fetchedAt: Date | null;
  changedAt: Date | null;
}

interface Slot {
  entry: FrontierEntry;
  /** The entry's priority when this slot was pushed; a raised entry leaves a stale slot behind. */
  priority: number;
}

/** What {@link Frontier.offer} did with a link. */
export type OfferOutcome = "added" | "raised" | "revived" | "rejected" | "known";

/**
 * Priorities are kept on a grid of 1e-9. The database does not return every double bit for bit
 * (0.1 + 0.2 comes back as 0.3), and a priority that changed on the way through storage would
 * reorder ties and raises after a resume; a value with nine decimals survives the round trip.
 */
export function quantizePriority(p: number): number {
  return Math.round(p * 1e9) / 1e9;
}

/** True when `a` pops before `b`: higher priority first, then earlier discovery. */
function before(a: Slot, b: Slot): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.entry.seq < b.entry.seq);
}

/** The in-memory frontier of one run. */
export class Frontier {
  private readonly byUrl = new Map<string, FrontierEntry>();
  private readonly heap: Slot[] = [];
  /** Entries not yet written, and written entries changed since. */
  private readonly fresh = new Set<FrontierEntry>();
  private readonly changed = new Set<FrontierEntry>();
  private seq = 0;

  /** A frontier holding `stored` entries (already in the database, e.g. on resume). */
  constructor(stored: readonly FrontierEntry[] = []) {
    for (const e of stored) {
      e.priority = quantizePriority(e.priority);
      this.byUrl.set(e.url, e);
      if (e.seq >= this.seq) this.seq = e.seq + 1;
      if (e.state === "todo") this.push(e);
    }
  }

  /** The entry of a (normalized) URL. */
  get(url: string): FrontierEntry | undefined {
    return this.byUrl.get(url);
  }

  /** Number of known URLs. */
  get size(): number {
    return this.byUrl.size;
  }

  /** Every entry, in discovery order. */
  entries(): FrontierEntry[] {
    return [...this.byUrl.values()].sort((a, b) => a.seq - b.seq);
  }

  /** URLs per state. */
  counts(): Record<FrontierState, number> {
    const c: Record<FrontierState, number> = { todo: 0, irrelevant: 0, done: 0 };
    for (const e of this.byUrl.values()) c[e.state]++;
    return c;
  }

  /** Add the seeds (layer 0) that are not known yet. */
  addSeeds(urls: readonly string[]): void {
    for (const url of urls) {
      if (this.byUrl.has(url)) continue;
      this.add({ url, state: "todo", priority: SEED_PRIORITY, layer: 0, anchor: "", reason: null });
    }
  }

  /**
   * Record a strategy's verdict on a link found on a page of layer `layer`:
   * - accepted, unknown URL: added as `todo` on layer + 1;
   * - accepted, already `todo`: its priority raised if higher (and its layer lowered if shorter);
   * - accepted, `irrelevant` but never fetched (dropped elsewhere): revived as `todo`, since this
   *   page gives better evidence;
   * - rejected, unknown URL: added as `irrelevant` with the reason, so every URL met has a state;
   * - anything else (fetched, or rejected but known) is left alone.
   */
  offer(v: LinkVerdict, layer: number): OfferOutcome {
    const priority = quantizePriority(v.priority);
    const e = this.byUrl.get(v.url);
    if (!e) {
      this.add({
        url: v.url,
        state: v.accepted ? "todo" : "irrelevant",
        priority: v.accepted ? priority : 0,
        layer: layer + 1,
        anchor: v.anchor,
        reason: v.accepted ? null : v.reason,
      });
      return v.accepted ? "added" : "rejected";
    }
    if (!v.accepted) return "known";
    if (e.state === "todo") {
      let touched = false;
      if (priority > e.priority) {
        e.priority = priority;
        e.anchor = v.anchor;
        touched = true;
      }
      if (layer + 1 < e.layer) {
        e.layer = layer + 1;
        touched = true;
      }
      if (!touched) return "known";
      this.touch(e);
      this.push(e);
      return "raised";
    }
    if (e.state === "irrelevant" && e.fetchedAt === null) {
      e.state = "todo";
      e.priority = priority;
      e.anchor = v.anchor;
      e.reason = null;
      e.layer = Math.min(e.layer, layer + 1);
      this.touch(e);
      this.push(e);
      return "revived";
    }
    return "known";
  }

  /** The next URL to crawl (it stays `todo` until {@link update} records the outcome), or undefined. */
  pop(): FrontierEntry | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0] as Slot;
      const last = this.heap.pop() as Slot;
      if (this.heap.length > 0) {
        this.heap[0] = last;
        this.siftDown(0);
      }
      if (top.entry.state === "todo" && top.entry.priority === top.priority) return top.entry;
    }
    return undefined;
  }

  /** Change an entry (the outcome of fetching it, a revisit's validators…). */
  update(entry: FrontierEntry, changes: Partial<Omit<FrontierEntry, "url" | "seq">>): void {
    Object.assign(entry, changes);
    this.touch(entry);
    if (entry.state === "todo") this.push(entry);
  }

  /** Register a URL reached by a redirect, so it is not fetched again under its own name. */
  alias(url: string, like: FrontierEntry, reason: string): void {
    const e = this.byUrl.get(url);
    if (!e) {
      this.add({ url, state: like.state, priority: 0, layer: like.layer, anchor: "", reason });
      return;
    }
    if (e.state === "todo") this.update(e, { state: like.state, reason });
  }

  /** Entries to write, and mark them written (call after the write succeeded… or let it throw). */
  takeChanges(): { created: FrontierEntry[]; updated: FrontierEntry[] } {
    const created = [...this.fresh].sort((a, b) => a.seq - b.seq);
    const updated = [...this.changed].filter((e) => !this.fresh.has(e)).sort((a, b) => a.seq - b.seq);
    this.fresh.clear();
    this.changed.clear();
    return { created, updated };
  }

  /** True when nothing is waiting to be written. */
  get clean(): boolean {
    return this.fresh.size === 0 && this.changed.size === 0;
  }

  private add(init: Pick<FrontierEntry, "url" | "state" | "priority" | "layer" | "anchor" | "reason">): FrontierEntry {
    const e: FrontierEntry = {
      ...init,
      seq: this.seq++,
      pageType: null,
      relevance: null,
      relevant: null,
      etag: null,
      lastModified: null,
      checksum: null,
      contentLength: null,
      fetchedAt: null,
      changedAt: null,
    };
    this.byUrl.set(e.url, e);
    this.fresh.add(e);
    if (e.state === "todo") this.push(e);
    return e;
  }

  private touch(e: FrontierEntry): void {
    if (!this.fresh.has(e)) this.changed.add(e);
  }

  private push(entry: FrontierEntry): void {
    const slot: Slot = { entry, priority: entry.priority };
    const h = this.heap;
    h.push(slot);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(slot, h[parent] as Slot)) break;
      h[i] = h[parent] as Slot;
      i = parent;
    }
    h[i] = slot;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const n = h.length;
    const slot = h[i] as Slot;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(h[r] as Slot, h[l] as Slot) ? r : l;
      if (!before(h[child] as Slot, slot)) break;
      h[i] = h[child] as Slot;
      i = child;
    }
    h[i] = slot;
  }
}

const ENTRY_SELECT = {
  url: true,
  state: true,
  priority: true,
  layer: true,
  seq: true,
  anchor: true,
  pageType: true,
  relevance: true,
  relevant: true,
  reason: true,
  etag: true,
  lastModified: true,
  checksum: true,
  contentLength: true,
  fetchedAt: true,
  changedAt: true,
} as const;

/** Read a run's frontier back from the database. */
export async function loadFrontierEntries(db: Db, runId: number): Promise<FrontierEntry[]> {
  const rows = await db.frontierUrl.findMany({ where: { runId }, select: ENTRY_SELECT, orderBy: { seq: "asc" } });
  return rows.map((r) => ({ ...r, state: asState(r.state) }));
}

function asState(s: string): FrontierState {
  return s === "todo" || s === "done" ? s : "irrelevant";
}

function rowData(e: FrontierEntry) {
  return {
    state: e.state,
    priority: e.priority,
    layer: e.layer,
    anchor: e.anchor.slice(0, 500),
    pageType: e.pageType,
    relevance: e.relevance,
    relevant: e.relevant,
    reason: e.reason?.slice(0, 500) ?? null,
    etag: e.etag,
    lastModified: e.lastModified,
    checksum: e.checksum,
    contentLength: e.contentLength,
    fetchedAt: e.fetchedAt,
    changedAt: e.changedAt,
  };
}

/** Rows per INSERT: SQLite allows 32,766 bound variables, a row has 18 columns. */
const INSERT_CHUNK = 500;

/**
 * The writes that persist the frontier's pending changes, to run in one transaction together
 * with the run's counters: the stored frontier and the run's crawled count then always agree.
 */
export function frontierWrites(db: Db, runId: number, frontier: Frontier): Prisma.PrismaPromise<unknown>[] {
  const { created, updated } = frontier.takeChanges();
  const ops: Prisma.PrismaPromise<unknown>[] = [];
  for (let i = 0; i < created.length; i += INSERT_CHUNK) {
    ops.push(
      db.frontierUrl.createMany({
        data: created.slice(i, i + INSERT_CHUNK).map((e) => ({ runId, url: e.url, seq: e.seq, ...rowData(e) })),
      }),
    );
  }
  for (const e of updated) {
    ops.push(db.frontierUrl.update({ where: { runId_url: { runId, url: e.url } }, data: rowData(e) }));
  }
  return ops;
}
