/**
 * Turning response bytes into text. Chinese campus forums and Tieba still serve GBK pages, often
 * declaring the charset only in a `<meta>` tag, so the header alone is not enough. Pure functions:
 * no I/O, unit-tested with byte fixtures.
 */
import iconv from "iconv-lite";

/** How many leading bytes are searched for a `<meta>` charset (browsers look at 1024; some pages put it later). */
const META_SNIFF_BYTES = 2048;

/** A decoded body and the charset that was used, with where it came from (useful in logs and tests). */
export interface DecodedBody {
  text: string;
  /** The iconv-lite charset name actually used, e.g. `utf-8`, `gb18030`, `big5`. */
  charset: string;
  source: "header" | "meta" | "bom" | "default";
}

/**
 * Map a declared charset label to the decoder we actually use, or undefined if unsupported.
 * Every GB label decodes as GB18030: it is a strict superset, and pages labelled gb2312 routinely
 * contain GBK-only characters (as browsers assume too).
 */
export function normalizeCharset(label: string): string | undefined {
  const l = label
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase();
  if (!l) return undefined;
  if (["gbk", "gb2312", "gb18030", "x-gbk", "cp936", "windows-936", "gb_2312-80", "chinese", "csgb2312"].includes(l)) {
    return "gb18030";
  }
  if (["big5", "big5-hkscs", "x-x-big5", "cn-big5", "csbig5"].includes(l)) return "big5hkscs";
  if (l === "utf8" || l === "unicode-1-1-utf-8") return "utf-8";
  // Per WHATWG, latin1 labels mean windows-1252 on the web.
  if (["iso-8859-1", "latin1", "us-ascii", "ascii"].includes(l)) return "windows-1252";
  return iconv.encodingExists(l) ? l : undefined;
}

/** The charset parameter of a Content-Type header value, normalized, if present and supported. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType ?? "");
  return m?.[2] ? normalizeCharset(m[2]) : undefined;
}

/**
 * The charset declared by `<meta charset>` or `<meta http-equiv="Content-Type" content="…charset=…">`
 * in the first bytes of an HTML document, or by the XML declaration (`<?xml version="1.0"
 * encoding="gbk"?>`: Discuz!'s AJAX answers, on GBK boards too), normalized.
 */
export function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  // latin1 maps every byte to one char, so ASCII markup survives whatever the real encoding is.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_SNIFF_BYTES)).toString("latin1");
  const xml = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  const declared = xml ? normalizeCharset(xml) : undefined;
  if (declared) return declared;
  const re = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/gi;
  for (let m = re.exec(head); m; m = re.exec(head)) {
    const cs = m[1] ? normalizeCharset(m[1]) : undefined;
    if (cs) return cs;
  }
  return undefined;
}

/** The charset a byte-order mark announces, if the body starts with one. */
export function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/**
 * Decode a response body: charset from the Content-Type header, else a `<meta>` declaration in the
 * first 2 KB, else a BOM, else UTF-8. A leading BOM is stripped from the text.
 */
export function decodeBody(bytes: Uint8Array, contentType?: string): DecodedBody {
  let charset = charsetFromContentType(contentType);
  let source: DecodedBody["source"] = "header";
  if (!charset) {
    charset = sniffMetaCharset(bytes);
    source = "meta";
  }
  if (!charset) {
    charset = charsetFromBom(bytes);
    source = "bom";
  }
  if (!charset) {
    charset = "utf-8";
    source = "default";
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // iconv-lite strips a BOM matching the charset by default; a UTF-8 BOM under another label is
  // still junk at the start of the text, so drop it explicitly.
  const text = iconv.decode(buf, charset).replace(/^\uFEFF/, "");
  return { text, charset, source };
}
