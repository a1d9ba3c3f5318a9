import { describe, expect, test } from "vitest";
import { discuzBoardFromUrl, parseDiscuzList, parseDiscuzThread } from "../../../crawler/adapters";
import { NonRetryableError } from "../../../crawler/errors";

const NOW = new Date("2019-03-04T04:00:00Z"); // 12:00 Shanghai
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe("Discuz! HTML markup", () => {
  // Discuz! X3 markup as described in notes/platforms.md (no real capture of it exists).
  const list = `<div id="threadlist"><table id="threadlisttableid">
    <tbody id="stickthread_7"><tr><th><a href="forum.php?mod=viewthread&amp;tid=7" class="s xst">版规</a></th>
      <td class="by"><cite><a href="home.php?uid=1">管理员</a></cite><em><span>2015-9-1</span></em></td>
      <td class="num"><a class="xi2">3</a><em>900</em></td>
      <td class="by"><cite><a>某人</a></cite><em><a href="#"><span title="2019-3-2 08:15">前天&nbsp;08:15</span></a></em></td></tr></tbody>
    <tbody id="separatorline"><tr><td>版块主题</td></tr></tbody>
    <tbody id="normalthread_42"><tr><th><a href="forum.php?mod=viewthread&amp;tid=42" class="s xst">食堂又涨价了</a></th>
      <td class="by"><cite><a>小明</a></cite><em><span class="xi1"><span title="2019-3-1">3 天前</span></span></em></td>
      <td class="num"><a class="xi2">12</a><em>345</em></td>
      <td class="by"><cite><a>小红</a></cite><em><a href="#"><span title="2019-3-4 11:30">半小时前</span></a></em></td></tr></tbody>
    <tbody id="normalthread_41"><tr><th><a href="forum.php?mod=viewthread&amp;tid=41" class="s xst">期末考试安排</a></th>
      <td class="by"><cite><a>小刚</a></cite><em><span>2019-2-20</span></em></td>
      <td class="num"><a class="xi2">0</a><em>10</em></td>
      <td class="by"><cite><a>小刚</a></cite><em><a href="#">2019-2-20 09:01</a></em></td></tr></tbody>
  </table></div><div class="pg"><strong>1</strong><a href="forum.php?mod=forumdisplay&amp;fid=2&amp;page=2">2</a><a href="forum.php?mod=forumdisplay&amp;fid=2&amp;page=2" class="nxt">下一页</a></div>`;

  test("rows: pinned stickthread, full dates from title attributes, last reply, counts, next page", () => {
    const { items, nextUrl } = parseDiscuzList(list, "http://bbs.example.edu.cn/bbs/forum.php?mod=forumdisplay&fid=2&page=1", NOW);
    expect(items.map((i) => [i.platformId, i.title, i.author, i.pinned, i.replyCount])).toEqual([
      ["t7", "版规", "管理员", true, 3],
      ["t42", "食堂又涨价了", "小明", false, 12],
      ["t41", "期末考试安排", "小刚", false, 0],
    ]);
    expect(items[1]!.publishedAt.toISOString()).toBe(sh("2019-03-01T00:00:00"));
    expect(items[1]!.lastActivityAt?.toISOString()).toBe(sh("2019-03-04T11:30:00"));
    expect(items[0]!.lastActivityAt?.toISOString()).toBe(sh("2019-03-02T08:15:00"));
    expect(items[2]!.lastActivityAt?.toISOString()).toBe(sh("2019-02-20T09:01:00"));
    expect(items[1]!.url).toBe("http://bbs.example.edu.cn/bbs/forum.php?mod=viewthread&tid=42");
    expect(nextUrl).toBe("http://bbs.example.edu.cn/bbs/forum.php?mod=forumdisplay&fid=2&page=2");
  });

  test("a page without the thread table throws", () => {
    expect(() => parseDiscuzList("<html><body>请登录</body></html>", "http://x/forum.php", NOW)).toThrow(NonRetryableError);
  });

  const thread = `<div id="postlist"><h1><span id="thread_subject">食堂又涨价了</span></h1>
    <div id="post_100"><table><tr><td class="pls"><div class="authi"><a class="xw1" href="#">小明</a></div></td>
      <td class="plc"><strong><a id="postnum100"><em>楼主</em></a></strong><div class="authi"><em id="authorposton100">发表于 2019-3-1 10:00</em></div>
      <table><tr><td class="t_f" id="postmessage_100">二食堂的红烧肉涨到十二块了<img src="data/attachment/a.jpg"></td></tr></table></td></tr></table></div>
    <div id="post_101"><table><tr><td class="pls"><div class="authi"><a class="xw1">小红</a></div></td>
      <td class="plc"><strong><a id="postnum101"><em>沙发</em></a></strong><div class="authi"><em id="authorposton101">发表于 <span title="2019-3-4 11:30">半小时前</span></em></div>
      <table><tr><td class="t_f" id="postmessage_101">一食堂还好</td></tr></table></td></tr></table></div>
    <div id="postlistreply"></div></div>
    <div class="pg"><strong>1</strong><a href="?page=2">2</a><a href="?page=3">3</a><label><span title="共 3 页"> / 3 页</span></label><a class="nxt">下一页</a></div>`;

  test("thread: first post of page 1 is the head t{tid}, others are replies p{pid}", () => {
    const page = parseDiscuzThread(thread, "http://bbs.example.edu.cn/bbs/forum.php?mod=viewthread&tid=42&page=1", "42", 1, NOW);
    expect(page.head).toMatchObject({ platformId: "t42", kind: "post", title: "食堂又涨价了", author: "小明", floor: 1 });
    expect(page.head!.publishedAt.toISOString()).toBe(sh("2019-03-01T10:00:00"));
    expect(page.head!.images).toEqual(["http://bbs.example.edu.cn/bbs/data/attachment/a.jpg"]);
    expect(page.replies).toHaveLength(1);
    expect(page.replies[0]).toMatchObject({ platformId: "p101", parentPlatformId: "t42", kind: "reply", author: "小红", floor: 2 });
    expect(page.replies[0]!.publishedAt.toISOString()).toBe(sh("2019-03-04T11:30:00"));
    expect(page.pageCount).toBe(3);
    // On a later page the first post is an ordinary reply.
    expect(parseDiscuzThread(thread, "http://x/forum.php?mod=viewthread&tid=42&page=2", "42", 2, NOW).replies).toHaveLength(2);
  });

  test.each([
    ["http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", { base: "http://bbs.example.edu.cn/", fid: "2", dialect: "x" }],
    ["https://bbs.saraba1st.com/2b/forum-6-1.html", { base: "https://bbs.saraba1st.com/2b/", fid: "6", dialect: "x" }],
    ["http://127.0.0.1:4000/bbs/forum.php?fid=9&mod=forumdisplay&page=3", { base: "http://127.0.0.1:4000/bbs/", fid: "9", dialect: "x" }],
    ["http://bbs.example.edu.cn/bbs/forumdisplay.php?fid=12&page=2", { base: "http://bbs.example.edu.cn/bbs/", fid: "12", dialect: "7" }],
    ["http://bbs.example.edu.cn/archiver/?fid-5.html", { base: "http://bbs.example.edu.cn/", fid: "5", dialect: "x", dialectGuessed: true }],
    ["http://bbs.example.edu.cn/bbs/archiver/fid-5-page-2.html", { base: "http://bbs.example.edu.cn/bbs/", fid: "5", dialect: "x", dialectGuessed: true }],
    ["http://bbs.example.edu.cn/forum.php?mod=viewthread&tid=2", null],
    ["http://bbs.example.edu.cn/viewthread.php?tid=2", null],
    ["http://bbs.example.edu.cn/thread-2-1-1.html", null],
  ])("board of %s", (url, expected) => {
    expect(discuzBoardFromUrl(new URL(url))).toEqual(expected);
  });
});
