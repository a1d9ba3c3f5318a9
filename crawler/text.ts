/**
 * Turning crawled HTML into the plain text that is stored, hashed and classified. The adapters
 * use the same {@link htmlToText} for titles made from HTML (Weibo posts, Atom `type="html"`
 * titles), so a title says what the stored text says: emoji as their alt text, a line break as
 * a space once the title is put on one line.
 */
import crypto from "node:crypto";
import * as cheerio from "cheerio";

const BLOCK_TAGS = "p,div,br,li,tr,h1,h2,h3,h4,h5,h6,blockquote,pre,section,article";

/**
 * Plain text of an HTML fragment: scripts and styles dropped, emoji images replaced by their alt
 * text (Weibo's `[哈哈]`), block elements on their own lines, whitespace collapsed.
 */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return normaliseWhitespace(html);
  const $ = cheerio.load(`<div id="__root">${html}</div>`, null, false);
  $("script,style,noscript,template").remove();
  $("img[alt]").each((_, el) => {
    $(el).replaceWith($(el).attr("alt") ?? "");
  });
  $(BLOCK_TAGS).each((_, el) => {
    $(el).prepend("\n").append("\n");
  });
  return normaliseWhitespace($("#__root").text());
}

/** Collapse runs of spaces, trim lines, drop zero-width characters and blank lines. */
export function normaliseWhitespace(s: string): string {
  return s
    .replace(/[\u200b-\u200d\ufeff]/g, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0\u3000]+/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("\n")
    .trim();
}

/**
 * The SHA-1 that tells an unchanged post from an edited one: over the title and the cleaned text,
 * so that a changed title is an edit too, while markup-only changes (ads, tracking attributes) are not.
 */
export function contentSha1(title: string, text: string): string {
  return crypto.createHash("sha1").update(title.trim()).update("\n").update(text).digest("hex");
}
