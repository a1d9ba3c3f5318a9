import { describe, expect, test } from "vitest";
import { siteKeyOf } from "../../crawler/site-key";

describe("siteKeyOf", () => {
  test.each([
    // Weibo: a user, the mobile site, the old wap site and a keyword search are one site.
    ["weibo", "https://weibo.com/u/1234567890", "weibo"],
    ["weibo", "https://m.weibo.cn/u/1234567890", "weibo"],
    ["weibo", "https://weibo.cn/1234567890", "weibo"],
    ["weibo", "https://m.weibo.cn/search?containerid=100103type%3D1%26q%3D%E9%A3%9F%E5%A0%82", "weibo"],
    // Tieba: a bar, its mobile page and an in-bar search.
    ["tieba", "https://tieba.baidu.com/f?kw=%E5%8C%97%E4%BA%AC%E5%A4%A7%E5%AD%A6", "tieba"],
    ["tieba", "https://tieba.baidu.com/mo/q/m?kw=x", "tieba"],
    ["tieba", "https://tieba.baidu.com/f/search/res?ie=utf-8&kw=x&qw=y&rn=10&pn=0", "tieba"],
    // Local copies and look-alike hosts keep their origin: never merged with the real site.
    ["weibo", "http://127.0.0.1:4100/u/1", "weibo:http://127.0.0.1:4100"],
    ["tieba", "http://localhost:4200/f?kw=x", "tieba:http://localhost:4200"],
    ["weibo", "https://notweibo.com/u/1", "weibo:https://notweibo.com"],
    ["tieba", "https://baidu.com.evil.example/f?kw=x", "tieba:https://baidu.com.evil.example"],
    // Discuz!: the installation's directory, whatever board form or script.
    ["discuz", "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", "discuz:http://bbs.example.edu.cn/"],
    ["discuz", "http://bbs.example.edu.cn/forum-7-1.html", "discuz:http://bbs.example.edu.cn/"],
    ["discuz", "http://bbs.example.edu.cn/search.php?mod=forum&srchtxt=x&searchsubmit=yes", "discuz:http://bbs.example.edu.cn/"],
    ["discuz", "https://bbs.saraba1st.com/2b/forum-6-1.html", "discuz:https://bbs.saraba1st.com/2b/"],
    ["discuz", "https://bbs.saraba1st.com/2b/search.php?mod=forum&srchtxt=x", "discuz:https://bbs.saraba1st.com/2b/"],
    ["discuz", "http://bbs.example.edu.cn/bbs/forumdisplay.php?fid=12", "discuz:http://bbs.example.edu.cn/bbs/"],
    ["discuz", "http://bbs.example.edu.cn/bbs/archiver/?fid-5.html", "discuz:http://bbs.example.edu.cn/bbs/"],
    ["discuz", "http://127.0.0.1:4300/bbs/search.php?srchtxt=x", "discuz:http://127.0.0.1:4300/bbs/"],
    // Blogs: each account its own (comment ids collide between blogs of one origin).
    ["blog", "https://blog.example.edu.cn/alice/", "blog:https://blog.example.edu.cn/alice/"],
    ["blog", "https://blog.example.edu.cn/bob/feed#top", "blog:https://blog.example.edu.cn/bob/feed"],
  ])("%s %s → %s", (platform, url, key) => {
    expect(siteKeyOf(platform, url)).toBe(key);
  });

  test("two boards of one Discuz! installation share a key; two installations do not", () => {
    const a = siteKeyOf("discuz", "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2");
    const b = siteKeyOf("discuz", "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=9");
    const c = siteKeyOf("discuz", "http://bbs.example.edu.cn/bbs/forum.php?mod=forumdisplay&fid=2");
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  test("the same host under two platforms gives two keys", () => {
    expect(siteKeyOf("blog", "http://127.0.0.1:4000/feed")).not.toBe(siteKeyOf("discuz", "http://127.0.0.1:4000/forum.php?fid=2"));
  });

  test("an unreadable entry URL has no key", () => {
    expect(siteKeyOf("weibo", "not a url")).toBe("");
    expect(siteKeyOf("blog", "ftp://example.com/feed")).toBe("");
  });
});
