/**
 * The online incident clusterer: one algorithm, two index backends (./memory-index.ts for the
 * benchmark and tests, ./index-store.ts on the database for the crawl), so both make the same
 * decisions. Each post is looked at once, in the order it arrives:
 *
 * 1. Explicit link: a reply or repost whose parent post is a member joins its parent's incident
 *    ("reply" or "link"), whatever its text; a generic "顶" follows its thread and nothing else.
 * 2. Near-duplicate: an informative text whose 64-bit SimHash is within 3 bits of a member's
 *    (found through the 4 LSH bands) joins that member's incident ("near-duplicate").
 * 3. Same event: TF-IDF cosine between the post and each incident's centroid, over jieba words and
 *    CJK bigrams, with IDF from the stream so far. Candidates come from an inverted index
 *    (term → incidents, newest postings first, at most {@link POSTINGS_PER_TERM} per term) limited
 *    to incidents active within {@link WINDOW_MS} of the post, never from all pairs. The best one
 *    at or above {@link SIMILAR_THRESHOLD} takes it ("similar").
 * 4. Otherwise an informative post starts a candidate ("seed"); an uninformative one is left alone.
 *
 * Why a centroid rather than the nearest member: a short repost shares two or three words with its
 * event's many posts, and the centroid adds them up, while one member alone rarely shares enough;
 * a background post that shares one word with one member does not move a centroid enough.
 */
import { runPlanAsync } from "../../lib/plan";
import { hamming, NEAR_DUPLICATE_BITS, simhash, simhashBands, type SimHash } from "./simhash";
import { BIGRAM, informative, textFeatures, type TextFeatures } from "./text-features";

/** A post as clustering sees it. `key` is the post id in the crawl, the line number in the benchmark. */
export interface ClusterPost {
  key: number;
  /** publishedAt (or first seen) in ms. */
  time: number;
  title?: string | null;
  text: string;
  ocrText?: string | null;
  /**
   * The post it explicitly belongs to: a reply's thread post, a repost's original (Weibo
   * retweeted_status, 【转】/转自, a quoted URL of a stored post). Null when none is known.
   */
  parentKey?: number | null;
  /** How it is linked to {@link parentKey}: "reply" (same thread) or "link" (repost or quote). */
  linkKind?: "reply" | "link";
  /**
   * Its text features, when the caller computed them already (the crawl segments outside the
   * database transaction, which must stay short). @default textFeatures(title, text, ocrText)
   */
  features?: TextFeatures;
}

/** How a post joined (IncidentPost.reason). */
export type JoinReason = "seed" | "near-duplicate" | "similar" | "link" | "reply";

/** What clustering decided for one post. */
export interface ClusterDecision {
  key: number;
  /** Its incident, or null when it is left alone. */
  incidentId: number | null;
  reason: JoinReason | null;
  score: number | null;
  /** The member it matched (link, reply, near-duplicate) or null. */
  matchedKey: number | null;
  /** It was already a member (clustered before, or placed by a reviewer): nothing changed. */
  already?: boolean;
}

/** An incident's membership as the index reports it: only incidents that take new posts are "open". */
export interface IndexedMembership {
  incidentId: number;
  /** false for a dismissed incident (its posts stay apart and it takes none) or a missing one. */
  accepting: boolean;
}

/** A near-duplicate candidate: a member's fingerprint. */
export interface BandHit {
  key: number;
  incidentId: number;
  hash: SimHash;
}

/** A posting hit: an incident's centroid weight on one of the query terms. */
export interface TermHit {
  incidentId: number;
  term: string;
  weight: number;
}

/** The vector added to an incident's centroid, and what else the index keeps of a member. */
export interface MemberEntry {
  post: ClusterPost;
  /** Unit TF-IDF vector, times the member's weight; empty for an uninformative text. */
  vector: Map<string, number>;
  /** Its fingerprint and band keys, for informative texts only. */
  hash: SimHash | null;
  bands: string[];
  reason: JoinReason;
  score: number | null;
  matchedKey: number | null;
  /** Its weight in the incident's mass: 1, a reply {@link REPLY_WEIGHT}, 0 for an uninformative text. */
  weight: number;
}

/**
 * What the clusterer needs of an index. Every read is by key or through an index (band, term);
 * implementations must give identical answers for identical histories (including the order of
 * postings: newest first, by the order terms were first added to an incident).
 */
