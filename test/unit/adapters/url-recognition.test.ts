/**
 * URL recognition across the platforms (issue 30 item 6): for each URL someone may paste, the
 * platform the registry gives (lib/platforms platformOfUrl, and the crawler's recognisePlatform
 * built on it), whether the registry entry takes it as an entry URL and the entry URL it stores
 * (the entry's normaliseEntryUrl, and registration's normaliseEntryUrl), or the refusal
 * registration gives it (platformProblem) when it is a page of the platform that cannot be
 * crawled as an entry (a thread, a Discuz! category page).
 * Discuz! boards named by their key (`forum-the_end-1.html`) and category pages (`forum.php?gid=`)
 * are Discuz!, never blogs.
 */
import { describe, expect, test } from "vitest";
import { discuzBoardFromUrl, recognisePlatform } from "../../../crawler/adapters";
import { boardListUrl } from "../../../lib/platforms/discuz-urls";
import { platformEntry, platformOfUrl, PLATFORMS, type Platform } from "../../../lib/platforms";
import { normaliseEntryUrl, platformProblem } from "../../../server/accounts";

/** A refused entry: the platform is recognised, registration names the forms it wants. */
const REFUSED = "refused";

const TABLE: [url: string, platform: Platform, entry: string][] = [
  // Weibo
  ["https://m.weibo.cn/u/1669879400", "weibo", "https://m.weibo.cn/u/1669879400"],
  ["https://weibo.com/1669879400", "weibo", "https://weibo.com/1669879400"],
  ["https://weibo.com/u/1669879400#home", "weibo", "https://weibo.com/u/1669879400"],
  ["https://weibo.cn/1669879400/profile", "weibo", "https://weibo.cn/1669879400/profile"],
  ["https://m.weibo.cn/p/1005051669879400", "weibo", "https://m.weibo.cn/p/1005051669879400"],
  // Tieba: every form is stored as the desktop list
  [
    "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8",
    "tieba",
    "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8",
  ],
  [
    "https://tieba.baidu.com/mo/q/m?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&lp=5024",
    "tieba",
    "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8",
  ],
  ["https://wapp.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6", "tieba", "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8"],
  ["https://tieba.baidu.com/p/9117905169", "tieba", REFUSED],
  // Discuz! boards in every form, numbered or named by key
  ["https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", "discuz", "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2"],
  ["https://bbs.example.edu.cn/forum-2-1.html", "discuz", "https://bbs.example.edu.cn/forum-2-1.html"],
  ["https://bbs.example.edu.cn/bbs/forum-the_end-1.html", "discuz", "https://bbs.example.edu.cn/bbs/forum-the_end-1.html"],
  ["https://bbs.example.edu.cn/forum-campus_life-3.html", "discuz", "https://bbs.example.edu.cn/forum-campus_life-3.html"],
  [
    "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=the_end&page=2",
    "discuz",
    "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=the_end&page=2",
  ],
  ["https://bbs.example.edu.cn/forumdisplay.php?fid=12", "discuz", "https://bbs.example.edu.cn/forumdisplay.php?fid=12"],
  ["https://bbs.example.edu.cn/archiver/?fid-12.html", "discuz", "https://bbs.example.edu.cn/archiver/?fid-12.html"],
  ["https://bbs.example.edu.cn/forum.php?gid=1", "discuz", REFUSED],
  ["https://bbs.example.edu.cn/bbs/forum.php?mod=index&gid=36", "discuz", REFUSED],
  ["https://bbs.example.edu.cn/thread-5-1-1.html", "discuz", REFUSED],
  ["https://bbs.example.edu.cn/viewthread.php?tid=5", "discuz", REFUSED],
  // WeChat articles: the short form, and the long form without its tracking parameters
  ["https://mp.weixin.qq.com/s/Xq3B0kYtT6l8gQ2mZr9wAA", "wechat", "https://mp.weixin.qq.com/s/Xq3B0kYtT6l8gQ2mZr9wAA"],
  [
    "https://mp.weixin.qq.com/s?__biz=ODUzMjkwMzYx&mid=2654593285&idx=2&sn=32dca70c86521eceef22bf8b05a6ac79&chksm=012e9b13&scene=21#wechat_redirect",
    "wechat",
    "https://mp.weixin.qq.com/s?__biz=ODUzMjkwMzYx&mid=2654593285&idx=2&sn=32dca70c86521eceef22bf8b05a6ac79",
  ],
  ["https://mp.weixin.qq.com/mp/profile_ext?action=home&__biz=ODUzMjkwMzYx", "wechat", REFUSED],
  // Blogs: anything else
  ["https://hujinbo.me/", "blog", "https://hujinbo.me/"],
  ["https://www.cnblogs.com/someone/", "blog", "https://www.cnblogs.com/someone/"],
  ["https://blog.csdn.net/someone", "blog", "https://blog.csdn.net/someone"],
  ["https://example.edu.cn/news/forum-notes.html", "blog", "https://example.edu.cn/news/forum-notes.html"],
  ["https://example.edu.cn/index.php?gid=3", "blog", "https://example.edu.cn/index.php?gid=3"],
];

describe("what the registry gives for each URL", () => {
  test("the table covers every registered platform with at least 20 URLs", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(20);
    expect(new Set(TABLE.map(([, p]) => p))).toEqual(new Set(PLATFORMS));
  });

  test.each(TABLE)("%s → %s, entry %s", (url, platform, entry) => {
    // The registry: its recognisers in order, and the entry's own entry-URL check and stored form.
    const u = new URL(url);
    expect(platformOfUrl(u)).toBe(platform);
    const registryEntry = platformEntry(platform);
    expect(registryEntry.isEntryUrl(u)).toBe(entry !== REFUSED);
    if (entry !== REFUSED) {
      u.hash = "";
      expect(registryEntry.normaliseEntryUrl(u) ?? u.toString()).toBe(entry);
    }
    // Registration, which reads the registry.
    expect(recognisePlatform(url)).toBe(platform);
    const problem = platformProblem(url, undefined);
    if (entry === REFUSED) {
      expect(problem).toMatch(/^unknown URL shape for a /);
    } else {
      expect(problem).toBeNull();
      expect(normaliseEntryUrl(url)).toBe(entry);
      // The stored entry is recognised as the same platform again.
      expect(recognisePlatform(entry)).toBe(platform);
    }
  });

  test("a board named by its key is read through forum.php with that key", () => {
    const board = discuzBoardFromUrl(new URL("https://bbs.example.edu.cn/bbs/forum-the_end-1.html"))!;
    expect(board).toEqual({ base: "https://bbs.example.edu.cn/bbs/", fid: "the_end", dialect: "x" });
    expect(boardListUrl(board, 2)).toBe("https://bbs.example.edu.cn/bbs/forum.php?mod=forumdisplay&fid=the_end&page=2");
  });
});
