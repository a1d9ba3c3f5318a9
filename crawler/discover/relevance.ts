/**
 * Relevance for discovery: the topic's own classifier (naive Bayes P(on-topic) plus the topic
 * vector's cosine, exactly as the monitor flags posts), a keyword-cosine fallback for a topic that
 * has no model yet, the weighted relevance of body, anchor and URL that orders the frontier
 * (method.md §4: R = w1·C1 + w2·C2 + w3·C3), and the URL evidence learned during a run.
 */
import type { Db } from "../../lib/db";
import {
  DEFAULT_THRESHOLDS,
  parseKeywordRules,
  parseStringList,
  prepareText,
  relevanceDecision,
  TopicModel,
  TopicVector,
  tokenize,
  WordMatcher,
} from "../classify";

/** How a text relates to the topic. */
export interface TopicJudgement {
  /** Relevance in [0, 1]: P(on-topic) with a model, keyword cosine without. */
  score: number;
  /** The topic's decision, by the same rule that flags posts. */
  relevant: boolean;
}

/** A topic's classifier as discovery uses it. */
export interface TopicJudge {
  /** "model": the topic's trained model; "keywords": the fallback for an untrained topic. */
  readonly kind: "model" | "keywords";
  /** Judge a page's text (title and body). */
  judge(text: string): TopicJudgement;
  /** Relevance in [0, 1] of a short text (anchor text, a block's joined anchors, URL words). */
  score(text: string): number;
}

/** Options of {@link modelJudge}. */
export interface ModelJudgeOptions {
  /** P(on-topic) at or above which a page is relevant. @default DEFAULT_THRESHOLDS.nbThreshold */
  nbThreshold?: number;
  /** Cosine at or above which a page is relevant too (the monitor's second rule). @default DEFAULT_THRESHOLDS.cosineThreshold */
  cosineThreshold?: number;
}

/** Short texts repeat across pages (menus, "相关阅读" titles): cache their scores per judge. */
const SCORE_CACHE_LIMIT = 50_000;

function cached(fn: (text: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    if (cache.size >= SCORE_CACHE_LIMIT) cache.clear();
    const v = fn(text);
    cache.set(text, v);
    return v;
  };
}

/**
 * The judge of a trained topic: a page is relevant by the monitor's relevance rule
 * (relevanceDecision: P(on-topic) ≥ nbThreshold or, when the model has a topic vector,
 * cosine ≥ cosineThreshold), so a page discovery calls relevant is a page the monitor would
 * flag. Scores are P(on-topic).
 */
export function modelJudge(model: TopicModel, options: ModelJudgeOptions = {}): TopicJudge {
  const thresholds = {
    nbThreshold: options.nbThreshold ?? DEFAULT_THRESHOLDS.nbThreshold,
    cosineThreshold: options.cosineThreshold ?? DEFAULT_THRESHOLDS.cosineThreshold,
  };
  return {
    kind: "model",
    judge(text) {
      if (text.trim() === "") return { score: 0, relevant: false };
      const p = model.predict(text);
      return { score: p.score, relevant: relevanceDecision({ score: p.score, cosine: p.cosine, hasVector: model.hasVector }, thresholds).relevant };
    },
    score: cached((text) => (text.trim() === "" ? 0 : model.predict(text).score)),
  };
}

/**
 * The fallback for a topic without a model: cosine between the text and the topic's keywords
 * (method.md §2 with every keyword weighted 1), relevant at `cosineThreshold`. Keywords are
 * segmented like text, so "足球比赛" also matches a page that says 足球 and 比赛 apart. Weaker
 * than a trained model (no negative evidence at all): train the topic for real discovery.
 */
export function keywordJudge(keywords: readonly string[], cosineThreshold = DEFAULT_THRESHOLDS.cosineThreshold): TopicJudge {
  // Keyword rules (crawler/classify/keyword-rules.ts): the words of plain and + terms weigh a
  // page; a topic-wide ! term rules it out.
  const rules = parseKeywordRules(keywords).rules;
  const terms = [...new Set(rules.positiveWords().flatMap((k) => tokenize(k)))];
  const vector = new TopicVector({ terms, weights: terms.map(() => 1) });
  const cosine = (text: string): number => {
    if (terms.length === 0 || text.trim() === "") return 0;
    const prepared = prepareText(text);
    return rules.excluded(prepared.cleaned) ? 0 : vector.cosine(prepared);
  };
  return {
    kind: "keywords",
    judge(text) {
      const score = cosine(text);
      return { score, relevant: terms.length > 0 && score >= cosineThreshold };
    },
    score: cached(cosine),
  };
}

/** A topic row as far as discovery needs it. */
export interface DiscoveryTopic {
  id: number;
  name: string;
  keywords: string[];
  nbThreshold: number;
  cosineThreshold: number;
  /** True when the topic's stored model was loaded. */
  trained: boolean;
}

