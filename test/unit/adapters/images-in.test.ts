/**
 * imagesIn (crawler/adapters/shared.ts) skips parsing a fragment with no image tag: the skip must
 * never lose an image the parser would have found (upper case, `<image>`, a slash or a line break
 * after the tag name), and must find nothing where the parser finds nothing.
 */
import { describe, expect, it } from "vitest";
import { imagesIn } from "../../../crawler/adapters/shared";

const BASE = "https://bbs.example.edu.cn/thread-1-1-1.html";

describe("imagesIn", () => {
  it("finds images however the tag is written", () => {
    expect(imagesIn(`<P>看图<IMG SRC="/a.png"></P>`, BASE)).toEqual(["https://bbs.example.edu.cn/a.png"]);
    expect(imagesIn(`<image src="b.png">`, BASE)).toEqual(["https://bbs.example.edu.cn/b.png"]);
    expect(imagesIn(`<img\nsrc="c.png">`, BASE)).toEqual(["https://bbs.example.edu.cn/c.png"]);
    expect(imagesIn(`<img/src="d.png">`, BASE)).toEqual(["https://bbs.example.edu.cn/d.png"]);
    expect(imagesIn(`<img data-original="//img.example.cn/e.jpg" src="loading.gif">`, BASE)).toEqual(["https://img.example.cn/e.jpg"]);
  });

  it("finds none in text, other tags, or tag-like words", () => {
    expect(imagesIn("纯文本，没有图片", BASE)).toEqual([]);
    expect(imagesIn(`<p>imgur 上的 &lt;img&gt; 标签</p><imgx src="x.png">`, BASE)).toEqual([]);
    expect(imagesIn(`<img src="data:image/png;base64,AAAA"><img class="emoticon" src="/s.gif">`, BASE)).toEqual([]);
  });
});
