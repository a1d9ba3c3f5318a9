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
import { dataFile } from "./data-file";
import { normalizeWord } from "./text-clean";

/** Where the list is (./data-file.ts); a missing file is reported by the read, with its path. */
function stopWordsFile(): string {
  return dataFile("stopwords-zh.txt") ?? path.join(process.cwd(), "crawler", "classify", "data", "stopwords-zh.txt");
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
  // The file is found at run time (./data-file.ts), so a bundler cannot know it: without the
  // comment Turbopack traces the whole project into the dashboard's build (a build warning). The
  // dashboard runs from the project directory (`next start`), where the file is.
  cached ??= parseStopWords(fs.readFileSync(/* turbopackIgnore: true */ stopWordsFile(), "utf8"));
  return cached;
}
