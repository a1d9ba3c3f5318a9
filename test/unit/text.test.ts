import fs from "node:fs";
import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import {
  CLEANING_VERSION,
  contentHash,
  currentCleaning,
  hashDigest,
  hashVersion,
  htmlToText,
  htmlToTextByEditing,
  readText,
  rememberText,
  replaceCleaning,
  sameHash,
} from "../../crawler/text";
import { REAL_DIR, readReal, realAvailable } from "./adapters/helpers";

describe("htmlToText", () => {
  it.each([
    ["plain 文本", "plain 文本"],
    ["<p>第一段</p><p>第二段<br>换行</p>", "第一段\n第二段\n换行"],
    ['今天考试<span class="url-icon"><img alt="[哈哈]" src="x.png"></span>结束', "今天考试[哈哈]结束"],
    ["<script>alert(1)</script>正文<style>p{}</style>", "正文"],
    ["a&nbsp;&nbsp;b &amp; c", "a b & c"],
  ])("%s", (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });
});

describe("texts read ahead (rememberText)", () => {
  it("answers the next htmlToText of the same HTML once, then reads again", () => {
    const html = `<p>读在前面的文字 ${Math.random()}</p><p>第二段</p>`;
    const text = readText(html);
    expect(text).toBe(htmlToTextByEditing(html));
    // A marker instead of the text shows where the answer came from.
    rememberText(html, "MARK");
    expect(htmlToText(html)).toBe("MARK");
    expect(htmlToText(html)).toBe(text);
    // Plain text never needs it.
    rememberText("plain words", "MARK");
    expect(htmlToText("plain words")).toBe("plain words");
  });

  it("keeps a bounded amount: the oldest go first", () => {
    const big = (i: number) => `<div>${String(i).repeat(10)}${"字".repeat(500_000)}</div>`;
    for (let i = 0; i < 12; i++) rememberText(big(i), `MARK ${i}`);
    // About 4 M characters of HTML are kept: the first ones were let go.
    expect(htmlToText(big(0))).not.toBe("MARK 0");
    expect(htmlToText(big(11))).toBe("MARK 11");
  });
});

describe("contentHash", () => {
  it("ignores markup-only changes and sees text or title changes", () => {
    const a = contentHash("标题", htmlToText("<p>食堂涨价了</p>"));
    expect(contentHash("标题", htmlToText('<p class="x">食堂涨价了</p>'))).toBe(a);
    expect(contentHash("标题", htmlToText("<p>食堂降价了</p>"))).not.toBe(a);
    expect(contentHash("新标题", htmlToText("<p>食堂涨价了</p>"))).not.toBe(a);
  });

  it("records the cleaning version that made it, and trims the title", () => {
    const h = contentHash(" 标题 ", "正文");
    expect(h).toMatch(new RegExp(`^v${CLEANING_VERSION}:[0-9a-f]{40}$`));
    expect(h).toBe(contentHash("标题", "正文"));
    expect(contentHash("标题", "正文", 7)).toBe(`v7:${hashDigest(h)}`);
    expect(hashVersion(h)).toBe(CLEANING_VERSION);
  });

  it("reads a bare hex hash (stored before hashes carried a version) as version 1", () => {
    const v1 = contentHash("标题", "正文", 1);
    const bare = hashDigest(v1);
    expect(bare).toMatch(/^[0-9a-f]{40}$/);
    expect(hashVersion(bare)).toBe(1);
    expect(sameHash(bare, v1)).toBe(true);
    expect(sameHash(v1, bare)).toBe(true);
    // Another version's hash never matches, even over the same digest: clean again first.
    expect(sameHash(contentHash("标题", "正文", 2), v1)).toBe(false);
    expect(sameHash(null, v1)).toBe(false);
  });

  it("a replaced cleaning is in force until it is put back", () => {
    const restore = replaceCleaning({ version: 9, text: (html) => htmlToText(html).replace(/，/g, ",") });
    try {
      expect(currentCleaning().version).toBe(9);
      expect(hashVersion(contentHash("t", "x"))).toBe(9);
    } finally {
      restore();
    }
    expect(currentCleaning().version).toBe(CLEANING_VERSION);
  });
});

/**
 * htmlToText reads the text in one walk of the parsed tree; htmlToTextByEditing is its definition
 * (cheerio edits). The stored SHA-1 depends on this text, so the two must agree on every input:
 * hostile and malformed markup, every element of the real captures, and random tag soup.
 */
