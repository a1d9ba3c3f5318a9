import { describe, expect, test } from "vitest";
import { getAdapter, recognisePlatform } from "../../../crawler/adapters";
import { PLATFORMS } from "../../../crawler/types";

describe("adapter registry", () => {
  test("every platform has an adapter that names itself", () => {
    for (const p of PLATFORMS) expect(getAdapter(p).platform).toBe(p);
  });

  test.each([
    ["https://m.weibo.cn/u/1669879400", "weibo"],
    ["https://weibo.com/1669879400", "weibo"],
    ["https://weibo.cn/1669879400/profile", "weibo"],
    ["https://m.weibo.cn/p/1005051669879400", "weibo"],
    ["http://127.0.0.1:4000/u/5000000001", "weibo"],
    ["http://127.0.0.1:4000/p/1005055000000001", "weibo"],
    ["https://tieba.baidu.com/f?kw=%E5%8D%97%E4%BA%AC%E5%A4%A7%E5%AD%A6", "tieba"],
    ["http://127.0.0.1:4000/f?kw=abc", "tieba"],
    ["https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", "discuz"],
    ["https://bbs.saraba1st.com/2b/forum-6-1.html", "discuz"],
    ["http://127.0.0.1:4000/forum.php?mod=forumdisplay&fid=3", "discuz"],
    ["https://hujinbo.me/", "blog"],
    ["http://127.0.0.1:4000/blog/alice/", "blog"],
    ["ftp://example.com/", null],
    ["not a url", null],
  ])("%s → %s", (url, platform) => {
    expect(recognisePlatform(url)).toBe(platform);
  });

  test("accepts URL objects", () => {
    expect(recognisePlatform(new URL("https://tieba.baidu.com/f?kw=x"))).toBe("tieba");
  });
});
