/**
 * Full-text search over posts (title + text + OCR text) with the trigram FTS5 index of the
 * post_search migration.
 *
 * Chinese has no spaces, so the index holds every three-character substring. A query word of
 * three or more characters is a phrase of trigrams. A two-character word — most Chinese words —
 * matches no trigram by itself, so it is expanded to the indexed trigrams that start with it
 * (read from the fts5vocab table by a range scan; every indexed text ends with a newline, so
 * every occurrence starts some trigram). One-character words cannot use the index and are
 * checked with LIKE on the rows the index found, or on a scan when nothing else narrows it.
 */
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";

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
  /** FTS5 MATCH expression, or null when no word can use the index. */
  match: string | null;
  /** Words checked with LIKE against title/text (too short for the index, or too common to expand). */
  like: string[];
  /** True when a two-character word occurs nowhere: the result is empty without asking further. */
  empty: boolean;
}

/**
 * Turn a query into an FTS5 MATCH expression plus LIKE checks. Reads the index vocabulary for
 * two-character words.
 */
export async function planSearch(db: Db, q: string): Promise<SearchPlan> {
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
        SELECT term FROM post_fts_vocab WHERE term >= ${prefix} AND term < ${prefixUpperBound(prefix)} LIMIT ${MAX_EXPANSION + 1}`;
      if (rows.length === 0) return { match: null, like: [], empty: true };
      if (rows.length > MAX_EXPANSION) like.push(word);
      else parts.push(`(${rows.map((r) => ftsString(r.term)).join(" OR ")})`);
    } else {
      like.push(word);
    }
  }
  return { match: parts.length ? parts.join(" AND ") : null, like, empty: false };
}

/** SQL conditions on `p` (the Post alias) for a planned search. */
export function searchCondition(plan: SearchPlan): Prisma.Sql[] {
  if (plan.empty) return [Prisma.sql`0`];
  const out: Prisma.Sql[] = [];
  if (plan.match) out.push(Prisma.sql`p.id IN (SELECT rowid FROM post_fts WHERE post_fts MATCH ${plan.match})`);
  for (const w of plan.like) {
    const pattern = likeContains(w);
    out.push(Prisma.sql`(p.title LIKE ${pattern} ESCAPE '\\' OR p.text LIKE ${pattern} ESCAPE '\\')`);
  }
  return out;
}
