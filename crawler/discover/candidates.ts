/**
 * Relevant sites become candidate accounts: forums, blogs and Weibo accounts whose pages a run
 * found relevant, proposed for monitoring. The account a page belongs to is read from its URL
 * only (so the tally can be rebuilt from the stored frontier on resume), by the registry entry of
 * the platform the URL is recognised as (lib/platforms `candidateOf`):
 *
 * - Weibo: the user in the URL (`/u/{uid}` and the other forms the adapter reads);
 * - Tieba: the bar (`?kw=`); a thread URL (`/p/{tid}`) does not name its bar and is not counted;
 * - Discuz!: the board (`forum-{fid}-{n}.html`, `forumdisplay&fid=`);
 * - anything else is a blog, keyed by its origin. Because `recognisePlatform` calls every http URL
 *   a blog, a site is only proposed after {@link CandidateOptions.minRelevantPages} relevant pages.
 */
import { platformEntry } from "../../lib/platforms";
import { recognisePlatform } from "../adapters";
import type { Platform } from "../types";

/** Options of {@link CandidateTally}. */
export interface CandidateOptions {
  /** Relevant pages an account or site needs before it is proposed. @default 3 */
  minRelevantPages: number;
}

/** An account a page belongs to. */
export interface CandidateKey {
  /** Entry URL to register (what `accounts add` takes). */
  url: string;
  platform: Platform;
  name: string;
}

/** A proposed account with the run's evidence. */
export interface CandidateRow extends CandidateKey {
  relevantPages: number;
  crawledPages: number;
  /** relevantPages / crawledPages. */
  score: number;
}

/** The account (entry URL) a crawled page belongs to, or null when its URL does not say. */
export function candidateKeyOf(pageUrl: string): CandidateKey | null {
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return null;
  }
  const platform = recognisePlatform(u);
  const entry = platform ? platformEntry(platform).candidateOf(u) : null;
  return platform && entry ? { ...entry, platform } : null;
}

/** Relevant and crawled pages per account during a run. */
export class CandidateTally {
  private readonly tally = new Map<string, CandidateRow>();
  private readonly dirty = new Set<string>();
  private readonly min: number;

  constructor(options: Partial<CandidateOptions> = {}) {
    this.min = Math.max(1, options.minRelevantPages ?? 3);
  }

  /** Count a crawled page. */
  observe(pageUrl: string, relevant: boolean): void {
    const key = candidateKeyOf(pageUrl);
    if (!key) return;
    const row = this.tally.get(key.url) ?? { ...key, relevantPages: 0, crawledPages: 0, score: 0 };
    row.crawledPages++;
    if (relevant) row.relevantPages++;
    row.score = row.relevantPages / row.crawledPages;
    this.tally.set(key.url, row);
    if (row.relevantPages >= this.min) this.dirty.add(key.url);
  }

  /** Proposed accounts whose figures changed since the last call (to upsert). */
  takeChanged(): CandidateRow[] {
    const out = [...this.dirty].map((k) => this.tally.get(k) as CandidateRow);
    this.dirty.clear();
    return out.sort((a, b) => (a.url < b.url ? -1 : 1));
  }

  /** Every proposed account, best first. */
  proposed(): CandidateRow[] {
    return [...this.tally.values()].filter((r) => r.relevantPages >= this.min).sort((a, b) => b.relevantPages - a.relevantPages || (a.url < b.url ? -1 : 1));
  }

  /** Forget pending changes (after rebuilding from stored rows that are already written). */
  markClean(): void {
    this.dirty.clear();
  }
}
