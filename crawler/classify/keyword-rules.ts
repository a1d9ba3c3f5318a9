/**
 * A topic's keyword rules: the one parser and matcher behind keyword flags (./verdict.ts),
 * discovery's keyword judge of untrained topics, and the topic form's and CLI's validation
 * (server/topic-admin.ts). No I/O, no jieba: it reads cleaned text (./text-clean.ts).
 *
 * Syntax (one rule per line; the syntax of the advanced search of 舆情 tools and search engines):
 * - `考试` — a plain keyword; a post matches when it contains it. Lines are alternatives (OR).
 * - terms on one line separated by spaces must all match (AND): `食堂 中毒`.
 * - `(食堂|饭堂)` or `食堂|饭堂` — a group: any one of its words. `(食堂|饭堂) (中毒|拉肚子)`
 *   is "any of the first group AND any of the second".
 * - `+word` — required; `!word` — excluded. On a line with other terms they apply to that line
 *   (`食堂 !招聘`); a line of only `+`/`!` terms applies to every rule of the topic (`!广告` on
 *   its own line: no post containing 广告 matches any rule).
 * - `/regex/` — a regular expression over the cleaned text (lower case, full-width folded).
 *   Only a safe subset is accepted (see {@link checkRegex}): bounded repeats only (`.{0,20}`, not
 *   `.*`), no look-around or back-references, and few enough ways to match that a backtracking
 *   engine cannot blow up; compiled once per rule set.
 * - `"two words"` — a phrase with a space in it.
 * Words are normalised like cleaned text (normalizeWord), so `ＡＢＣ` and `abc` are the same.
 */
import { WordMatcher } from "./aho-corasick";
import { normalizeWord } from "./text-clean";

/** Why a rule is refused (keys of the topic form's `topics.keywordRule` messages). */
export type KeywordRuleProblem =
  | "unclosedGroup"
  | "emptyGroup"
  | "nestedGroup"
  | "strayParen"
  | "unclosedQuote"
  | "unclosedRegex"
  | "emptyTerm"
  | "trailing"
  | "ruleTooLong"
  | "regexTooLong"
  | "regexUnbounded"
  | "regexRepeatTooLarge"
  | "regexTooComplex"
  | "regexUnsupported"
  | "regexInvalid"
  | "regexMatchesEmpty";

/** A refused rule: where (1-based line of the list and character position in it) and why. */
export interface KeywordRuleError {
  line: number;
  column: number;
  problem: KeywordRuleProblem;
  /** English, for the CLI: "line 2, position 5: …". */
  message: string;
}

/** Longest rule line, and longest regex source, in characters. */
export const MAX_RULE_LENGTH = 200;
export const MAX_REGEX_LENGTH = 100;
/** Largest bound of one repeat (`{0,50}`). */
export const MAX_REPEAT = 50;
/**
 * Most ways a regex may try at one position of the text (alternatives × repeat choices,
 * multiplied along the pattern): with V8's backtracking engine the work per post is at most about
 * this × the text's length, so 1,000 keeps a 10,000-character post under a few milliseconds.
 */
export const MAX_REGEX_PATHS = 1000;

const PROBLEM_TEXT: Record<KeywordRuleProblem, string> = {
  unclosedGroup: "a group opened with ( is not closed",
  emptyGroup: "a group has an empty alternative",
  nestedGroup: "groups cannot be nested",
  strayParen: "a ) without its (",
  unclosedQuote: 'a phrase opened with " is not closed',
  unclosedRegex: "a regular expression opened with / is not closed",
  emptyTerm: "+ or ! needs a word after it",
  trailing: 'put a space after a closing ) / or "',
  ruleTooLong: `a rule has at most ${MAX_RULE_LENGTH} characters`,
  regexTooLong: `a regular expression has at most ${MAX_REGEX_LENGTH} characters`,
  regexUnbounded: "unbounded repeats (* + {n,}) are refused: write a bound such as .{0,20}",
  regexRepeatTooLarge: `a repeat's bound is at most ${MAX_REPEAT}`,
  regexTooComplex: "the regular expression has too many ways to match: use fewer repeats or alternatives",
  regexUnsupported: "look-around, back-references, named groups and \\p classes are not supported",
  regexInvalid: "not a valid regular expression",
  regexMatchesEmpty: "the regular expression matches empty text, so it would match every post",
};