export interface ClusterIndex {
  /** Stream document count and each term's document frequency. */
  docFreq(terms: readonly string[]): Promise<{ docs: number; df: number[] }>;
  /** Count one informative document with these distinct terms. */
  addDoc(terms: readonly string[]): Promise<void>;
  /** The incident a post belongs to (following merges), or null when it is in none. */
  membership(key: number): Promise<IndexedMembership | null>;
  /** Whether a post was clustered already (member or left alone). */
  seen(key: number): Promise<boolean>;
  /** Members whose fingerprint shares a band, in accepting incidents active in [from, to]. */
  bandHits(bands: readonly string[], from: number, to: number): Promise<BandHit[]>;
  /**
   * Centroid weights on `terms` of accepting incidents active in [from, to] (lastSeen ≥ from and
   * firstSeen ≤ to): per term at most `perTerm` incidents, newest postings first.
   */
  termHits(terms: readonly string[], from: number, to: number, perTerm: number): Promise<TermHit[]>;
  /** Squared norms of incidents' centroids. */
  norms(incidentIds: readonly number[]): Promise<Map<number, number>>;
  /** Incidents' masses: the sum of their members' weights (a reply counts {@link REPLY_WEIGHT}). */
  masses(incidentIds: readonly number[]): Promise<Map<number, number>>;
  /** Incidents' newest member times (ms). */
  lastSeen(incidentIds: readonly number[]): Promise<Map<number, number>>;
  /** Start a candidate incident with this member; returns its id. */
  create(entry: MemberEntry): Promise<number>;
  /** Add a member to an incident (the index updates centroid, figures and status). */
  join(incidentId: number, entry: MemberEntry): Promise<void>;
  /** Add a member's vector and bands to its incident's index, its membership unchanged (a rebuild's kept members). */
  indexMember(incidentId: number, entry: MemberEntry): Promise<void>;
  /** Record that a post was looked at and left alone. */
  leaveAlone(post: ClusterPost): Promise<void>;
}

/** Incidents further than this from a post (by their first and last post) are not candidates. */
export const WINDOW_MS = 3 * 24 * 3600 * 1000;
/** Near-duplicates (reposts of an old story) are found over a longer window. */
export const DUPLICATE_WINDOW_MS = 14 * 24 * 3600 * 1000;
/** Cosine (post vs incident centroid) from which a post joins the incident. */
export const SIMILAR_THRESHOLD = 0.4;
/** The query uses this many of the post's heaviest terms. */
export const QUERY_TERMS = 30;
/** Newest postings read per term. */
export const POSTINGS_PER_TERM = 64;
/** A term in more than this share of documents is too common to look up (it would read everything). */
export const MAX_DF_SHARE = 0.05;
/** Until the stream is large, a term is looked up even when its share is above MAX_DF_SHARE. */
export const MIN_MAX_DF = 50;
/** Weight of a bigram term relative to a word. */
export const BIGRAM_WEIGHT = 0.3;
/** Weight of a reply's vector in its incident's centroid (replies drift from the story). */
export const REPLY_WEIGHT = 0.5;
/**
 * Recency: an incident's score is multiplied by 1 + ({@link RECENCY_BOOST} − 1)·e^(−Δ/RECENCY_MS),
 * Δ the time from its newest post to the new one. Why: reposts of a story come in bursts (half of
 * an event's posts follow its previous one within about three minutes on the labelled Weibo
 * events), and a short repost comment shares only a word or two with the story, so a story that is
 * spreading right now is the likelier home of a borderline match than one that went quiet a day
 * ago. A smooth decay rather than a cut-off, so that no one minute decides; the similarity
 * threshold was raised with it (0.3 → 0.4) so that a quiet incident needs more shared words than
 * before. On bench:incidents: text-only F1 0.71 → 0.81, with links 0.96 → 0.97.
 */
export const RECENCY_MS = 30 * 60 * 1000;
/** See {@link RECENCY_MS}: the factor for an incident whose newest post is this instant; 1 turns it off. */
export const RECENCY_BOOST = 3;

/** Tunables (defaults above), for tests and the benchmark's exploration. */
export interface ClusterOptions {
  windowMs?: number;
  duplicateWindowMs?: number;
  similarThreshold?: number;
  queryTerms?: number;
  postingsPerTerm?: number;
  maxDfShare?: number;
  bigramWeight?: number;
  replyWeight?: number;
  /** See {@link RECENCY_MS}. */
  recencyMs?: number;
  /** See {@link RECENCY_BOOST}. */
  recencyBoost?: number;
  /** Ignore explicit links (the benchmark's text-only score). */
  ignoreLinks?: boolean;
  /** See {@link IDF_PRIOR_DOCS}. */
  idfPrior?: number;
  /** How a post is scored against an incident (see {@link SCORING}). */
  scoring?: "cosine" | "coverage";
  /** Centroid weight at which a term counts fully in "coverage" scoring. */
  saturation?: number;
  /** In "coverage" scoring, a term counts fully when this share of the incident's members use it. */
  shareFull?: number;
}

