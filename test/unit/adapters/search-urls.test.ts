/**
 * Keyword watch URLs and result pages: the search URL forms are recognised (word, bar,
 * order), built back by the form's builder, refused without a word; Tieba, Discuz! and Weibo
 * result markup (written after the real pages' shape) gives the platform adapters' ids.
 */
import { describe, expect, it } from "vitest";
import { buildSearchUrl, getAdapter, recognisePlatform, searchUrlProblem, searchWatchOf } from "../../../crawler/adapters";
import { parseDiscuzSearch, parseTiebaSearch, searchMblogs } from "../../../crawler/adapters/search";

const NOW = new Date("2025-06-15T04:00:00Z");

describe("search URLs", () => {
  it("recognises the issue's forms on the real hosts", () => {
    expect(searchWatchOf("https://m.weibo.cn/search?containerid=100103type%3D1%26q%3D%E9%A3%9F%E5%A0%82")).toMatchObject({
      platform: "weibo",
      word: "食堂",
      byTime: false,
      pages: 3,
    });
    expect(searchWatchOf("https://m.weibo.cn/search?containerid=100103type%3D61%26q%3D%E9%A3%9F%E5%A0%82")).toMatchObject({ byTime: true });
    expect(searchWatchOf("https://tieba.baidu.com/f/search/res?ie=utf-8&kw=%E5%8C%97%E6%B1%9F&qw=%E9%A3%9F%E5%A0%82&rn=10&pn=2")).toMatchObject({
      platform: "tieba",
      word: "食堂",
      bar: "北江",
      byTime: false,
    });
    expect(searchWatchOf("https://bbs.x.edu.cn/bbs/search.php?mod=forum&srchtxt=%E9%A3%9F%E5%A0%82&searchsubmit=yes&cw_pages=5")).toMatchObject({
      platform: "discuz",
      word: "食堂",
      base: "https://bbs.x.edu.cn/bbs/",
      pages: 5,
    });
    expect(searchWatchOf("https://bbs.x.edu.cn/search.php?mod=forum&searchid=12&orderby=lastpost&searchsubmit=yes&kw=%E9%A3%9F%E5%A0%82")).toMatchObject({
      word: "食堂",
    });
    expect(recognisePlatform("http://127.0.0.1:4000/bbs/search.php?mod=forum&srchtxt=a")).toBe("discuz");
    expect(recognisePlatform("http://127.0.0.1:4000/f/search/res?qw=a")).toBe("tieba");
    // Only the identity of the two list methods is compared; neither is called.
    /* eslint-disable @typescript-eslint/unbound-method */
    expect(getAdapter("tieba", "https://tieba.baidu.com/f/search/res?qw=a").list).not.toBe(getAdapter("tieba").list);
    /* eslint-enable @typescript-eslint/unbound-method */
    expect(getAdapter("tieba", "https://tieba.baidu.com/f?kw=a")).toBe(getAdapter("tieba"));
  });

  it("builds what it recognises, and refuses a search with no word or bad cw_pages", () => {
    for (const req of [
      { platform: "weibo" as const, word: "食堂 涨价" },
      { platform: "tieba" as const, word: "食堂", bar: "北江大学", pages: 4 },
      {
        platform: "discuz" as const,
        word: "食堂",
        base: "https://bbs.x.edu.cn/",
      },
    ]) {
      expect(searchWatchOf(buildSearchUrl(req))).toMatchObject({
        platform: req.platform,
        word: req.word,
        pages: req.pages ?? 3,
      });
    }
    expect(searchUrlProblem("https://tieba.baidu.com/f/search/res?ie=utf-8&kw=x&qw=")).toMatch(/^a search URL with no word/);
    expect(searchUrlProblem("https://m.weibo.cn/search")).toMatch(/^a search URL with no word/);
    expect(searchUrlProblem("https://bbs.x.edu.cn/search.php?mod=forum&srchtxt=a&cw_pages=0")).toMatch(/^cw_pages/);
    expect(searchUrlProblem("https://tieba.baidu.com/f?kw=x")).toBeNull();
  });
});