type Body = { kind: "word"; word: string } | { kind: "group"; words: string[] } | { kind: "regex"; source: string; re: RegExp };

interface Term {
  mode: "plain" | "must" | "exclude";
  body: Body;
}

/** One parsed rule line. */
interface Rule {
  /** The line as typed (trimmed). */
  text: string;
  terms: Term[];
}

/** A rule that matched a text, and what matched each of its terms. */
export interface RuleMatch {
  rule: string;
  hits: string[];
  /** Offset of the rule's first hit in the text (to list matches in reading order). */
  at: number;
}

/** Parse result of {@link parseKeywordRules}. */
export interface ParsedRules {
  rules: KeywordRules;
  errors: KeywordRuleError[];
}

function fail(line: number, column: number, problem: KeywordRuleProblem, detail?: string): KeywordRuleError {
  return { line, column, problem, message: `line ${line}, position ${column}: ${PROBLEM_TEXT[problem]}${detail ? ` (${detail})` : ""}` };
}

const SPACE = /\s/;
const PREFIX: Record<string, Term["mode"]> = { "+": "must", "＋": "must", "!": "exclude", "！": "exclude" };

/** Parse one line into terms, or the first error in it. */
function parseLine(text: string, line: number): Term[] | KeywordRuleError {
  if (text.length > MAX_RULE_LENGTH) return fail(line, MAX_RULE_LENGTH + 1, "ruleTooLong");
  const terms: Term[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (SPACE.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    let mode: Term["mode"] = "plain";
    if (PREFIX[text[i]!]) {
      mode = PREFIX[text[i]!]!;
      i++;
    }
    if (i >= n || SPACE.test(text[i]!)) return fail(line, start + 1, "emptyTerm");
    const c = text[i]!;
    let body: Body;
    if (c === "/") {
      let j = i + 1;
      while (j < n && text[j] !== "/") j += text[j] === "\\" ? 2 : 1;
      if (j >= n) return fail(line, i + 1, "unclosedRegex");
      const source = text.slice(i + 1, j);
      const problem = checkRegex(source);
      // A problem at a place in the source points there; one of the whole regex, at its "/".
      if (problem) return fail(line, problem.at === undefined ? i + 1 : i + 2 + problem.at, problem.problem, problem.detail);
      body = { kind: "regex", source, re: new RegExp(source, "i") };
      i = j + 1;
    } else if (c === "(") {
      const close = text.indexOf(")", i + 1);
      const nested = text.indexOf("(", i + 1);
      if (close < 0) return fail(line, i + 1, "unclosedGroup");
      if (nested >= 0 && nested < close) return fail(line, nested + 1, "nestedGroup");
      const words = text.slice(i + 1, close).split("|");
      const group = groupOf(words);
      if (!group) return fail(line, i + 1, "emptyGroup");
      body = group;
      i = close + 1;
    } else if (c === '"' || c === "“") {
      const end = text.indexOf(c === '"' ? '"' : "”", i + 1);
      if (end < 0) return fail(line, i + 1, "unclosedQuote");
      const word = normalizeWord(text.slice(i + 1, end));
      if (!word) return fail(line, start + 1, "emptyTerm");
      body = { kind: "word", word };
      i = end + 1;
    } else {
      let j = i;
      while (j < n && !SPACE.test(text[j]!)) {
        if (text[j] === "(") return fail(line, j + 1, "nestedGroup");
        if (text[j] === ")") return fail(line, j + 1, "strayParen");
        j++;
      }
      const raw = text.slice(i, j);
      if (raw.includes("|")) {
        const group = groupOf(raw.split("|"));
        if (!group) return fail(line, i + 1, "emptyGroup");
        body = group;
      } else body = { kind: "word", word: normalizeWord(raw) };
      i = j;
    }
    if (i < n && !SPACE.test(text[i]!)) return fail(line, i + 1, "trailing");
    terms.push({ mode, body });
  }
  return terms;
}

function groupOf(parts: string[]): Body | null {
  const words = parts.map((w) => normalizeWord(w));
  if (words.some((w) => w === "")) return null;
  return words.length === 1 ? { kind: "word", word: words[0]! } : { kind: "group", words: [...new Set(words)] };
}

/**
 * Whether a regex source is in the safe subset, and if not, why and where (0-based offset into
 * the source). The subset: literals, escapes (\d \w \s \b and escaped punctuation, \uXXXX, \xXX),
 * `.`, `^`, `$`, classes `[...]`, groups `( )` / `(?: )`, alternation, and the repeats `?`,
 * `{n}`, `{m,n}` (n ≤ {@link MAX_REPEAT}), each optionally lazy. Its number of match paths per
 * position is estimated (a repeat of k to n copies of a part with p paths: Σ p^i) and refused
 * above {@link MAX_REGEX_PATHS}: a bound on backtracking that needs no timeout.
 */
export function checkRegex(source: string): { problem: KeywordRuleProblem; at?: number; detail?: string } | null {
  if (source.length > MAX_REGEX_LENGTH) return { problem: "regexTooLong", at: MAX_REGEX_LENGTH };
  if (source === "") return { problem: "regexMatchesEmpty" };
  let i = 0;
  type Bad = { problem: KeywordRuleProblem; at: number };
  const bad = (problem: KeywordRuleProblem, at = i): Bad => ({ problem, at });
  const isBad = (x: unknown): x is Bad => typeof x === "object" && x !== null && "problem" in x;
  const cap = (x: number) => Math.min(x, 1e9);

  function alternation(): number | Bad {
    let total = 0;
    for (;;) {
      const seq = sequence();
      if (isBad(seq)) return seq;
      total = cap(total + seq);
      if (source[i] !== "|") return total;
      i++;
    }
  }
  function sequence(): number | Bad {
    let paths = 1;
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      const atom = atomPaths();
      if (isBad(atom)) return atom;
      const q = quantifier();
      if (isBad(q)) return q;
      let p = atom;
      if (q) {
        p = 0;
        for (let k = q.min; k <= q.max; k++) p = cap(p + atom ** k);
      }
      paths = cap(paths * p);
    }
    return paths;
  }
  function atomPaths(): number | Bad {
    const c = source[i]!;
    if (c === "(") {
      const open = i;
      i++;
      if (source[i] === "?") {
        if (source[i + 1] !== ":") return bad("regexUnsupported");
        i += 2;
      }
      const inner = alternation();
      if (isBad(inner)) return inner;
      if (source[i] !== ")") return bad("regexInvalid", open);
      i++;
      return inner;
    }
    if (c === "[") {
      const open = i;
      i++;
      if (source[i] === "^") i++;
      if (source[i] === "]") i++;
      while (i < source.length && source[i] !== "]") {
        if (source[i] === "\\") {
          const e = escape();
          if (e) return e;
        } else i++;
      }
      if (i >= source.length) return bad("regexInvalid", open);
      i++;
      return 1;
    }
    if (c === "\\") {
      const e = escape();
      return e ?? 1;
    }
    if (c === "*" || c === "+" || c === "?" || c === "{") return bad("regexInvalid");
    if (c === "}" || c === "]") return bad("regexInvalid");
    i++;
    return 1;
  }
  function escape(): Bad | null {
    const e = source[i + 1];
    if (e === undefined) return bad("regexInvalid");
    if (/[1-9kpPcq]/.test(e)) return bad("regexUnsupported");
    if (e === "u") {
      if (!/^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) return bad("regexInvalid");
      i += 6;
      return null;
    }
    if (e === "x") {
      if (!/^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) return bad("regexInvalid");
      i += 4;
      return null;
    }
    i += 2;
    return null;
  }
  function quantifier(): { min: number; max: number } | null | Bad {
    const c = source[i];
    let q: { min: number; max: number } | null = null;
    if (c === "*" || c === "+") return bad("regexUnbounded");
    if (c === "?") {
      q = { min: 0, max: 1 };
      i++;
    } else if (c === "{") {
      const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(source.slice(i));
      if (!m) return bad("regexInvalid");
      const min = Number(m[1]);
      if (m[2] !== undefined && m[3] === "") return bad("regexUnbounded");
      const max = m[3] !== undefined ? Number(m[3]) : min;
      if (min > max) return bad("regexInvalid");
      if (max > MAX_REPEAT) return bad("regexRepeatTooLarge");
      q = { min, max };
      i += m[0].length;
    }
    if (q && source[i] === "?") i++;
    if (q && (source[i] === "?" || source[i] === "*" || source[i] === "+" || source[i] === "{")) return bad("regexInvalid");
    return q;
  }

  const paths = alternation();
  if (isBad(paths)) return paths;
  if (i < source.length) return bad("regexInvalid");
  let re: RegExp;
  try {
    re = new RegExp(source, "i");
  } catch (e) {
    return { problem: "regexInvalid", detail: (e as Error).message };
  }
  if (paths > MAX_REGEX_PATHS) return { problem: "regexTooComplex", detail: `about ${paths > 1e8 ? "10⁸+" : paths} paths, at most ${MAX_REGEX_PATHS}` };
  if (re.test("")) return { problem: "regexMatchesEmpty" };
  return null;
}

