/**
 * The "page structure not recognised" state of an account (页面结构无法识别, issue 30): two runs
 * in a row met a page the adapter recognised as its platform's and read nothing from it (old
 * markup, a changed template, a login wall). The crawler writes it (crawler/worker/index.ts: the
 * account's status and its last error, which names the page and what was expected); the
 * dashboard reads it back to say it in the reader's language
 * (app/(dashboard)/accounts/_lib/problems.ts). One place for the text both sides depend on.
 */

/** Account.status of an account whose pages were not recognised in two runs in a row. */
export const UNRECOGNISED = "unrecognised";

const PREFIX = "PageStructure: page structure not recognised at ";
const PATTERN = /^PageStructure: page structure not recognised at (\S+): expected (.+)$/s;

/** Account.lastError for the state: the page's URL and what the adapter expected on it. */
export function unrecognisedError(url: string, expected: string): string {
  return `${PREFIX}${url}: expected ${expected}`;
}

/** The URL and the expectation in an Account.lastError written by {@link unrecognisedError}, or null. */
export function parseUnrecognisedError(lastError: string | null | undefined): { url: string; expected: string } | null {
  const m = lastError ? PATTERN.exec(lastError) : null;
  return m?.[1] && m[2] ? { url: m[1], expected: m[2] } : null;
}
