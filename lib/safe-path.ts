/**
 * Redirect targets taken from requests (`?next=` after sign-in, a form's `returnTo`) must stay on
 * this site. Every such target goes through {@link safeLocalPath}; nothing else builds a redirect
 * from request input.
 */

/**
 * The origin relative targets are resolved against. Any origin would do: what is returned is a
 * path that starts with exactly one `/`, which a browser resolves against the page's own origin
 * whatever that is. A fixed one also means the answer never depends on a client's `Host` header.
 */
const BASE = new URL("http://campuswatch.invalid");

/**
 * `value` as a path on this site ("/posts?topic=1#a"), else `fallback`.
 *
 * The check judges the final URL, not the string: `value` is resolved with the WHATWG URL parser
 * (the one browsers use) against {@link BASE}, and accepted only when the result has the same
 * origin. Its path, query and fragment are returned — but never a path that starts with `//` or
 * `/\`: `/.//evil.example/x` resolves to the path `//evil.example/x`, which, sent back in a
 * `Location` header, a browser reads as another host. So such a path is refused too.
 *
 * Before that, as a second fence, a value that does not start with `/`, or that holds a control
 * character or a backslash anywhere, is refused outright: browsers drop tabs and newlines from URLs
 * and read `\` as `/`, so such characters only ever serve to disguise a target.
 */
export function safeLocalPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  let u: URL;
  try {
    u = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (u.origin !== BASE.origin) return fallback;
  const path = u.pathname + u.search + u.hash;
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}
