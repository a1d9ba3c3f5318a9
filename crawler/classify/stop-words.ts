/**
 * The Chinese stop-word list shipped in `data/stopwords-zh.txt` (from stopwords-iso, MIT), read
 * once per process into a Set that the tokenizer consults for every token.
 *
 * To regenerate the file: take key `zh` of `stopwords-iso/stopwords-iso.json`, pass each word
 * through {@link normalizeWord} (NFKC + lower case), drop duplicates keeping the order, and keep the
 * header comment. It is normalised like cleaned text so a lookup needs no further work per token.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeWord } from "./text-clean";

/**
 * Where the list is. Under node/tsx it sits next to this module. Inside the Next.js server bundle
 * `new URL(…, import.meta.url)` becomes an asset URL, not a file, so fall back to the project
 * directory, which is where `next start` runs.
 */
function stopWordsFile(): string {
  try {
    const beside = fileURLToPath(new URL("./data/stopwords-zh.txt", import.meta.url));
    if (fs.existsSync(beside)) return beside;
  } catch {
    // bundled: see below
  }
  return path.join(process.cwd(), "crawler", "classify", "data", "stopwords-zh.txt");
}

let cached: ReadonlySet<string> | undefined;

/** Parse a stop-word file: one word per line, `#` comments and blank lines ignored. */
export function parseStopWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("#")) continue;
    const w = normalizeWord(line);
    if (w) words.add(w);
  }
  return words;
}

/** The shipped stop-word set (read on first use, then shared). */
export function stopWords(): ReadonlySet<string> {
  cached ??= parseStopWords(fs.readFileSync(stopWordsFile(), "utf8"));
  return cached;
}