/**
 * "coverage": the share of the post's (query) weight that the incident's vocabulary explains, each
 * term counted up to its centroid weight / {@link SATURATION}. Unlike the cosine, it does not
 * punish a short repost for the length of its event's story.
 */
export const SCORING: "cosine" | "coverage" = "coverage";
/** See {@link SCORING}. */
export const SATURATION = 1;
/**
 * See {@link ClusterOptions.shareFull}: a big incident's vocabulary grows with every reply, and
 * a word one of its fifty posts used once says little about whether a new post belongs to it.
 */
export const SHARE_FULL = 0.1;

/**
 * Pseudo-documents added to the stream's count in IDF: a prior that every term is rare. Without
 * it, at the start of a stream every word a post shares with an earlier one looks common and its
 * unseen words look rare, so nothing matches until thousands of posts have been seen.
 */
export const IDF_PRIOR_DOCS = 1000;

/** IDF with add-one smoothing over the stream so far (plus {@link IDF_PRIOR_DOCS}). */
function idf(docs: number, df: number, prior: number): number {
  return Math.log((docs + prior + 1) / (df + 1)) + 1;
}

/** One call of a {@link ClusterIndex} method, as the clustering plans yield it. */
export type IndexOp = { [K in keyof ClusterIndex]: { op: K; args: Parameters<ClusterIndex[K]> } }[keyof ClusterIndex];

/** What a {@link ClusterIndex} method answers. */
type Answer<K extends keyof ClusterIndex> = Awaited<ReturnType<ClusterIndex[K]>>;

/**
 * A {@link ClusterIndex} whose methods answer at once: the SQLite index (./sqlite-index.ts) runs
 * inside a synchronous transaction, where nothing may wait for a promise.
 */
export type SyncClusterIndex = { [K in keyof ClusterIndex]: (...args: Parameters<ClusterIndex[K]>) => Answer<K> };

/** A clustering plan (lib/plan.ts): it yields index calls and is sent their answers. */
export type ClusterPlan<R> = Generator<IndexOp, R, unknown>;

/** Ask the index: yield one call and return its answer. */
function* ask<K extends keyof ClusterIndex>(op: K, ...args: Parameters<ClusterIndex[K]>): ClusterPlan<Answer<K>> {
  return (yield { op, args } as unknown as IndexOp) as Answer<K>;
}

/** Carry out one index call on an index: a promise from a {@link ClusterIndex}, the answer itself from a {@link SyncClusterIndex}. */
export function callIndex(index: ClusterIndex | SyncClusterIndex, call: IndexOp): unknown {
  return (index[call.op] as (...args: unknown[]) => unknown).apply(index, call.args);
}

/**
 * The clustering rules, written once as plans (lib/plan.ts): generators that yield index calls
 * ({@link IndexOp}) and are sent the answers, so one set of decisions runs on the memory index,
 * on Prisma (PostgreSQL) and as prepared statements in one synchronous SQLite transaction.
 */
export class ClusterRules {
  readonly options: Required<ClusterOptions>;

  constructor(options: ClusterOptions = {}) {
    this.options = {
      windowMs: options.windowMs ?? WINDOW_MS,
      duplicateWindowMs: options.duplicateWindowMs ?? DUPLICATE_WINDOW_MS,
      similarThreshold: options.similarThreshold ?? SIMILAR_THRESHOLD,
      queryTerms: options.queryTerms ?? QUERY_TERMS,
      postingsPerTerm: options.postingsPerTerm ?? POSTINGS_PER_TERM,
      maxDfShare: options.maxDfShare ?? MAX_DF_SHARE,
      bigramWeight: options.bigramWeight ?? BIGRAM_WEIGHT,
      replyWeight: options.replyWeight ?? REPLY_WEIGHT,
      recencyMs: options.recencyMs ?? RECENCY_MS,
      recencyBoost: options.recencyBoost ?? RECENCY_BOOST,
      ignoreLinks: options.ignoreLinks ?? false,
      idfPrior: options.idfPrior ?? IDF_PRIOR_DOCS,
      scoring: options.scoring ?? SCORING,
      saturation: options.saturation ?? SATURATION,
      shareFull: options.shareFull ?? SHARE_FULL,
    };
  }

