/**
 * Matching a text against a platform's rules: the text as a whole first, then (for text wrapped in
 * labels and noise) the longest date found inside it. Nothing matches: {@link DateFormatError}.
 */
import { NonRetryableError } from "../errors";
import type { Platform } from "../types";
import { RULES, UNIX_SECONDS, type Rule } from "./rules";

/** A date string (or unix seconds) that matches none of the formats of its platform. */
export class DateFormatError extends NonRetryableError {
  override name = "DateFormatError";
  constructor(
    readonly text: string,
    readonly platform: Platform | "any",
  ) {
    super(`unrecognised ${platform === "any" ? "" : `${platform} `}date format: ${JSON.stringify(text)}`);
  }
}

/**
 * Rules that may be searched for inside a longer text. Bare unix seconds are not: inside noise,
 * a run of nine digits is far more likely an id or a phone number than a time.
 */
const SEARCHABLE = new Set<Rule>([...new Set(Object.values(RULES).flat())].filter((r) => r !== UNIX_SECONDS));

/** A rule's pattern, unanchored, matching only where it is not part of a longer number or date. */
const searchPatterns = new Map<Rule, RegExp>();
function searchPattern(rule: Rule): RegExp {
  let re = searchPatterns.get(rule);
  if (!re) {
    const body = rule.re.source.replace(/^\^/, "").replace(/\$$/, "");
    // Not after a digit (or a digit and a separator), not before one: "5-9" is not read out of
    // "2024-5-9", nor "14:00" out of "14:00:16".
    re = new RegExp(`(?<!\\d)(?<!\\d[-:./])(?:${body})(?!\\d)(?![-:./]\\d)`, rule.re.flags.replace("g", "") + "g");
    searchPatterns.set(rule, re);
  }
  re.lastIndex = 0;
  return re;
}

/** Normalise the noise around a date: nbsp, full-width forms, surrounding text Discuz/weibo.cn put next to it. */
function clean(text: string): string {
  return (
    text
      .replace(/[\u00a0\u3000\u200b-\u200d\ufeff]/g, " ")
      // Full-width digits and colons ("２１：５５") are ordinary ones typed in a Chinese IME.
      .replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48))
      .replace(/[\uff1a\ufe55]/g, ":")
      .replace(/^\s*(?:发表于|發表於)\s*/, "")
      .replace(/\s*来自.*$/s, "")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/**
 * The date `raw` shows, by the first of `rules` that matches it as a whole and gives a real date;
 * a text that matches none as a whole is searched for a date inside it.
 * @throws DateFormatError when neither finds one.
 */
export function applyRules(rules: Rule[], raw: string | number, now: Date, platform: Platform | "any"): Date {
  const text = typeof raw === "number" ? String(Math.trunc(raw)) : clean(raw);
  let matchedWhole = false;
  for (const rule of rules) {
    const m = rule.re.exec(text);
    if (!m) continue;
    matchedWhole = true;
    const date = rule.resolve(m, now);
    if (date && !Number.isNaN(date.getTime())) return date;
  }
  // A whole text that has a date's shape but an impossible value ("2019-2-30") is refused, not searched.
  if (!matchedWhole && typeof raw === "string") {
    const found = searchRules(rules, text, now);
    if (found) return found;
  }
  throw new DateFormatError(String(raw), platform);
}

/**
 * The date inside a longer text: the longest match of any rule (ties: the rule listed first, then
 * the leftmost). Null when there is none, or when the longest one is not a real date — a shorter
 * match inside a bad date ("10:00" in "2019-2-30 10:00") must not stand in for it.
 */
function searchRules(rules: Rule[], text: string, now: Date): Date | null {
  let best: { m: RegExpExecArray; rule: Rule } | null = null;
  for (const rule of rules) {
    if (!SEARCHABLE.has(rule)) continue;
    const re = searchPattern(rule);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (!best || m[0].length > best.m[0].length) best = { m, rule };
    }
  }
  if (!best) return null;
  const date = best.rule.resolve(best.m, now);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
