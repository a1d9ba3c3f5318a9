/** Redirect targets taken from requests (`?next=`, a form's return path) must stay on this site. */

const BASE = new URL("http://campuswatch.invalid");

/**
 * `value` when it is a path on this site ("/posts?topic=1"), else `fallback`. Browsers drop tabs
 * and newlines from URLs and read a backslash as a slash, so `/\t/evil.example` and `/\evil` would
 * become `//evil.example` — another site. Such characters are refused outright, then the URL
 * parser has the last word: whatever it resolves to must be this origin.
 */
export function safeLocalPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  let u: URL;
  try {
    u = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (u.origin !== BASE.origin) return fallback;
  return u.pathname + u.search + u.hash;
}
