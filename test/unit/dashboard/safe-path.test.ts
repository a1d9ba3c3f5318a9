/**
 * Redirect targets after sign-in and after a form (lib/safe-path.ts): a table of spellings that
 * lead to another host (each must fall back to "/"), and same-site paths that must be kept. Every
 * "kept" answer is also checked the way a browser would use it: resolved against the dashboard's
 * origin, it stays on that origin.
 */
import { describe, expect, test } from "vitest";
import { safeLocalPath } from "@/lib/safe-path";

const OTHER_HOST = [
  // protocol-relative, plainly or after the parser's own clean-up
  "//x",
  "//127.0.0.2:20001/x",
  "/\\x",
  "\\\\x",
  "/.//x",
  "/.//127.0.0.2:20001/x",
  "/%2e//x",
  "/%2E//x",
  "/%2e%2e//x",
  "/%2E%2E//x",
  "/a/..//x",
  "/a/b/../..//x",
  "/a/%2e%2e//x",
  "/./\\x",
  "/.\\/x",
  // tabs, newlines, carriage returns: browsers drop them, so "/\t/x" is "//x"
  "/\tx",
  "/\t/x",
  "/\n/x",
  "/\r\n/x",
  "/.\t//x",
  "/posts\\..\\..\\/x",
  // not a path at all
  "%2f%2fx",
  "https:x",
  "http:/x",
  "http:x",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "https://evil.example/",
  "http://127.0.0.2:20001/x",
  "http://campuswatch.invalid@evil.example/",
  " //x",
  "\t//x",
  "x",
  "posts",
  "",
];

describe("safeLocalPath refuses every spelling of another host", () => {
  test.each(OTHER_HOST.map((v) => [v]))("%j falls back to /", (value) => {
    expect(safeLocalPath(value)).toBe("/");
    expect(safeLocalPath(value, "/posts")).toBe("/posts");
  });

  test("anything that is not a string falls back", () => {
    for (const value of [undefined, null, 1, ["/posts"], { toString: () => "/posts" }]) expect(safeLocalPath(value)).toBe("/");
  });
});

describe("safeLocalPath keeps paths on this site (resolved, as a browser would)", () => {
  test.each([
    ["/", "/"],
    ["/posts", "/posts"],
    ["/posts?topic=1#a", "/posts?topic=1#a"],
    ["/posts?topic=1&status=open", "/posts?topic=1&status=open"],
    ["/posts?q=期末 考试", "/posts?q=%E6%9C%9F%E6%9C%AB%20%E8%80%83%E8%AF%95"],
    ["/a/../posts", "/posts"],
    ["/./posts", "/posts"],
    ["/%2e/posts", "/posts"],
    ["/%09/x", "/%09/x"],
    ["/%5c/x", "/%5c/x"],
    ["/%2f%2fx", "/%2f%2fx"],
    ["/posts?next=//evil.example", "/posts?next=//evil.example"],
    ["/posts#//evil.example", "/posts#//evil.example"],
  ])("%j is kept as %j", (value, expected) => {
    const kept = safeLocalPath(value);
    expect(kept).toBe(expected);
    // What the browser does with it: the redirect stays on the dashboard's origin.
    for (const origin of ["http://127.0.0.1:3000", "https://campuswatch.example.edu"]) {
      expect(new URL(kept, origin).origin).toBe(origin);
    }
  });
});