describe("result pages", () => {
  it("Tieba: thread hits are thread ids, floor hits post ids, 楼中楼 hits their own ids", () => {
    const page = `<html><body><div class="s_post_list">
<div class="s_post"><span class="p_title"><a data-tid="700" class="bluelink" href="/p/700?pid=900&amp;cid=0#900">二食堂<em>涨价</em>了</a></span><div class="p_content">听说<em>涨价</em></div>贴吧：<a class="p_forum" href="/f?kw=x"><font class="p_violet">北江</font></a>作者：<a href="/home/main?un=a"><font class="p_violet">小明</font></a> <font class="p_green p_date">2025-06-14 12:30</font></div>
<div class="s_post"><span class="p_title"><a data-tid="701" class="bluelink" href="/p/701?pid=901&amp;cid=0#901">回复:周末吃啥</a></span><div class="p_content">去二食堂</div>作者：<a href="/home/main?un=b"><font>小红</font></a> <font class="p_green p_date">2025-06-14 13:00</font></div>
<div class="s_post"><span class="p_title"><a data-tid="701" class="bluelink" href="/p/701?pid=901&amp;cid=955#955">回复:周末吃啥</a></span><div class="p_content">同去</div>作者：<a href="/home/main?un=c"><font>小刚</font></a> <font class="p_green p_date">2025-06-14 13:10</font></div>
</div><a class="next" href="/f/search/res?qw=x&amp;pn=2">下一页&gt;</a></body></html>`;
    const { items, more } = parseTiebaSearch(page, "https://tieba.baidu.com/f/search/res?qw=x", NOW);
    expect(more).toBe(true);
    expect(items.map((i) => [i.platformId, i.parentPlatformId ?? null, i.kind, i.author])).toEqual([
      ["700", null, "post", "小明"],
      ["901", "701", "reply", "小红"],
      ["955", "901", "reply", "小刚"],
    ]);
    expect(items[0]).toMatchObject({
      title: "二食堂涨价了",
      incomplete: true,
      url: "https://tieba.baidu.com/p/700",
    });
    expect(items[1]).toMatchObject({ textIncomplete: true });
    expect(items[0]!.publishedAt.toISOString()).toBe("2025-06-14T04:30:00.000Z");
    expect(() => parseTiebaSearch("<html><body>百度安全验证</body></html>", "https://tieba.baidu.com/f/search/res", NOW)).toThrow(/not a Tieba search page/);
  });

  it("Discuz!: X3 thread_list rows become t{tid} posts; 'no results' is empty, anything else throws", () => {
    const page = `<div class="slst mtw" id="threadlist"><ul><li class="pbw" id="1188">
<h3 class="xs3"><a href="forum.php?mod=viewthread&amp;tid=1188&amp;highlight=x">求购<strong><font color="#ff0000">二手</font></strong>车</a></h3>
<p class="xg1">3 个回复 - 40 次查看</p><p>摘要内容</p>
<p><span>2025-5-25 14:15</span> - <span><a href="space-uid-3140.html">一枚bottle</a></span> - <span><a href="forum-110-1.html" class="xi1">交易区</a></span></p></li></ul></div>
<div class="pg"><a href="search.php?mod=forum&amp;searchid=5&amp;page=2" class="nxt">下一页</a></div>`;
    const board = {
      base: "https://bbs.x.edu.cn/",
      fid: "",
      dialect: "x" as const,
    };
    const { items, nextUrl } = parseDiscuzSearch(page, "https://bbs.x.edu.cn/search.php?mod=forum&searchid=5", board, NOW);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      platformId: "t1188",
      title: "求购二手车",
      author: "一枚bottle",
      authorId: "3140",
      replyCount: 3,
      html: "摘要内容",
      url: "https://bbs.x.edu.cn/forum.php?mod=viewthread&tid=1188",
    });
    expect(nextUrl).toBe("https://bbs.x.edu.cn/search.php?mod=forum&searchid=5&page=2");
    expect(parseDiscuzSearch(`<p class="emp xs2 xg2">对不起，没有找到匹配结果。</p>`, "https://bbs.x.edu.cn/search.php", board, NOW).items).toEqual([]);
    expect(() => parseDiscuzSearch("<html>error</html>", "https://bbs.x.edu.cn/search.php", board, NOW)).toThrow(/not a Discuz! search result page/);
  });

  it("Weibo: type 9 cards and type 9 inside type 11 card_group, user cards skipped", () => {
    const data = {
      ok: 1,
      data: {
        cards: [
          {
            card_type: 11,
            card_group: [
              { card_type: 10, user: { id: 1 } },
              { card_type: 9, mblog: { id: "1" } },
            ],
          },
          { card_type: 9, mblog: { id: "2" } },
        ],
      },
    };
    expect(searchMblogs(data).map((m) => m["id"])).toEqual(["1", "2"]);
  });
});