/**
 * Split a typed keyword list into rule lines: new lines always; commas and 、；; only outside a
 * regex, group or phrase (a plain list "考试,作弊" is two rules, as it always was, while
 * `/食堂.{0,10}中毒/` stays whole).
 */
export function splitKeywordEntries(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let cur = "";
    let inside: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (inside) {
        if (c === "\\" && inside === "/") {
          cur += c + (line[i + 1] ?? "");
          i++;
          continue;
        }
        if (c === inside) inside = null;
        cur += c;
        continue;
      }
      if (c === "/" || c === '"') inside = c;
      else if (c === "(") inside = ")";
      else if (c === "“") inside = "”";
      if (!inside && /[,，、;；]/.test(c)) {
        out.push(cur);
        cur = "";
        continue;
      }
      cur += c;
    }
    out.push(cur);
  }
  return [...new Set(out.map((s) => s.trim()).filter(Boolean))];
}

/**
 * Parse a topic's keyword list (one rule per entry). Entries with errors are left out of the
 * returned rules and reported with their line (1-based index in `entries`) and position, so a
 * stored list with a bad entry still matches with the others (the form refuses to store one).
 */
export function parseKeywordRules(entries: readonly string[]): ParsedRules {
  const rules: Rule[] = [];
  const errors: KeywordRuleError[] = [];
  entries.forEach((raw, index) => {
    const text = raw.trim();
    if (!text) return;
    const terms = parseLine(text, index + 1);
    if (Array.isArray(terms)) rules.push({ text, terms });
    else errors.push(terms);
  });
  return { rules: new KeywordRules(rules), errors };
}