  /** The TF-IDF vector (unit length) of a text's features, with the IDF of the stream so far. */
  *vectorOf(f: TextFeatures): ClusterPlan<{ vector: Map<string, number>; df: Map<string, number>; docs: number }> {
    const terms = [...f.terms.keys()];
    const { docs, df } = yield* ask("docFreq", terms);
    const vector = new Map<string, number>();
    const dfs = new Map<string, number>();
    let norm2 = 0;
    terms.forEach((t, i) => {
      const d = df[i] ?? 0;
      dfs.set(t, d);
      const w = (1 + Math.log(f.terms.get(t)!)) * idf(docs, d, this.options.idfPrior) * (t.startsWith(BIGRAM) ? this.options.bigramWeight : 1);
      vector.set(t, w);
      norm2 += w * w;
    });
    const norm = Math.sqrt(norm2) || 1;
    for (const [t, w] of vector) vector.set(t, w / norm);
    return { vector, df: dfs, docs };
  }

  /**
   * Index a post that is already a member (kept by a reviewer through a rebuild): its text counts
   * in the stream's IDF and its incident's centroid, as if clustering had put it there.
   */
  *indexMemberPlan(post: ClusterPost, incidentId: number, reply: boolean): ClusterPlan<void> {
    const f = post.features ?? textFeatures(post.title, post.text, post.ocrText);
    if (!informative(f)) return;
    const { vector } = yield* this.vectorOf(f);
    const hash = simhash(vector);
    const weight = reply ? this.options.replyWeight : 1;
    const v = new Map<string, number>();
    for (const [t, w] of vector) v.set(t, this.options.scoring === "coverage" ? weight : w * weight);
    yield* ask("indexMember", incidentId, { post, vector: v, hash, bands: simhashBands(hash), reason: "seed", score: null, matchedKey: null, weight });
    yield* ask("addDoc", [...vector.keys()]);
  }

