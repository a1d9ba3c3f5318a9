/**
 * Turning crawled HTML into the plain text that is stored, hashed and classified. The adapters
 * use the same {@link htmlToText} for titles made from HTML (Weibo posts, Atom `type="html"`
 * titles), so a title says what the stored text says: emoji as their alt text, a line break as
 * a space once the title is put on one line.
 */
import crypto from "node:crypto";
import * as cheerio from "cheerio";

const BLOCK_TAGS = "p,div,br,li,tr,h1,h2,h3,h4,h5,h6,blockquote,pre,section,article";
const BLOCKS = new Set(BLOCK_TAGS.split(","));
/** Elements whose content is never text: dropped with everything in them. */
const DROPPED = new Set(["script", "style", "noscript", "template"]);

/** The parts of cheerio's (domhandler's) nodes the text walk reads. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string | undefined>;
  children?: DomNode[];
}

/**
 * Plain text of an HTML fragment: scripts and styles dropped, emoji images replaced by their alt
 * text (Weibo's `[哈哈]`), block elements on their own lines, whitespace collapsed.
 *
 * The stored text's SHA-1 tells an edit from an unchanged post, so this text must never change
 * for the same HTML. It is defined by {@link htmlToTextByEditing} (cheerio edits: remove the
 * dropped elements, replace each `img[alt]` by its alt parsed as HTML, put a newline text node
 * first and last in every block element, read the root's text). The same text is read here in
 * one walk of the parsed tree, which costs a fraction: cheerio compiles each selector at every
 * call and parses every inserted "\n" as an HTML fragment (issue 17). Where the walk could differ
 * — an alt text holding markup or a character reference, or the fragment using the root's id —
 * the edits run as before; `test/unit/text.test.ts` compares the two on real and hostile markup.
 */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return normaliseWhitespace(html);
  const known = readAhead.get(html);
  if (known !== undefined) {
    readAhead.delete(html);
    readAheadChars -= html.length;
    return known;
  }
  return readText(html);
}

/**
 * Texts read ahead of need, by their HTML: a parse thread (./parse/off-thread.ts) reads the text of
 * every item it parses, on its own core, and the crawl's thread finds it here when it stores the
 * item. {@link htmlToText} is a function of the HTML alone, so a text read ahead is the one it would
 * read. Each is used once; the oldest go first past {@link READ_AHEAD_MAX_CHARS} of HTML, so texts
 * nobody asks for (an item the walk skips) cost bounded memory.
 */
const readAhead = new Map<string, string>();
let readAheadChars = 0;
const READ_AHEAD_MAX_CHARS = 4_000_000;

/** Keep `text` (which is `htmlToText(html)`, read on a parse thread) for the next {@link htmlToText} of `html`. */
export function rememberText(html: string, text: string): void {
  if (!/[<&]/.test(html) || readAhead.has(html)) return;
  readAhead.set(html, text);
  readAheadChars += html.length;
  for (const [old] of readAhead) {
    if (readAheadChars <= READ_AHEAD_MAX_CHARS) break;
    readAhead.delete(old);
    readAheadChars -= old.length;
  }
}

/** {@link htmlToText} without the texts read ahead: what a parse thread runs. */
export function readText(html: string): string {
  if (!/[<&]/.test(html)) return normaliseWhitespace(html);
  if (html.includes(ROOT_ID)) return htmlToTextByEditing(html);
  const $ = cheerio.load(`<div id="${ROOT_ID}">${html}</div>`, null, false);
  // Only the wrapper's text counts: markup after a stray end tag that closes the wrapper (`</div>`)
  // lands beside it, and the edits never read it either.
  const wrapper = ($.root()[0] as unknown as DomNode).children?.[0];
  const out: string[] = [];
  if (wrapper?.name !== "div") return htmlToTextByEditing(html);
  return walkText({ type: "root", children: [wrapper] }, out) ? normaliseWhitespace(out.join("")) : htmlToTextByEditing(html);
}

const ROOT_ID = "__root";

/**
 * Append the text of `node`'s children to `out` as {@link htmlToTextByEditing} reads it.
 * @returns false when an alt text would be parsed into more than its characters (the caller then
 * edits as before).
 */
