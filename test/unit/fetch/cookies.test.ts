import { describe, expect, it } from "vitest";
import { CookieJar, parseSetCookie } from "../../../crawler/fetch/cookies";

describe("CookieJar", () => {
  it("sends a host cookie back to that host only", () => {
    const jar = new CookieJar();
    jar.setFromResponse("http://bbs.example.edu.cn/forum.php", ["sid=abc; Path=/; HttpOnly"]);
    expect(jar.headerFor("http://bbs.example.edu.cn/thread-1-1-1.html")).toBe("sid=abc");
    expect(jar.headerFor("http://www.example.edu.cn/")).toBeUndefined();
  });

  it("shares a Domain cookie with subdomains but refuses one for another site", () => {
    const jar = new CookieJar();
    jar.setFromResponse("https://passport.weibo.com/visitor", ["SUB=v1; domain=.weibo.com; path=/", "EVIL=1; domain=baidu.com"]);
    expect(jar.headerFor("https://weibo.com/u/1")).toBe("SUB=v1");
    expect(jar.headerFor("https://m.weibo.com/")).toBe("SUB=v1");
    expect(jar.headerFor("https://tieba.baidu.com/")).toBeUndefined();
  });

  it("honours Path, Secure, Max-Age and deletion", () => {
    const jar = new CookieJar();
    jar.setFromResponse("https://a.example/app/page", ["p=1; Path=/app", "s=2; Secure; Path=/", "gone=3; Max-Age=0"]);
    expect(jar.headerFor("https://a.example/app/x")).toBe("p=1; s=2");
    expect(jar.headerFor("http://a.example/other")).toBeUndefined();
    jar.setFromResponse("https://a.example/", ["p=1; Path=/app; Max-Age=-1"]);
    expect(jar.headerFor("https://a.example/app/x")).toBe("s=2");
  });

  it("imports Playwright cookies", () => {
    const jar = new CookieJar();
    jar.importBrowserCookies([
      { name: "SUB", value: "x", domain: ".weibo.cn", path: "/", expires: -1, secure: false },
      { name: "host", value: "y", domain: "m.weibo.cn", path: "/", expires: Date.now() / 1000 + 60, secure: false },
    ]);
    expect(jar.headerFor("http://m.weibo.cn/api/container/getIndex")).toBe("SUB=x; host=y");
    expect(jar.headerFor("http://s.weibo.cn/")).toBe("SUB=x");
  });
});

describe("parseSetCookie", () => {
  it("prefers Max-Age to Expires and defaults the path to the request directory", () => {
    const c = parseSetCookie("a=b; Expires=Wed, 01 Jan 2020 00:00:00 GMT; Max-Age=60", new URL("http://h.example/dir/page"));
    expect(c?.path).toBe("/dir");
    expect(c?.expires).toBeGreaterThan(Date.now());
    expect(parseSetCookie("novalue", new URL("http://h.example/"))).toBeUndefined();
  });
});