  /** Cluster one post: join an incident, start a candidate or leave it alone. */
  *clusterPlan(post: ClusterPost): ClusterPlan<ClusterDecision> {
    const o = this.options;
    if (yield* ask("seen", post.key)) {
      const m = yield* ask("membership", post.key);
      return { key: post.key, incidentId: m?.incidentId ?? null, reason: null, score: null, matchedKey: null, already: true };
    }
    const f = post.features ?? textFeatures(post.title, post.text, post.ocrText);
    const useful = informative(f);
    let vector = new Map<string, number>();
    let hash: SimHash | null = null;
    let bands: string[] = [];
    let df = new Map<string, number>();
    let docs = 0;
    if (useful) {
      ({ vector, df, docs } = yield* this.vectorOf(f));
      hash = simhash(vector);
      bands = simhashBands(hash);
    }
    const entry = (reason: JoinReason, score: number | null, matchedKey: number | null, weight: number): MemberEntry => {
      const v = new Map<string, number>();
      // Coverage scoring keeps, per term, how many members (replies counting REPLY_WEIGHT) use it;
      // cosine scoring keeps the sum of the members' unit vectors.
      if (weight > 0) for (const [t, w] of vector) v.set(t, o.scoring === "coverage" ? weight : w * weight);
      return { post, vector: v, hash, bands, reason, score, matchedKey, weight: useful ? weight : 0 };
    };
    const finish = function* (d: ClusterDecision): ClusterPlan<ClusterDecision> {
      if (useful) yield* ask("addDoc", [...vector.keys()]);
      return d;
    };

    // 1. Explicit link to a member.
    if (!o.ignoreLinks && post.parentKey != null && post.parentKey !== post.key) {
      const m = yield* ask("membership", post.parentKey);
      if (m?.accepting) {
        const reason: JoinReason = post.linkKind === "link" ? "link" : "reply";
        yield* ask("join", m.incidentId, entry(reason, null, post.parentKey, reason === "reply" ? o.replyWeight : 1));
        return yield* finish({ key: post.key, incidentId: m.incidentId, reason, score: null, matchedKey: post.parentKey });
      }
    }
    if (!useful) {
      yield* ask("leaveAlone", post);
      return yield* finish({ key: post.key, incidentId: null, reason: null, score: null, matchedKey: null });
    }
    const weight = post.parentKey != null && post.linkKind !== "link" ? o.replyWeight : 1;

    // 2. Near-duplicate by SimHash bands.
    let best: BandHit | null = null;
    let bestDistance = NEAR_DUPLICATE_BITS + 1;
    for (const hit of yield* ask("bandHits", bands, post.time - o.duplicateWindowMs, post.time + o.duplicateWindowMs)) {
      const d = hamming(hash!, hit.hash);
      if (d < bestDistance || (d === bestDistance && best !== null && hit.key < best.key)) {
        best = hit;
        bestDistance = d;
      }
    }
    if (best) {
      const score = 1 - bestDistance / 64;
      yield* ask("join", best.incidentId, entry("near-duplicate", score, best.key, weight));
      return yield* finish({ key: post.key, incidentId: best.incidentId, reason: "near-duplicate", score, matchedKey: best.key });
    }

    // 3. TF-IDF cosine against centroids of incidents in the window, through the term index.
    const maxDf = Math.max(MIN_MAX_DF, o.maxDfShare * docs);
    const query = [...vector]
      .filter(([t]) => (df.get(t) ?? 0) <= maxDf)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, o.queryTerms)
      .map(([t]) => t);
    if (query.length > 0) {
      const dots = new Map<number, number>();
      const hits = yield* ask("termHits", query, post.time - o.windowMs, post.time + o.windowMs, o.postingsPerTerm);
      if (o.scoring === "coverage") {
        let mass = 0;
        for (const t of query) mass += vector.get(t)! ** 2;
        const sizes = yield* ask("masses", [...new Set(hits.map((h) => h.incidentId))]);
        for (const hit of hits) {
          const w = vector.get(hit.term)!;
          const full = Math.max(o.saturation, o.shareFull * (sizes.get(hit.incidentId) ?? 1));
          dots.set(hit.incidentId, (dots.get(hit.incidentId) ?? 0) + (w * w * Math.min(1, hit.weight / full)) / mass);
        }
      } else {
        for (const hit of hits) dots.set(hit.incidentId, (dots.get(hit.incidentId) ?? 0) + hit.weight * vector.get(hit.term)!);
      }
      if (dots.size > 0) {
        const norms = o.scoring === "coverage" ? new Map([...dots.keys()].map((id) => [id, 1])) : yield* ask("norms", [...dots.keys()]);
        const recent = o.recencyBoost !== 1 ? yield* ask("lastSeen", [...dots.keys()]) : new Map<number, number>();
        let bestId = -1;
        let bestScore = 0;
        for (const [id, dot] of dots) {
          const n2 = norms.get(id) ?? 0;
          if (n2 <= 0) continue;
          const seen = recent.get(id);
          const boost = seen === undefined ? 1 : 1 + (o.recencyBoost - 1) * Math.exp(-Math.abs(post.time - seen) / o.recencyMs);
          const s = (dot / Math.sqrt(n2)) * boost;
          if (s > bestScore || (s === bestScore && id < bestId)) {
            bestScore = s;
            bestId = id;
          }
        }
        if (bestId >= 0 && bestScore >= o.similarThreshold) {
          yield* ask("join", bestId, entry("similar", bestScore, null, weight));
          return yield* finish({ key: post.key, incidentId: bestId, reason: "similar", score: bestScore, matchedKey: null });
        }
      }
    }

    // 4. A new candidate.
    const id = yield* ask("create", entry("seed", null, null, 1));
    return yield* finish({ key: post.key, incidentId: id, reason: "seed", score: null, matchedKey: null });
  }
}

/** The online clusterer over one index. Not re-entrant: call {@link cluster} one post at a time. */
export class IncidentClusterer extends ClusterRules {
  constructor(
    readonly index: ClusterIndex,
    options: ClusterOptions = {},
  ) {
    super(options);
  }

  /**
   * Index a post that is already a member (kept by a reviewer through a rebuild): its text counts
   * in the stream's IDF and its incident's centroid, as if clustering had put it there.
   */
  indexMember(post: ClusterPost, incidentId: number, reply: boolean): Promise<void> {
    return runPlanAsync(this.indexMemberPlan(post, incidentId, reply), (call) => callIndex(this.index, call) as Promise<unknown>);
  }

  /** Cluster one post: join an incident, start a candidate or leave it alone. */
  cluster(post: ClusterPost): Promise<ClusterDecision> {
    return runPlanAsync(this.clusterPlan(post), (call) => callIndex(this.index, call) as Promise<unknown>);
  }
}
