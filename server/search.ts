/**
 * Full-text search over posts (title + text + OCR text) with the index of the post_search
 * migration.
 *
 * SQLite: a trigram FTS5 index. Chinese has no spaces, so the index holds every three-character
 * substring. A query word of three or more characters is a phrase of trigrams. A two-character
 * word — most Chinese words — matches no trigram by itself, so it is expanded to the indexed
 * trigrams that start with it (read from the fts5vocab table by a range scan; every indexed text
 * ends with a newline, so every occurrence starts some trigram). One-character words cannot use
 * the index and are checked with LIKE on the rows the index found, or on a scan when nothing else
 * narrows it.
 *
 * PostgreSQL: no FTS5 and no vocabulary table. A pg_trgm GIN index on
 * post_search_body(title, text, ocrText) serves `ILIKE '%word%'` directly, so every word is one
 * ILIKE on that expression (case-insensitive like the SQLite index and LIKE checks, and for
 * non-ASCII letters too, which SQLite's LIKE leaves alone; the expression must be the index's,
 * word for word, for the index to serve it). Words of three or more characters narrow through the index; shorter
 * ones contain no trigram to look up, so on their own they are a scan of the posts (the GIN index
 * would hand back every row), slow at a million posts where SQLite reads its vocabulary.
 */
import { Prisma } from "@/generated/prisma/client";
import { dialectOf, type Db, type Dialect } from "../lib/db";
import { flushSearchIndex } from "../lib/search-index";

/** The words of a query: whitespace-separated, deduplicated, at most 8. */
export function queryWords(q: string): string[] {
  const words = q
    .normalize("NFKC")
    .split(/[\s\u3000,，;；]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  return [...new Set(words)].slice(0, 8);
}

/** Length in characters (code points), not UTF-16 units. */
export const charLength = (s: string) => [...s].length;

/** An FTS5 string literal: double quotes doubled. */
export function ftsString(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** The smallest string greater than every string starting with `prefix` (for a range scan). */
export function prefixUpperBound(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!;
  return chars.join("") + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** A LIKE pattern matching `word` anywhere, with the wildcard characters escaped (ESCAPE '\'). */
export function likeContains(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** More expansions than this and the two-character word is checked with LIKE instead. */
const MAX_EXPANSION = 4000;

export interface SearchPlan {
  /** The database the plan is for: the conditions {@link searchCondition} writes differ. */
  dialect: Dialect;
  /** FTS5 MATCH expression (SQLite), or null when no word can use the index (always on PostgreSQL). */
  match: string | null;
  /**
   * Words checked as substrings. SQLite: LIKE against title/text, for words too short for the
   * index or too common to expand. PostgreSQL: every word, with ILIKE against the indexed body.
   */
  like: string[];
  /** True when a two-character word occurs nowhere: the result is empty without asking further. */
  empty: boolean;
  /**
   * True when {@link searchCondition} narrows the posts through an index, so its matches are a
   * set to drive a query from: a MATCH on SQLite, a word of three or more characters (which has
   * trigrams) on PostgreSQL.
   */
  indexed: boolean;
}

/**
 * Turn a query into an FTS5 MATCH expression plus LIKE checks (SQLite; reads the index
 * vocabulary for two-character words), or into one ILIKE check per word (PostgreSQL).
 */
export async function planSearch(db: Db, q: string): Promise<SearchPlan> {
  const dialect = dialectOf(db);
  if (dialect === "postgresql") {
    const like = queryWords(q);
    return { dialect, match: null, like, empty: false, indexed: like.some((w) => charLength(w) >= 3) };
  }
  // Posts stored since the last flush are only queued for the index: index them first, so the
  // search (and the vocabulary read below) sees every stored post.
  await flushSearchIndex(db);
  const parts: string[] = [];
  const like: string[] = [];
  for (const word of queryWords(q)) {
    const n = charLength(word);
    if (n >= 3) {
      parts.push(ftsString(word));
    } else if (n === 2) {
      // The trigram tokenizer folds case; the vocabulary holds lower-case terms.
      const prefix = word.toLowerCase();
      const rows = await db.$queryRaw<{ term: string }[]>`
        SELECT "term" FROM "post_fts_vocab" WHERE "term" >= ${prefix} AND "term" < ${prefixUpperBound(prefix)} LIMIT ${MAX_EXPANSION + 1}`;
      if (rows.length === 0) return { dialect, match: null, like: [], empty: true, indexed: false };
      if (rows.length > MAX_EXPANSION) like.push(word);
      else parts.push(`(${rows.map((r) => ftsString(r.term)).join(" OR ")})`);
    } else {
      like.push(word);
    }
  }
  const match = parts.length ? parts.join(" AND ") : null;
  return { dialect, match, like, empty: false, indexed: match !== null };
}

/**
 * The PostgreSQL test of one word: ILIKE on the expression of the trigram index (so the index
 * serves it), with the word's wildcard characters escaped.
 */
function pgContains(word: string): Prisma.Sql {
  return Prisma.sql`post_search_body(p."title", p."text", p."ocrText") ILIKE ${likeContains(word)} ESCAPE '\\'`;
}

/**
 * The test of one word on a post row `p` (title, text and OCR text), for probing candidates one
 * by one: LIKE on the columns on SQLite (ASCII case-insensitive), ILIKE on the indexed body on
 * PostgreSQL.
 */
export function wordProbe(dialect: Dialect, word: string): Prisma.Sql {
  if (dialect === "postgresql") return pgContains(word);
  const pattern = likeContains(word);
  return Prisma.sql`(p."title" LIKE ${pattern} ESCAPE '\\' OR p."text" LIKE ${pattern} ESCAPE '\\' OR p."ocrText" LIKE ${pattern} ESCAPE '\\')`;
}

/** SQL conditions on `p` (the Post alias) for a planned search. */
export function searchCondition(plan: SearchPlan): Prisma.Sql[] {
  if (plan.empty) return [Prisma.sql`FALSE`];
  if (plan.dialect === "postgresql") return plan.like.map(pgContains);
  const out: Prisma.Sql[] = [];
  if (plan.match) out.push(Prisma.sql`p."id" IN (SELECT rowid FROM "post_fts" WHERE "post_fts" MATCH ${plan.match})`);
  for (const w of plan.like) {
    const pattern = likeContains(w);
    out.push(Prisma.sql`(p."title" LIKE ${pattern} ESCAPE '\\' OR p."text" LIKE ${pattern} ESCAPE '\\')`);
  }
  return out;
}