/** A compiled rule set: every word in one Aho–Corasick matcher, each regex compiled once. */
export class KeywordRules {
  private readonly positive: Rule[] = [];
  private readonly globalMust: Term[] = [];
  private readonly globalExclude: Term[] = [];
  private readonly matcher: WordMatcher;

  constructor(rules: readonly Rule[]) {
    const words: string[] = [];
    for (const r of rules) {
      for (const t of r.terms) {
        if (t.body.kind === "word") words.push(t.body.word);
        else if (t.body.kind === "group") words.push(...t.body.words);
      }
      if (r.terms.every((t) => t.mode !== "plain")) {
        for (const t of r.terms) (t.mode === "must" ? this.globalMust : this.globalExclude).push(t);
      } else this.positive.push(r);
    }
    this.matcher = new WordMatcher(words);
  }

  /**
   * The words that speak for a topic: those of its plain and `+` terms (not of `!` terms or
   * regexes). Discovery's keyword judge of an untrained topic weighs a page by them.
   */
  positiveWords(): string[] {
    const out = new Set<string>();
    for (const r of [...this.positive.flatMap((x) => x.terms), ...this.globalMust]) {
      if (r.mode === "exclude") continue;
      if (r.body.kind === "word") out.add(r.body.word);
      else if (r.body.kind === "group") for (const w of r.body.words) out.add(w);
    }
    return [...out];
  }

