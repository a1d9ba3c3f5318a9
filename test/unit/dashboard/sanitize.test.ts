import { describe, expect, test } from "vitest";
import { highlightHtml, highlightSegments, safeHttpUrl, sanitizePostHtml } from "@/lib/sanitize";

describe("sanitizePostHtml", () => {
  test.each([
    ["script tag and its content", `<p>hi<script>alert(1)</script></p>`, `<p>hi</p>`],
    ["event handler", `<p onclick="alert(1)" onmouseover=x>hi</p>`, `<p>hi</p>`],
    [
      "javascript: link keeps its text, loses its href",
      `<a href="javascript:alert(1)">x</a>`,
      `<a rel="noopener noreferrer nofollow ugc" target="_blank" referrerpolicy="no-referrer">x</a>`,
    ],
    [
      "JaVaScRiPt with entities",
      `<a href="&#106;avascript:alert(1)">x</a>`,
      `<a rel="noopener noreferrer nofollow ugc" target="_blank" referrerpolicy="no-referrer">x</a>`,
    ],
    [
      "data: link",
      `<a href="data:text/html,<script>alert(1)</script>">x</a>`,
      `<a rel="noopener noreferrer nofollow ugc" target="_blank" referrerpolicy="no-referrer">x</a>`,
    ],
    [
      "style, iframe, svg, object",
      `<style>*{}</style><iframe src="https://e"></iframe><svg onload=alert(1)><script>1</script></svg><object data="x"></object>ok`,
      `ok`,
    ],
    ["style attributes and page classes", `<p style="background:url(https://e/x)" class="nav">t</p>`, `<p>t</p>`],
    ["form controls", `<form action="https://e"><input name=a><button>b</button></form>`, `b`],
  ])("removes %s", (_name, input, expected) => {
    expect(sanitizePostHtml(input)).toBe(expected);
  });

  test("an image becomes a placeholder link that loads nothing", () => {
    const out = sanitizePostHtml(`<img src="https://img.example.cn/a.jpg" onerror="alert(1)" alt="照片">`);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("onerror");
    expect(out).toContain(`href="https://img.example.cn/a.jpg"`);
    expect(out).toContain(`class="img-placeholder"`);
    expect(out).toContain("[图片 image: 照片]");
  });

  test("an image with a broken or script source becomes a placeholder without a link", () => {
    expect(sanitizePostHtml(`<img src=x onerror=alert(1)>`, {})).toBe(
      `<a class="img-placeholder" rel="noopener noreferrer nofollow ugc" target="_blank" referrerpolicy="no-referrer">[图片 image]</a>`,
    );
    expect(sanitizePostHtml(`<img src="javascript:alert(1)">`)).not.toContain("javascript");
  });

  test("relative links resolve against the post URL", () => {
    expect(sanitizePostHtml(`<a href="/t/2">next</a>`, { baseUrl: "https://bbs.example.edu.cn/forum.php?tid=1" })).toContain(
      `href="https://bbs.example.edu.cn/t/2"`,
    );
  });

  test("images load only from the local source an admin allowed", () => {
    const out = sanitizePostHtml(`<img src="https://img.example.cn/a.jpg" alt="a"><img src="https://img.example.cn/b.jpg">`, {
      imageSrc: (_src, i) => `/api/posts/7/images/${i}`,
    });
    expect(out).toBe(
      `<img src="/api/posts/7/images/0" alt="a" loading="lazy" referrerpolicy="no-referrer" /><img src="/api/posts/7/images/1" alt="" loading="lazy" referrerpolicy="no-referrer" />`,
    );
    // A remote source is never passed through, even if the callback returns one.
    expect(sanitizePostHtml(`<img src="https://e/a.jpg">`, { imageSrc: (src) => src })).not.toContain("<img");
  });

  test("Chinese text and entities survive", () => {
    expect(sanitizePostHtml(`<p>期末考试 &amp; 作弊 &lt;b&gt;</p>`)).toBe(`<p>期末考试 &amp; 作弊 &lt;b&gt;</p>`);
  });
});

describe("safeHttpUrl", () => {
  test.each([
    ["https://a.cn/x", undefined, "https://a.cn/x"],
    ["/x", "https://a.cn/y/z", "https://a.cn/x"],
    ["javascript:alert(1)", undefined, null],
    [" JAVASCRIPT:alert(1)", "https://a.cn/", null],
    ["ftp://a.cn/", undefined, null],
    ["", undefined, null],
  ])("%s (base %s) → %s", (raw, base, expected) => {
    expect(safeHttpUrl(raw, base)).toBe(expected);
  });
});

describe("highlighting", () => {
  test.each([
    [
      "期末考试有人作弊",
      ["考试", "作弊"],
      [
        ["期末", false],
        ["考试", true],
        ["有人", false],
        ["作弊", true],
      ],
    ],
    ["期末考试", ["考试", "期末考试"], [["期末考试", true]]],
    [
      "Hello WORLD",
      ["world"],
      [
        ["Hello ", false],
        ["WORLD", true],
      ],
    ],
    [
      "a.b*c",
      ["*"],
      [
        ["a.b", false],
        ["*", true],
        ["c", false],
      ],
    ],
    ["没有命中", ["作弊"], [["没有命中", false]]],
    ["", ["作弊"], []],
  ])("%s with %j", (text, terms, expected) => {
    expect(highlightSegments(text, terms).map((s) => [s.text, s.hit])).toEqual(expected);
  });

  test("marks text inside sanitized HTML without touching attributes", () => {
    const safe = sanitizePostHtml(`<p>考试<a href="https://e.cn/考试">考试链接</a></p>`);
    const out = highlightHtml(safe, ["考试"]);
    expect(out).toContain("<mark>考试</mark>");
    expect(out).toContain(`href="https://e.cn/%E8%80%83%E8%AF%95"`);
    expect(out.match(/<mark>/g)).toHaveLength(2);
  });

  test("escaped markup in text stays text after highlighting", () => {
    const out = highlightHtml(sanitizePostHtml(`<p>&lt;script&gt;考试&lt;/script&gt;</p>`), ["考试"]);
    expect(out).toBe(`<p>&lt;script&gt;<mark>考试</mark>&lt;/script&gt;</p>`);
  });
});

describe("sensitive highlighting", () => {
  test("sensitive terms get their own class, others a plain mark", () => {
    expect(highlightHtml("<p>考试作弊</p>", ["考试", "作弊"], ["作弊"])).toBe(`<p><mark>考试</mark><mark class="sensitive">作弊</mark></p>`);
  });
  test("a page cannot smuggle the class in", () => {
    expect(sanitizePostHtml(`<mark class="sensitive">x</mark>`)).toBe("x");
  });
});
