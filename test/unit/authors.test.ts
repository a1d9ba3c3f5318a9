/**
 * Who an author is in a URL and on the command line (lib/authors.ts): the page path of a post's
 * author, the route segments read back, and `--author PLATFORM:ID`.
 */
import { describe, expect, test } from "vitest";
import { authorFromRoute, authorPath, parseAuthorArg } from "@/lib/authors";

describe("author keys", () => {
  test("a post's author links to a path that reads back as the same author; no id, no link", () => {
    for (const [platform, id] of [
      ["tieba", "tb.1.7f3a2b9c.AbC-_x"],
      ["tieba", "南苑/小明?#%"],
      ["weibo", "1234567890"],
    ] as const) {
      const path = authorPath(platform, id)!;
      expect(path).toMatch(new RegExp(`^/authors/${platform}/[^/?#]+$`));
      const [, , p, segment] = path.split("/");
      // Next.js may hand the segment over encoded or decoded: both read back.
      expect(authorFromRoute(p!, segment!)).toEqual({ platform, authorId: id });
    }
    expect(authorFromRoute("weibo", "1234567890")).toEqual({ platform: "weibo", authorId: "1234567890" });
    expect(authorPath("tieba", "")).toBeNull();
    expect(authorPath("myspace", "1")).toBeNull();
  });

  test("an unknown platform, a broken encoding, an empty or overlong id are no author", () => {
    expect(authorFromRoute("myspace", "1")).toBeNull();
    expect(authorFromRoute("tieba", "%E4%B8")).toBeNull();
    expect(authorFromRoute("tieba", "")).toBeNull();
    expect(authorFromRoute("tieba", "x".repeat(201))).toBeNull();
  });

  test("--author PLATFORM:ID splits at the first colon and refuses what is not one", () => {
    expect(parseAuthorArg("tieba:tb.1.abc")).toEqual({ platform: "tieba", authorId: "tb.1.abc" });
    expect(parseAuthorArg("discuz:12:34")).toEqual({ platform: "discuz", authorId: "12:34" });
    expect(() => parseAuthorArg("1234")).toThrow(/--author must be PLATFORM:ID/);
    expect(() => parseAuthorArg("myspace:1")).toThrow(/got myspace:1/);
    expect(() => parseAuthorArg("weibo: ")).toThrow(/needs the author's id after "weibo:"/);
  });
});