  /** True when a topic-wide `!` term occurs in the cleaned text: no rule may match it. */
  excluded(cleaned: string): boolean {
    if (this.globalExclude.length === 0) return false;
    const present = new Set(this.matcher.findAll(cleaned).map((h) => h.word));
    return this.globalExclude.some((t) =>
      t.body.kind === "word" ? present.has(t.body.word) : t.body.kind === "group" ? t.body.words.some((w) => present.has(w)) : t.body.re.test(cleaned),
    );
  }

  /** True when there is no rule at all. */
  get empty(): boolean {
    return this.positive.length === 0 && this.globalMust.length === 0 && this.globalExclude.length === 0;
  }

  /**
   * The rules a cleaned text matches, in reading order of their first hit; empty when none does,
   * or when a topic-wide `!` term occurs or a topic-wide `+` term does not. With no plain rule,
   * the topic-wide `+` terms together are the rule.
   */
  match(cleaned: string): RuleMatch[] {
    if (this.empty) return [];
    const firstAt = new Map<string, number>();
    for (const h of this.matcher.findAll(cleaned)) if (!firstAt.has(h.word)) firstAt.set(h.word, h.start);
    const regexHits = new Map<string, { text: string; at: number } | null>();
    const termHits = (t: Term): { hits: string[]; at: number } | null => {
      const b = t.body;
      if (b.kind === "word") {
        const at = firstAt.get(b.word);
        return at === undefined ? null : { hits: [b.word], at };
      }
      if (b.kind === "group") {
        const present = b.words.filter((w) => firstAt.has(w));
        return present.length === 0 ? null : { hits: present, at: Math.min(...present.map((w) => firstAt.get(w)!)) };
      }
      if (!regexHits.has(b.source)) {
        const m = b.re.exec(cleaned);
        regexHits.set(b.source, m ? { text: m[0], at: m.index } : null);
      }
      const m = regexHits.get(b.source);
      return m ? { hits: [m.text], at: m.at } : null;
    };
    if (this.globalExclude.some((t) => termHits(t))) return [];
    const must: { hits: string[]; at: number }[] = [];
    for (const t of this.globalMust) {
      const h = termHits(t);
      if (!h) return [];
      must.push(h);
    }
    const out: RuleMatch[] = [];
    for (const r of this.positive) {
      const found = this.ruleHits(r, termHits);
      if (found) out.push(found);
    }
    if (this.positive.length === 0 && must.length > 0) {
      out.push({ rule: this.globalMust.map(termText).join(" "), hits: must.flatMap((m) => m.hits), at: Math.min(...must.map((m) => m.at)) });
    }
    return out.sort((a, b) => a.at - b.at);
  }

  private ruleHits(r: Rule, termHits: (t: Term) => { hits: string[]; at: number } | null): RuleMatch | null {
    const hits: string[] = [];
    let at = Infinity;
    // Words first: regexes run only when the cheaper terms already agree.
    const ordered = [...r.terms].sort((a, b) => Number(a.body.kind === "regex") - Number(b.body.kind === "regex"));
    for (const t of ordered) {
      const h = termHits(t);
      if (t.mode === "exclude") {
        if (h) return null;
        continue;
      }
      if (!h) return null;
      hits.push(...h.hits);
      at = Math.min(at, h.at);
    }
    return { rule: r.text, hits, at };
  }
}

function termText(t: Term): string {
  const b = t.body;
  const body = b.kind === "word" ? b.word : b.kind === "group" ? `(${b.words.join("|")})` : `/${b.source}/`;
  return `${t.mode === "must" ? "+" : t.mode === "exclude" ? "!" : ""}${body}`;
}

/**
 * A flag reason's detail for the matched rules: a plain keyword as itself ("期末, 考试", as before
 * rules existed), any other rule as its text and what matched (`(食堂|饭堂) 中毒 → 食堂 + 中毒`).
 */
export function describeMatches(matches: readonly RuleMatch[]): string {
  return matches.map((m) => (m.hits.length === 1 && normalizeWord(m.rule) === m.hits[0] ? m.hits[0] : `${m.rule} → ${m.hits.join(" + ")}`)).join(", ");
}
