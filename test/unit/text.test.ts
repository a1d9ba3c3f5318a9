import { describe, expect, it } from "vitest";
import { contentSha1, htmlToText } from "../../crawler/text";

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

describe("contentSha1", () => {
  it("ignores markup-only changes and sees text or title changes", () => {
    const a = contentSha1("标题", htmlToText("<p>食堂涨价了</p>"));
    expect(contentSha1("标题", htmlToText('<p class="x">食堂涨价了</p>'))).toBe(a);
    expect(contentSha1("标题", htmlToText("<p>食堂降价了</p>"))).not.toBe(a);
    expect(contentSha1("新标题", htmlToText("<p>食堂涨价了</p>"))).not.toBe(a);
  });
});