describe("htmlToText reads what the cheerio edits read", () => {
  const agree = (html: string) => expect(htmlToText(html), html).toBe(htmlToTextByEditing(html));

  it.each([
    "<p>一<div>二<p>三</div>四",
    "<table><tr><td>格</td></tr>外面的字<tr><td>二</td></table>",
    "<TABLE>表前<P>段</TABLE>",
    '<P CLASS=x>大写<BR>换行<IMG ALT="[笑]">',
    '<img alt="a &amp; b">',
    '<img alt="&lt;p&gt;段&lt;/p&gt;尾">',
    '<img alt="<b>粗</b>">',
    '<img alt="">空alt',
    '<img alt="  两边  空格 ">',
    '<img alt="行一\r\n行二\r行三">',
    '<img>无alt<image alt="图">',
    '<svg><style>s{}</style><text>矢量</text><foreignObject><p>外</p></foreignObject><img alt="跳出"></svg>',
    "<svg><![CDATA[数据]]></svg><math><mi>x</mi><mtext><p>公式</p></mtext></math>",
    "<template><p>模板</p></template><noscript><p>无脚本</p></noscript>后",
    "<textarea><p>不是段落</p></textarea><title>标题&amp;</title>",
    "<pre>\n第一行\n  缩进</pre>",
    "<!-- 注释 --><p>正文<!-- 再注释 --></p><!DOCTYPE html>",
    "<li>一<li>二<ul><li>三</ul>",
    "<h1>标题<h2>副标题</h1>",
    "<blockquote>引用<section>节<article>文</article></section></blockquote>",
    "未闭合<b>粗<i>斜</b>体</i>",
    "零宽\u200b字\ufeff符&#8203;",
    "NUL\u0000字符<p>\u0000</p>",
    '<div id="__root">冒名的根</div>后',
    "<script>document.write('<p>x</p>')</script><style>p{}</style>正文",
    "<select><option>选项一<option>选项二</select>",
    "<frameset><frame></frameset>",
    "<body><p>正文</p></body></html>尾",
    "<a href=x>链接<p>段中</a>",
    "&amp;&lt;&gt;&nbsp;&#x4E2D;&#25991;&notanentity;&",
  ])("%j", agree);

  it.skipIf(!realAvailable)("on every element of the real captures", () => {
    const names = fs.readdirSync(REAL_DIR).filter((n) => n.endsWith(".html"));
    expect(names.length).toBeGreaterThan(0);
    let checked = 0;
    for (const name of names) {
      const $ = cheerio.load(readReal(name));
      $("body *").each((_, el) => {
        const inner = $(el).html();
        if (!inner || inner.length > 200_000) return;
        agree(inner);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("on random tag soup (fixed seed)", () => {
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = [
      "<p>",
      "</p>",
      "<div>",
      "</div>",
      "<br>",
      "<br/>",
      "<li>",
      "<tr>",
      "<td>",
      "<table>",
      "</table>",
      "<h3>",
      "</h3>",
      "<pre>",
      "</pre>",
      "<script>",
      "</script>",
      "<style>",
      "</style>",
      "<noscript>",
      "</noscript>",
      "<template>",
      "</template>",
      '<img alt="[哈]">',
      '<img alt="&amp;">',
      '<img alt="<p>">',
      "<img src=x>",
      "<svg>",
      "</svg>",
      "<math>",
      "<b>",
      "</b>",
      "<i>",
      "</i>",
      "<span>",
      "</span>",
      "<a href=#>",
      "</a>",
      "<textarea>",
      "</textarea>",
      "<!--",
      "-->",
      "文",
      "字",
      " ",
      "\n",
      "\r\n",
      "\t",
      "&nbsp;",
      "&amp;",
      "&lt;",
      "\u3000",
      "\u200b",
      "x",
      "<",
      ">",
      "&",
      '<div id="__root">',
      "<select>",
      "<option>",
      "<form>",
      "</form>",
      "<section>",
      "<article>",
      "<blockquote>",
    ];
    for (let n = 0; n < 3000; n++) {
      let html = "";
      const len = 1 + Math.floor(next() * 30);
      for (let i = 0; i < len; i++) html += pieces[Math.floor(next() * pieces.length)];
      agree(html);
    }
  });
});
