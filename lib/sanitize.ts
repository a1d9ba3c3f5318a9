/**
 * Crawled HTML is hostile. Everything shown from Post.html / PostVersion.html goes through
 * {@link sanitizePostHtml}: a strict allow-list (sanitize-html), no scripts, styles, frames,
 * event handlers or classes from the page, links only to http(s), and images replaced by a
 * placeholder link unless the caller provides a local source for them (an admin's choice; the CSP
 * blocks remote images anyway). Highlighting works on the sanitized result and is sanitized again.
 */
import sanitizeHtml from "sanitize-html";
import * as cheerio from "cheerio";

const ALLOWED_TAGS = [
  "p",
  "br",
  "div",
  "span",
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "del",
  "ins",
  "sub",
  "sup",
  "small",
  "blockquote",
  "pre",
  "code",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "figure",
  "figcaption",
];
const LINK_ATTRS = { rel: "noopener noreferrer nofollow ugc", target: "_blank", referrerpolicy: "no-referrer" };

export interface SanitizeOptions {
  /** The post's URL: relative links and image sources are resolved against it. */
  baseUrl?: string;
  /**
   * Where an image may be loaded from (a local proxy URL), by its absolute source and position;
   * null or absent: the image becomes a placeholder link that loads nothing.
   */
  imageSrc?: (src: string, index: number) => string | null;
}

/** An absolute http(s) URL, or null for anything else (javascript:, data:, garbage). */
export function safeHttpUrl(raw: string | undefined, base?: string): string | null {
  if (!raw) return null;
  try {
    const u = base ? new URL(raw.trim(), base) : new URL(raw.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Sanitize crawled HTML for display inside the dashboard. */
export function sanitizePostHtml(html: string, options: SanitizeOptions = {}): string {
  let imageIndex = 0;
  return sanitizeHtml(html, {
    allowedTags: [...ALLOWED_TAGS, ...(options.imageSrc ? ["img"] : [])],
    allowedAttributes: {
      a: ["href", "title", "rel", "target", "referrerpolicy", "class"],
      img: ["src", "alt", "loading", "referrerpolicy"],
      td: ["colspan", "rowspan"],
      th: ["colspan", "rowspan"],
    },
    allowedClasses: { a: ["img-placeholder"] },
    allowedSchemes: ["http", "https"],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    // Drop the content of these outright, not just the tags.
    nonTextTags: ["script", "style", "textarea", "option", "noscript", "template", "iframe", "object", "embed", "svg", "math"],
    disallowedTagsMode: "discard",
    transformTags: {
      a: (_tag, attribs) => {
        const href = safeHttpUrl(attribs.href, options.baseUrl);
        return { tagName: "a", attribs: { ...(href ? { href } : {}), ...(attribs.title ? { title: attribs.title } : {}), ...LINK_ATTRS } };
      },
      img: (_tag, attribs): sanitizeHtml.Tag => {
        const src = safeHttpUrl(attribs.src, options.baseUrl);
        const index = imageIndex++;
        const local = src && options.imageSrc ? options.imageSrc(src, index) : null;
        if (local && local.startsWith("/")) {
          return { tagName: "img", attribs: { src: local, alt: attribs.alt ?? "", loading: "lazy", referrerpolicy: "no-referrer" } };
        }
        const label = `[图片 image${attribs.alt ? `: ${attribs.alt.slice(0, 60)}` : ""}]`;
        return { tagName: "a", attribs: { ...(src ? { href: src } : {}), class: "img-placeholder", ...LINK_ATTRS }, text: label };
      },
    },
  });
}

/** Split a text into runs, marking every occurrence of any term (longest match first, case-insensitive for ASCII). */
export function highlightSegments(text: string, terms: readonly string[]): { text: string; hit: boolean }[] {
  const re = termsPattern(terms);
  if (!re) return text ? [{ text, hit: false }] : [];
  const out: { text: string; hit: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index;
    if (i > last) out.push({ text: text.slice(last, i), hit: false });
    out.push({ text: m[0], hit: true });
    last = i + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), hit: false });
  return out;
}

/** One regular expression for all terms, longest first so "期末考试" wins over "考试". */
export function termsPattern(terms: readonly string[]): RegExp | null {
  const clean = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
  if (clean.length === 0) return null;
  return new RegExp(clean.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "giu");
}

/**
 * Wrap every occurrence of the terms in the text of sanitized HTML with <mark>; terms in
 * `sensitive` get <mark class="sensitive">.
 */
export function highlightHtml(safeHtml: string, terms: readonly string[], sensitive: readonly string[] = []): string {
  const re = termsPattern(terms);
  if (!re) return safeHtml;
  const sensitiveSet = new Set(sensitive.map((t) => t.trim().toLowerCase()));
  const isSensitive = (text: string) => sensitiveSet.has(text.toLowerCase());
  const $ = cheerio.load(`<div id="__root">${safeHtml}</div>`, null, false);
  const walk = (node: ReturnType<typeof $>) => {
    node.contents().each((_, child) => {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- domhandler's ElementType enum is not exported by cheerio; its values are these strings
      if (child.type === "text") {
        const segments = highlightSegments(child.data, terms);
        if (segments.some((s) => s.hit)) {
          const html = segments
            .map((s) => (s.hit ? `<mark${isSensitive(s.text) ? ' class="sensitive"' : ""}>${escapeHtml(s.text)}</mark>` : escapeHtml(s.text)))
            .join("");
          $(child).replaceWith(html);
        }
        // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- as above
      } else if (child.type === "tag") {
        walk($(child));
      }
    });
  };
  walk($("#__root"));
  const marked = $("#__root").html() ?? "";
  // Sanitize once more: the result may only differ from its input by <mark> elements.
  return sanitizeHtml(marked, {
    allowedTags: [...ALLOWED_TAGS, "img", "mark"],
    allowedAttributes: {
      a: ["href", "title", "rel", "target", "referrerpolicy", "class"],
      img: ["src", "alt", "loading", "referrerpolicy"],
      mark: ["class"],
      td: ["colspan", "rowspan"],
      th: ["colspan", "rowspan"],
    },
    allowedClasses: { a: ["img-placeholder"], mark: ["sensitive"] },
    allowedSchemes: ["http", "https"],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
  });
}

/** Text as HTML text or a double-quoted attribute value: `&`, `<`, `>` and `"` escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