/**
 * Load a topic's judge: its stored model (TopicModel.fromJSON), or the keyword fallback when it
 * has none or the stored one cannot be read (another format version: retrain the topic).
 */
export async function loadTopicJudge(db: Db, topicId: number): Promise<{ topic: DiscoveryTopic; judge: TopicJudge }> {
  const row = await db.topic.findUnique({
    where: { id: topicId },
    select: { id: true, name: true, keywords: true, nbThreshold: true, cosineThreshold: true, model: true },
  });
  if (!row) throw new Error(`topic ${topicId} does not exist`);
  let model: TopicModel | null = null;
  if (row.model) {
    try {
      model = TopicModel.fromJSON(row.model);
    } catch {
      model = null;
    }
  }
  const keywords = parseStringList(row.keywords);
  const topic: DiscoveryTopic = {
    id: row.id,
    name: row.name,
    keywords,
    nbThreshold: row.nbThreshold,
    cosineThreshold: row.cosineThreshold,
    trained: model !== null,
  };
  const judge = model ? modelJudge(model, { nbThreshold: row.nbThreshold, cosineThreshold: row.cosineThreshold }) : keywordJudge(keywords, row.cosineThreshold);
  return { topic, judge };
}

/** Weights of the three relevance sources of a link's target (method.md §4). */
export interface RelevanceWeights {
  /** C1: the text the link was found in (the page body, or for a hub the link's block). @default 0.3 */
  body: number;
  /** C2: the link's anchor text. @default 0.5 */
  anchor: number;
  /** C3: the URL (what this run learned about its directory, and any Chinese words in it). @default 0.2 */
  url: number;
}

/** Defaults of {@link RelevanceWeights}: the anchor speaks most directly of the target page. */
export const DEFAULT_RELEVANCE_WEIGHTS: Readonly<RelevanceWeights> = { body: 0.3, anchor: 0.5, url: 0.2 };

/** R = w1·C1 + w2·C2 + w3·C3, the weights normalised to sum to 1 so R stays in [0, 1]. */
export function weightedRelevance(c: { body: number; anchor: number; url: number }, weights: RelevanceWeights): number {
  const sum = weights.body + weights.anchor + weights.url;
  if (sum <= 0) return 0;
  return (weights.body * c.body + weights.anchor * c.anchor + weights.url * c.url) / sum;
}

/**
 * Content words of a text for the block rules' title test: segmented, stop words dropped, and
 * single characters and bare numbers dropped (they match by accident, not by subject).
 */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) if (t.length >= 2 && !/^\d+$/.test(t)) out.add(t);
  return out;
}

/** Words that make a link's text unacceptable (method.md §5), matched like the monitor's sensitive words. */
export function sensitiveMatcher(words: readonly string[]): WordMatcher {
  return new WordMatcher(words);
}

/** Chinese in a URL (percent-encoded or raw), e.g. /tag/足球 or ?kw=南京大学: the URL's own words. */
export function urlWords(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // Broken escapes: whatever decodes is not worth more than the raw text.
  }
  return (decoded.match(/[\u4e00-\u9fff]{2,}/g) ?? []).join(" ");
}

/**
 * What a run has learned about URLs: the share of relevant pages under each directory
 * (`host/`, `host/a/`, `host/a/b/`), each estimate shrunk towards its parent's (a Beta prior of
 * weight `strength`), the root towards 1/2. Sites file articles by subject (/sports/2024/…), so
 * after a few pages from a directory its URLs say a lot about unseen siblings; an opaque id says
 * nothing, and then the estimate is the site's (or the crawl's) rate.
 */
export class UrlEvidence {
  private readonly stats = new Map<string, { n: number; relevant: number }>();

  /** @param strength weight of the parent's estimate, in pages. @default 2 */
  constructor(private readonly strength = 2) {}

  /** Record a fetched page's verdict. */
  observe(url: string, relevant: boolean): void {
    for (const key of ["", ...UrlEvidence.prefixes(url)]) {
      const s = this.stats.get(key) ?? { n: 0, relevant: 0 };
      s.n++;
      if (relevant) s.relevant++;
      this.stats.set(key, s);
    }
  }

  /** Estimated P(relevant) of a page at `url`, in [0, 1]. */
  estimate(url: string): number {
    let p = this.shrink("", 0.5);
    for (const key of UrlEvidence.prefixes(url)) p = this.shrink(key, p);
    return p;
  }

  private shrink(key: string, prior: number): number {
    const s = this.stats.get(key);
    if (!s) return prior;
    return (s.relevant + this.strength * prior) / (s.n + this.strength);
  }

  /** Directory keys of a URL, shortest first: "h/", "h/a/", "h/a/b/" (the file name is not a directory). */
  static prefixes(url: string): string[] {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return [];
    }
    const dirs = u.pathname.split("/").slice(1, -1).filter(Boolean);
    const out = [`${u.host}/`];
    let acc = `${u.host}/`;
    for (const d of dirs) {
      acc += `${d}/`;
      out.push(acc);
    }
    return out;
  }
}
