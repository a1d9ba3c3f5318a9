import { describe, expect, it } from "vitest";
import { cleanText, normalizeWord } from "../../../crawler/classify";

describe("cleanText", () => {
  it.each([
    ["plain text is kept", "今晚图书馆闭馆", "今晚图书馆闭馆"],
    ["block tags become breaks, inline tags vanish", "<p>期末<b>考试</b>安排</p><div>已公布</div>", "期末考试安排 已公布"],
    ["script and style contents go", '<style>p{color:red}</style>通知<script>alert("x")</script>', "通知"],
    ["Weibo emoji spans go entirely", '太好了<span class="url-icon"><img alt="[哈哈]" src="https://h5.sinaimg.cn/x.png"></span>', "太好了"],
    ["Weibo sticker codes in plain text go", "南大食堂的汤真好喝[哈哈][赞]", "南大食堂的汤真好喝"],
    ["URLs go, Chinese glued to them stays", "通知见https://t.cn/A6abc今天", "通知见 今天"],
    ["@mentions go, e-mail addresses stay", "@小明同学 @Li_Lei 快看 写信到 a@b.cn", "快看 写信到 a@b.cn"],
    ["entities are decoded", "考试&amp;成绩&nbsp;&#x4E00;&#20108;", "考试&成绩 一二"],
    ["full-width forms are normalised and Latin lower-cased", "ＡＢＣ大学２０２４年：招生！", "abc大学2024年:招生!"],
    ["Weibo topic markers keep their text", "{%#期末考试#%}加油", "#期末考试# 加油"],
    ["zero-width characters and whitespace runs", "考试\u200b周  \n\t开始", "考试周 开始"],
    // The cleaner's fast path (text of characters every step leaves alone) must agree with the full one.
    ["capitals alone are lower-cased", "NBA总决赛 G7 “湖人”夺冠", "nba总决赛 g7 “湖人”夺冠"],
    ["full-width forms fold", "《高数》期末：Ｂ卷（９０分）", "《高数》期末:b卷(90分)"],
    ["leading, trailing and doubled spaces still collapse", " 期末  考试 ", "期末 考试"],
    ["a dot or colon still goes through the URL check", "见WWW.EXAMPLE.COM/X通知", "见 通知"],
  ])("%s", (_name, raw, cleaned) => {
    expect(cleanText(raw)).toBe(cleaned);
  });

  it("normalises dictionary words the same way", () => {
    expect(normalizeWord(" ＣＥＴ四级 ")).toBe("cet四级");
  });
});
