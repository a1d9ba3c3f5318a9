/**
 * What the evidence screenshot draws (crawler/evidence/screenshot.ts pageForScreenshot): a page
 * without its scripts, frames, plugins, refreshes, `<base>` and connection hints but with its own
 * styles; a JSON answer (Weibo's API) as readable, escaped text.
 */
import { describe, expect, it } from "vitest";
import { pageForScreenshot, pngSize, screenshotPathOf } from "@/crawler/evidence";

describe("the page an evidence screenshot draws", () => {
  it("removes every way out of an HTML page and keeps its styles", () => {
    const html = pageForScreenshot(
      `<html><head><style>p{color:red}</style><meta http-equiv="refresh" content="0;url=http://x/"><base href="http://x/">` +
        `<link rel="preconnect" href="http://x"><link rel="DNS-Prefetch" href="http://x"><link rel="stylesheet" href="a.css"></head>` +
        `<body style="margin:0"><p>帖子</p><script>alert(1)</script><iframe src="http://x"></iframe><object data="x"></object><embed src="x"></body></html>`,
    );
    expect(html).toContain("<style>p{color:red}</style>");
    expect(html).toContain('<body style="margin:0"><p>帖子</p>');
    for (const gone of ["<script", "<iframe", "<object", "<embed", "refresh", "<base", "preconnect", "DNS-Prefetch"]) expect(html).not.toContain(gone);
    // The stylesheet link stays (the request is aborted at drawing time, like any other).
    expect(html).toContain('rel="stylesheet"');
  });

  it("shows a JSON answer as escaped, indented text", () => {
    const html = pageForScreenshot(`{"text":"<img src=x onerror=alert(1)>微博正文","user":{"id":1}}`);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;微博正文");
    expect(html).not.toContain("<img");
    expect(html).toMatch(/\n {2}"user": \{/);
  });

  it("names the screenshot beside its archived page and reads a PNG's size", () => {
    expect(screenshotPathOf("7/abc.json.gz")).toBe("7/abc.png");
    const header = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
    header.write("IHDR", 12, "ascii");
    header.writeUInt32BE(1280, 16);
    header.writeUInt32BE(900, 20);
    expect(pngSize(header)).toEqual({ width: 1280, height: 900 });
    expect(pngSize(Buffer.from("GIF89a not a png at all!"))).toBeNull();
  });
});