function walkText(node: DomNode, out: string[]): boolean {
  for (const child of node.children ?? []) {
    if (child.type === "text") {
      out.push(child.data ?? "");
    } else if (child.type === "tag" || child.type === "script" || child.type === "style") {
      const name = child.name ?? "";
      if (DROPPED.has(name)) continue;
      if (name === "img" && child.attribs?.alt !== undefined) {
        const alt = child.attribs.alt;
        // cheerio's replaceWith parses the alt as HTML: the same characters unless it holds
        // markup or a character reference. (CR and CRLF become LF there; normaliseWhitespace
        // does the same here.)
        if (/[<&]/.test(alt)) return false;
        out.push(alt);
        continue;
      }
      const block = BLOCKS.has(name);
      if (block) out.push("\n");
      if (!walkText(child, out)) return false;
      if (block) out.push("\n");
    } else if (child.type === "cdata" || child.type === "root") {
      // domutils' textContent reads every node with children but comments.
      if (!walkText(child, out)) return false;
    }
  }
  return true;
}

/**
 * The definition of {@link htmlToText}, by editing the parsed fragment with cheerio. Used where the
 * walk cannot be sure to read the same text, and by the tests as the reference.
 */
export function htmlToTextByEditing(html: string): string {
  if (!/[<&]/.test(html)) return normaliseWhitespace(html);
  const $ = cheerio.load(`<div id="${ROOT_ID}">${html}</div>`, null, false);
  $("script,style,noscript,template").remove();
  $("img[alt]").each((_, el) => {
    $(el).replaceWith($(el).attr("alt") ?? "");
  });
  $(BLOCK_TAGS).each((_, el) => {
    $(el).prepend("\n").append("\n");
  });
  return normaliseWhitespace($(`#${ROOT_ID}`).text());
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
 * The version of the text cleaning: what {@link htmlToText} makes of HTML and what
 * {@link contentHash} reads of a title and text. Every content hash records the version that
 * made it. Bump this with any change that can give stored HTML another text or hash: the store
 * then cleans a stored post whose hash has an older version again before it decides whether the
 * post changed, so the upgrade re-hashes posts without recording them as edited
 * (crawler/store/prepared.ts `changeOf`).
 */
export const CLEANING_VERSION = 1;

/** A text cleaning: its version and the text it reads from HTML. */
export interface Cleaning {
  readonly version: number;
  text(html: string): string;
}

/** The cleaning of this build. */
export const CLEANING: Cleaning = Object.freeze({ version: CLEANING_VERSION, text: htmlToText });

let cleaningInForce: Cleaning = CLEANING;

/** The cleaning that prepares crawled items: {@link CLEANING}, unless a test replaced it. */
export function currentCleaning(): Cleaning {
  return cleaningInForce;
}

/**
 * Put another cleaning in force and return the function that puts the previous one back. Only
 * for tests that act out a future change of cleaning (a new version with a different text); the
 * crawler never calls it.
 */
export function replaceCleaning(cleaning: Cleaning): () => void {
  const before = cleaningInForce;
  cleaningInForce = cleaning;
  return () => {
    cleaningInForce = before;
  };
}

/**
 * The hash that tells an unchanged post from an edited one: the SHA-1 of the trimmed title and the
 * cleaned text, so that a changed title is an edit too while markup-only changes (ads, tracking
 * attributes) are not, written `v<cleaning version>:<hex>` so that it says which cleaning made
 * the text. Posts, list excerpts, versions and the large seed all hash through this function.
 */
export function contentHash(title: string, text: string, version: number = cleaningInForce.version): string {
  return `v${version}:${crypto.createHash("sha1").update(title.trim()).update("\n").update(text).digest("hex")}`;
}

const VERSIONED_HASH = /^v(\d+):(.*)$/s;

/** The cleaning version of a stored hash. A bare hex hash, stored before hashes carried their version, is version 1. */
export function hashVersion(hash: string): number {
  const m = VERSIONED_HASH.exec(hash);
  return m ? Number(m[1]) : 1;
}

/** The digest of a stored hash, without its version (what the export shows as `sha1`). */
export function hashDigest(hash: string): string {
  const m = VERSIONED_HASH.exec(hash);
  return m ? m[2]! : hash;
}

/**
 * Whether two hashes say the same content: the same cleaning version and the same digest (a bare
 * hash is version 1, so it matches its `v1:` form). Hashes of different versions never match:
 * the older side must be cleaned again first.
 */
export function sameHash(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return false;
  if (a === b) return true;
  return hashVersion(a) === hashVersion(b) && hashDigest(a) === hashDigest(b);
}
