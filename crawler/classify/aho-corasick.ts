/**
 * Aho–Corasick multi-pattern matching: one pass over the text finds every occurrence of every
 * word, overlapping ones included (考试, 考试作弊 and 作弊 in "考试作弊"). Used for sensitive words
 * and topic keywords over cleaned text.
 */
import { normalizeWord } from "./text-clean";

/** One occurrence of a word; offsets are UTF-16 indexes into the searched text, end exclusive. */
export interface WordHit {
  word: string;
  start: number;
  end: number;
}

/** A compiled set of words. Words are normalised like cleaned text ({@link normalizeWord}). */
export class WordMatcher {
  /** The distinct normalised words, in first-given order. */
  readonly words: readonly string[];
  private readonly next: Map<number, number>[] = [new Map<number, number>()];
  private readonly fail: number[] = [0];
  /** Indexes of the words ending at each state, including those reached through fail links. */
  private readonly out: number[][] = [[]];

  constructor(words: Iterable<string>) {
    const list: string[] = [];
    const seen = new Set<string>();
    for (const w of words) {
      const n = normalizeWord(w);
      if (n && !seen.has(n)) {
        seen.add(n);
        list.push(n);
      }
    }
    this.words = list;
    list.forEach((w, i) => this.insert(w, i));
    this.link();
  }

  private insert(word: string, index: number): void {
    let s = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let t = (this.next[s] as Map<number, number>).get(c);
      if (t === undefined) {
        t = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.out.push([]);
        (this.next[s] as Map<number, number>).set(c, t);
      }
      s = t;
    }
    (this.out[s] as number[]).push(index);
  }

  // Breadth-first over the trie: a state's fail link is the longest proper suffix that is also a
  // prefix of some word; its outputs inherit the fail state's so suffix words are reported too.
  private link(): void {
    const queue: number[] = [];
    for (const t of (this.next[0] as Map<number, number>).values()) queue.push(t);
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      for (const [c, t] of this.next[s] as Map<number, number>) {
        let f = this.fail[s] as number;
        while (f !== 0 && !(this.next[f] as Map<number, number>).has(c)) f = this.fail[f] as number;
        const g = (this.next[f] as Map<number, number>).get(c);
        this.fail[t] = g !== undefined && g !== t ? g : 0;
        const inherited = this.out[this.fail[t]] as number[];
        if (inherited.length > 0) this.out[t] = [...(this.out[t] as number[]), ...inherited];
        queue.push(t);
      }
    }
  }

  /** Number of distinct words. */
  get size(): number {
    return this.words.length;
  }

  /** Every occurrence of every word in `text`, ordered by start, then end. */
  findAll(text: string): WordHit[] {
    const hits: WordHit[] = [];
    if (this.words.length === 0) return hits;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let t = (this.next[s] as Map<number, number>).get(c);
      while (t === undefined && s !== 0) {
        s = this.fail[s] as number;
        t = (this.next[s] as Map<number, number>).get(c);
      }
      s = t ?? 0;
      for (const w of this.out[s] as number[]) {
        const word = this.words[w] as string;
        hits.push({ word, start: i + 1 - word.length, end: i + 1 });
      }
    }
    hits.sort((a, b) => a.start - b.start || a.end - b.end);
    return hits;
  }

  /** The distinct words occurring in `text`, in order of first occurrence. */
  distinctWords(text: string): string[] {
    return [...new Set(this.findAll(text).map((h) => h.word))];
  }
}
