/**
 * CSV cells for every export (the dashboard's download and `campuswatch posts export`): RFC 4180
 * quoting, and no cell a spreadsheet would run as a formula ("CSV injection", OWASP). Crawled
 * titles and texts are written by strangers, so a post titled `=HYPERLINK(…)` must arrive in the
 * reviewer's spreadsheet as text.
 *
 * The rule, following OWASP's guidance:
 * 1. A text cell that starts with a formula trigger — `=` `+` `-` `@`, a tab, CR or LF, or the
 *    full-width and small forms (`＝` `＋` `－` `＠`, `﹦` `﹢` `﹣` `﹫`, the minus sign `−`) — gets
 *    a `'` in front. Leading spaces (ASCII, no-break, ideographic) and invisible characters
 *    (zero-width space/joiners, word joiner, BOM) are looked through: spreadsheets drop them
 *    before deciding, so ` =1` and `\u200b=1` are formulas too.
 * 2. Inside a text cell, a `;` or `|` followed (after spaces, tabs and invisibles) by a sign
 *    (`=` `+` `-` `@` and their other forms) gets a `'` after it: `a;=1` → `a;'=1`. A spreadsheet in a locale whose list separator is `;`
 *    (German, French, Russian Excel) splits our comma-separated line at every `;`, quotes or not,
 *    so `=1` would start a cell of its own; `|` is the separator of pipe-delimited imports and
 *    DDE payloads (`=cmd|' /C calc'!A0`). Commas need nothing: in a comma locale the quotes keep
 *    the cell whole, and in a `;` locale a comma does not split.
 * 3. A number written as a number (a numeric column: `version`) is never prefixed: `-12` from a
 *    JS number is a value, not a formula. The same `-12` in a text column (a title) is prefixed.
 *    Booleans and dates (ISO text starting with a digit) are never triggers.
 * Then RFC 4180: a cell holding `"`, `,`, CR or LF is quoted with `"` doubled.
 */

/** Characters a spreadsheet skips before deciding whether a cell is a formula. */
const INVISIBLE = "\\u00a0\\u3000\\u200b-\\u200d\\u2060\\ufeff";
/** Formula signs: ASCII, full-width and small forms, the minus sign. */
const SIGNS = "=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe66\\ufe62\\ufe63\\ufe6b\\u2212";

// At the start: any whitespace and invisibles, then a sign, or a tab/CR/LF itself (OWASP's list).
const LEADING = new RegExp(`^(?:[\\s${INVISIBLE}]*[${SIGNS}]|[\\t\\r\\n])`);
// After a separator: spaces, tabs and invisibles, then a sign. Not a newline: a newline inside a
// quoted cell stays inside the cell in every locale, and lines starting with "- " are common text.
const AFTER_SEPARATOR = new RegExp(`([;|])(?=[ \\t${INVISIBLE}]*[${SIGNS}])`, "g");

/** A cell value: text, a number (a numeric column), a boolean, a date (written as ISO text), or empty. */
export type CsvValue = string | number | boolean | Date | null | undefined;

/** One CSV cell, safe to open in a spreadsheet (see the module comment for the rule). */
export function csvCell(value: CsvValue): string {
  let s: string;
  if (value === null || value === undefined) s = "";
  else if (typeof value === "number" || typeof value === "boolean") s = String(value);
  else if (value instanceof Date) s = value.toISOString();
  else s = neutralise(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record (CRLF-terminated, RFC 4180). */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(",") + "\r\n";
}

/** Text with every formula trigger a spreadsheet would act on defused by a `'`. */
function neutralise(text: string): string {
  const inner = text.replace(AFTER_SEPARATOR, "$1'");
  return LEADING.test(inner) ? `'${inner}` : inner;
}
