import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { charsetFromContentType, decodeBody, normalizeCharset, sniffMetaCharset } from "../../../crawler/fetch/decode";

const gbk = (s: string) => iconv.encode(s, "gbk");
const TEXT = "校园论坛：食堂涨价讨论帖";

describe("normalizeCharset", () => {
  it.each([
    ["gbk", "gb18030"],
    ["GB2312", "gb18030"],
    ["gb18030", "gb18030"],
    ["x-gbk", "gb18030"],
    ['"gbk"', "gb18030"],
    ["big5", "big5hkscs"],
    ["UTF8", "utf-8"],
    ["utf-8", "utf-8"],
    ["iso-8859-1", "windows-1252"],
    ["no-such-charset", undefined],
    ["", undefined],
  ])("%s -> %s", (label, expected) => {
    expect(normalizeCharset(label)).toBe(expected);
  });
});

describe("charsetFromContentType", () => {
  it.each([
    ["text/html; charset=GBK", "gb18030"],
    ['text/html; charset="gb2312"', "gb18030"],
    ["text/html;charset=utf-8", "utf-8"],
    ["text/html", undefined],
    [undefined, undefined],
  ])("%s -> %s", (ct, expected) => {
    expect(charsetFromContentType(ct)).toBe(expected);
  });
});

describe("sniffMetaCharset", () => {
  it.each([
    ['<meta charset="gbk">', "gb18030"],
    ["<META CHARSET=gb2312 />", "gb18030"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=gbk">', "gb18030"],
    ["<meta content='text/html; charset=big5' http-equiv='Content-Type'>", "big5hkscs"],
    ['<meta name="keywords" content="x">', undefined],
  ])("%s -> %s", (html, expected) => {
    expect(sniffMetaCharset(Buffer.from(`<html><head>${html}</head></html>`))).toBe(expected);
  });

  it("reads the XML declaration of an AJAX answer (Discuz! 点评 pages of a GBK board)", () => {
    expect(sniffMetaCharset(Buffer.from('<?xml version="1.0" encoding="gbk"?><root><![CDATA[<h3>x</h3>]]></root>'))).toBe("gb18030");
    expect(sniffMetaCharset(Buffer.from("<?xml version='1.0' encoding='utf-8'?><root/>"))).toBe("utf-8");
    expect(sniffMetaCharset(Buffer.from('<p>text <?xml version="1.0" encoding="gbk"?></p>'))).toBeUndefined();
  });

  it("only looks at the first 2 KB", () => {
    const late = Buffer.from(`<html><head>${" ".repeat(3000)}<meta charset="gbk"></head>`);
    expect(sniffMetaCharset(late)).toBeUndefined();
  });
});

describe("decodeBody", () => {
  it("decodes a GBK AJAX answer sent as application/xml without a charset by its XML declaration", () => {
    const xml = `<?xml version="1.0" encoding="gbk"?><root><![CDATA[<div class="psti">${TEXT}</div>]]></root>`;
    expect(decodeBody(gbk(xml), "application/xml")).toEqual({ text: xml, charset: "gb18030", source: "meta" });
  });

  it("uses the Content-Type charset first", () => {
    const out = decodeBody(gbk(`<p>${TEXT}</p>`), "text/html; charset=gbk");
    expect(out).toEqual({ text: `<p>${TEXT}</p>`, charset: "gb18030", source: "header" });
  });

  it("falls back to <meta charset> when the header has none", () => {
    const html = `<html><head><meta charset="gb2312"><title>${TEXT}</title></head></html>`;
    const out = decodeBody(gbk(html), "text/html");
    expect(out.source).toBe("meta");
    expect(out.text).toContain(TEXT);
  });

  it("falls back to <meta http-equiv> content", () => {
    const html = `<meta http-equiv="Content-Type" content="text/html; charset=GBK"><p>${TEXT}</p>`;
    expect(decodeBody(gbk(html)).text).toContain(TEXT);
  });

  it("decodes GB18030-only characters under a gbk label", () => {
    // U+20087 (𠂇) is outside GBK but in GB18030; pages labelled gbk do contain such characters.
    const bytes = iconv.encode("𠂇", "gb18030");
    expect(decodeBody(bytes, "text/html; charset=gbk").text).toBe("𠂇");
  });

  it("decodes big5", () => {
    const bytes = iconv.encode("國立臺灣大學", "big5");
    expect(decodeBody(bytes, "text/html; charset=big5").text).toBe("國立臺灣大學");
  });

  it("uses a BOM when nothing is declared, and strips it", () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, "utf16le")]);
    expect(decodeBody(utf16)).toEqual({ text: TEXT, charset: "utf-16le", source: "bom" });
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT)]);
    expect(decodeBody(utf8).text).toBe(TEXT);
  });

  it("defaults to UTF-8", () => {
    expect(decodeBody(Buffer.from(TEXT))).toEqual({ text: TEXT, charset: "utf-8", source: "default" });
  });

  it("ignores an unknown header charset and keeps looking", () => {
    const out = decodeBody(gbk(`<meta charset="gbk">${TEXT}`), "text/html; charset=klingon");
    expect(out.source).toBe("meta");
    expect(out.text).toContain(TEXT);
  });
});
