/**
 * Topics as the classifier reads them from the database: the rows, their parsed models and word
 * matchers (cached, since this runs for every stored page), and the segmenter's user dictionary.
 */
import type { Db } from "../../lib/db";
import { storesOf } from "../../lib/store";
import { CRAWL_STORE, one } from "../store/driver";
import type { StoredTopicRow } from "../store/ops";
import { jsonArray, parseJsonColumn } from "../../lib/json-column";
import { WordMatcher } from "./aho-corasick";
import { parseKeywordRules, type KeywordRules } from "./keyword-rules";
import { TopicModel } from "./model";
import { setUserDictionary } from "./tokenizer";

/** A topic does not exist. */
export class TopicNotFoundError extends Error {
  override name = "TopicNotFoundError";
}

/** Decode a JSON string[] column; anything else reads as empty (the dashboard validates on write). */
export function parseStringList(json: string | null | undefined): string[] {
  return parseJsonColumn(json, jsonArray, []).filter((x): x is string => typeof x === "string" && x.trim() !== "");
}

/** The columns of a topic that judging a post needs. */
export type TopicRow = Omit<StoredTopicRow, "enabled" | "userDict">;

/** A topic ready to judge posts: its row, compiled model (null while untrained) and matchers. */
export interface LoadedTopic {
  row: TopicRow;
  model: TopicModel | null;
  sensitive: WordMatcher;
  /** The topic's keyword rules (./keyword-rules.ts). */
  keywords: KeywordRules;
}

// Parsed models per client, one (the newest) version per topic: a model can be megabytes of JSON,
// so it is read and compiled once, not per crawled page. Keyed by client because topic ids of two
// databases (tests, tools) must not collide.
const modelCache = new WeakMap<Db, Map<number, { version: number; model: TopicModel | null }>>();
const matcherCache = new Map<string, WordMatcher>();
const rulesCache = new Map<string, KeywordRules>();
const MATCHER_CACHE_LIMIT = 512;

/**
 * A keyword column's compiled rules, cached by its JSON (regexes are compiled once). Entries the
 * parser refuses are left out: the form and the CLI refuse to store them, so only a list written
 * before a rule became invalid can hold one, and the other rules keep working.
 */
export function keywordRulesFor(json: string): KeywordRules {
  let r = rulesCache.get(json);
  if (!r) {
    if (rulesCache.size >= MATCHER_CACHE_LIMIT) rulesCache.clear();
    r = parseKeywordRules(parseStringList(json)).rules;
    rulesCache.set(json, r);
  }
  return r;
}

function matcherFor(json: string): WordMatcher {
  let m = matcherCache.get(json);
  if (!m) {
    if (matcherCache.size >= MATCHER_CACHE_LIMIT) matcherCache.clear();
    m = new WordMatcher(parseStringList(json));
    matcherCache.set(json, m);
  }
  return m;
}

async function modelFor(db: Db, row: TopicRow): Promise<TopicModel | null> {
  if (row.modelVersion <= 0) return null;
  let perDb = modelCache.get(db);
  if (!perDb) {
    perDb = new Map();
    modelCache.set(db, perDb);
  }
  const hit = perDb.get(row.id);
  if (hit && hit.version === row.modelVersion) return hit.model;
  const stored = await db.topic.findUnique({ where: { id: row.id }, select: { model: true, modelVersion: true } });
  // A model that cannot be read (another format version) must not stop the crawler: the topic is
  // treated as untrained until it is retrained; `topics eval` reports why it cannot be read.
  let model: TopicModel | null = null;
  if (stored?.model) {
    try {
      model = TopicModel.fromJSON(stored.model);
    } catch {
      model = null;
    }
  }
  perDb.set(row.id, { version: stored?.modelVersion ?? row.modelVersion, model });
  return model;
}

/**
 * The segmenter's user dictionary is the union of every topic's words (see tokenizer.ts for why):
 * load exactly that before segmenting anything, so tokens never depend on which topic ran first.
 */
export async function loadDictionary(db: Db): Promise<void> {
  const rows = await db.topic.findMany({ select: { userDict: true } });
  setUserDictionary(rows.flatMap((r) => parseStringList(r.userDict)));
}

/**
 * The enabled topics to judge against (only `ids`, when given), and whether they are all the
 * enabled topics. When there is any, the segmenter's dictionary is loaded as {@link loadDictionary}
 * does, from the same rows: this runs for every stored page, so it is one query, not two.
 */
export async function loadTopics(db: Db, ids?: readonly number[]): Promise<{ topics: LoadedTopic[]; complete: boolean }> {
  const rows = await topicRows(db);
  const wanted: TopicRow[] = rows.filter((r) => r.enabled && (!ids || ids.includes(r.id)));
  const complete = wanted.length === rows.filter((r) => r.enabled).length;
  if (wanted.length > 0) setUserDictionary(rows.flatMap((r) => parseStringList(r.userDict)));
  const topics: LoadedTopic[] = [];
  for (const row of wanted) {
    topics.push({ row, model: await modelFor(db, row), sensitive: matcherFor(row.sensitiveWords), keywords: keywordRulesFor(row.keywords) });
  }
  return { topics, complete };
}

/**
 * Every topic's row as {@link loadTopics} needs it, in id order. On SQLite a prepared statement on
 * Prisma's own connection (lib/store): this runs for every batch of classified posts, four times
 * per account in a crawl, and each Prisma query costs about 1.5 ms of the crawl's busy thread to
 * compile (issue 17).
 */
function topicRows(db: Db): Promise<StoredTopicRow[]> {
  return storesOf(db).run(() => one<StoredTopicRow[]>({ op: "topicRows" }), CRAWL_STORE, { transaction: false });
}

/** The whole topic row; a missing topic is a {@link TopicNotFoundError}. */
export async function topicById(db: Db, topicId: number) {
  const topic = await db.topic.findUnique({ where: { id: topicId } });
  if (!topic) throw new TopicNotFoundError(`no topic with id ${topicId}`);
  return topic;
}
