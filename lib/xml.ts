/**
 * Text for XML documents (the Atom feeds of /api/v1). Crawled titles and texts are written by
 * strangers: every value goes through {@link xmlText}, which escapes the five markup characters
 * and drops what XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/U+FFFF) —
 * such a character would make the whole feed unreadable to a reader's parser.
 */

// Everything outside XML 1.0's Char production: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A string safe as XML character data or an attribute value (quotes escaped too). */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
