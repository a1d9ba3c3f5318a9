/**
 * Discuz! pages as the field shows them: an X3.5 custom theme (site-name <h1>, hidden date
 * labels, a banned author's floor, 点评 under floors), a Discuz! 7.2 board, and floors whose
 * fields cannot be read. Markup written here after the stock X3/7.2 templates (their
 * `viewthread_node` and `forumdisplay_list` structure), not copied from any page.
 */
import { describe, expect, test } from "vitest";
import { discuzBoardFromUrl, discuzThreadFromUrl, parseDiscuzList, parseDiscuzThread, recognisePlatform } from "../../../crawler/adapters";
import type { FieldWarning } from "../../../crawler/types";
import { platformProblem } from "../../../server/accounts";

const NOW = new Date("2024-05-10T04:00:00Z"); // 2024-05-10 12:00 Shanghai
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

/** One X3 floor, the way viewthread_node renders it; `date` is the inner HTML of em#authorposton. */
function floor(pid: number, o: { author?: string; uid?: number; date: string; body?: string | null; num: string; comments?: string }): string {
  const name = o.author === undefined ? "" : `<a href="home.php?mod=space&amp;uid=${o.uid ?? 1}" target="_blank" class="xw1">${o.author}</a>`;
  const message =
    o.body === null
      ? `<div class="locked">提示: <em>作者被禁止或删除 内容自动屏蔽</em></div>`
      : `<table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_${pid}">\n${o.body ?? "正文"}\n</td></tr></table>`;
  return `<div id="post_${pid}"><table id="pid${pid}" class="plhin" summary="pid${pid}"><tr>
<td class="pls" rowspan="2"><div id="favatar${pid}" class="pls favatar"><div class="pi"><div class="authi">${name}</div></div></div></td>
<td class="plc"><div class="pi"><strong><a href="forum.php?mod=redirect&amp;goto=findpost&amp;ptid=77&amp;pid=${pid}" id="postnum${pid}">${o.num}</a></strong>
<div class="pti"><div class="authi"><img class="authicn vm" src="static/image/common/online_member.gif" /><em id="authorposton${pid}">${o.date}</em><span class="pipe">|</span><a href="#">只看该作者</a></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz">${message}</div>
<div id="comment_${pid}" class="cm">${o.comments ?? ""}</div><div id="post_rate_div_${pid}"></div></div></div>
</td></tr></table></div>`;
}

/** One 点评 item (viewthread_node's comment loop). */
function comment(o: { author?: string; uid?: number; text: string; date: string }): string {
  const who = o.author === undefined ? "游客" : `<a href="home.php?mod=space&amp;uid=${o.uid}" class="xi2 xw1">${o.author}</a>`;
  return `<div class="pstl xs1 cl"><div class="psta vm"><a href="home.php?mod=space&amp;uid=${o.uid ?? 0}" c="1"><img src="uc_server/avatar.php?uid=${o.uid ?? 0}&amp;size=small" /></a>
${who}</div><div class="psti">${o.text}&nbsp;<span class="xg1">发表于 ${o.date}</span></div></div>`;
}

const THEMED = `<html><head><title>食堂 涨价 - 校园生活 - 北江大学BBS - Powered by Discuz!</title>
<meta property="og:title" content="食堂涨价（og）" /></head><body>
<div id="hd"><div class="wp"><div class="hdc cl"><h1 class="logo"><a href="./">北江大学BBS</a></h1></div></div></div>
<div id="ct" class="wp cl"><div id="postlist" class="pl bm">
<table><tr><td class="plc ptm pbn vwthd"><h1 class="ts"><span id="thread_subject">食堂
   又涨价了</span></h1></td></tr></table>
${floor(500, { author: "  小 明\n", uid: 11, date: `发表于 <span title="2024-5-9 18:21:33">17&nbsp;小时前</span>`, num: "<em>楼主</em>", body: "二食堂的红烧肉涨到十二块了", comments: `<h3 class="psth xs1"><span class="icon_ring vm"></span>点评</h3>${comment({ author: "小红", uid: 12, text: "确实贵", date: `<span title="2024-5-9 20:00">昨天&nbsp;20:00</span>` })}` })}
${floor(501, { author: "小红", uid: 12, date: `<em class="xg1" style="display:none">时间：</em>2024-5-9 21:55:22`, num: "<em>沙发</em>" })}
${floor(502, { author: "小刚", uid: 13, date: "--", num: "<em>板凳</em>" })}
${floor(503, { author: "被封的人", uid: 14, date: "发表于 2024-5-10 08:00", num: "<em>地板</em>", body: null })}
${floor(504, {
  date: "发表于 2024-5-10 09:30",
  num: "<em>5</em><sup>#</sup>",
  body: "匿名回复",
  comments: `<h3 class="psth xs1">点评</h3><div class="pstl">共 3 条点评</div>
${comment({ author: "小红", uid: 12, text: "同意", date: "2024-5-10 10:00" })}
${comment({ author: "小红", uid: 12, text: "再说一遍", date: "2024-5-10 10:00" })}
${comment({ text: "路过", date: `<span title="2024-5-10 11:15">45&nbsp;分钟前</span>` })}`,
})}
</div></div>
<div class="pgs mtm mbm cl"><div class="pg"><strong>1</strong><a href="forum.php?mod=viewthread&amp;tid=77&amp;page=2">2</a><label><span title="共 2 页"> / 2 页</span></label></div></div>
</body></html>`;

const PAGE = "http://bbs.example.edu.cn/bbs/forum.php?mod=viewthread&tid=77&page=1";
const LIST_VIEW = { title: "列表里的标题", author: "小明", publishedAt: new Date(sh("2024-05-09T00:00:00")) };

describe("an X3.5 custom theme: floors read field by field", () => {
  const warnings: FieldWarning[] = [];
  const page = parseDiscuzThread(THEMED, PAGE, "77", 1, NOW, { warn: (w) => warnings.push(w), thread: LIST_VIEW });

  test("the title is the thread's own, whitespace-collapsed, never the site's <h1>", () => {
    expect(page.head).toMatchObject({ platformId: "t77", title: "食堂 又涨价了", author: "小 明", authorId: "11", floor: 1 });
    expect(page.head!.publishedAt.toISOString()).toBe(sh("2024-05-09T18:21:33"));
  });

  test("a date behind a hidden label parses; an unreadable one takes the previous floor's date and warns", () => {
    const byId = new Map(page.replies.map((r) => [r.platformId, r]));
    expect(byId.get("p501")!.publishedAt.toISOString()).toBe(sh("2024-05-09T21:55:22"));
    expect(byId.get("p502")!.publishedAt.toISOString()).toBe(sh("2024-05-09T21:55:22"));
    expect(warnings).toContainEqual({ url: PAGE, field: "date", raw: "--", reason: "floor 502: used the previous floor's date" });
  });

  test("a banned author's floor keeps the notice and warns; a nameless floor warns and is kept", () => {
    const locked = page.replies.find((r) => r.platformId === "p503")!;
    expect(locked).toMatchObject({ author: "被封的人", floor: 4 });
    expect(locked.html).toContain("作者被禁止或删除");
    expect(warnings.some((w) => w.field === "body" && w.raw.includes("作者被禁止或删除"))).toBe(true);
    const nameless = page.replies.find((r) => r.platformId === "p504")!;
    expect(nameless).toMatchObject({ author: "", floor: 5, html: "匿名回复" });
    expect(warnings.some((w) => w.field === "author" && w.reason.startsWith("floor 504"))).toBe(true);
    expect(warnings).toHaveLength(3);
  });

  test("点评 are replies to their floor (the head's to the thread), stored after it, with stable ids", () => {
    const ids = page.replies.map((r) => r.platformId);
    const comments = page.replies.filter((r) => r.platformId.startsWith("c"));
    expect(comments.map((c) => [c.parentPlatformId, c.author, c.authorId, c.html])).toEqual([
      ["t77", "小红", "12", "确实贵"],
      ["p504", "小红", "12", "同意"],
      ["p504", "小红", "12", "再说一遍"],
      ["p504", "游客", undefined, "路过"],
    ]);
    expect(comments.map((c) => c.publishedAt.toISOString())).toEqual([
      sh("2024-05-09T20:00:00"),
      sh("2024-05-10T10:00:00"),
      sh("2024-05-10T10:00:00"),
      sh("2024-05-10T11:15:00"),
    ]);
    // Two comments by one user in one minute get distinct ids; the same page gives the same ids.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.indexOf(comments[1]!.platformId)).toBeGreaterThan(ids.indexOf("p504"));
    expect(parseDiscuzThread(THEMED, PAGE, "77", 1, NOW).replies.map((r) => r.platformId)).toEqual(ids);
    expect(comments.every((c) => c.kind === "reply" && c.url.endsWith("pid=" + c.platformId.slice(1).split("-")[0]))).toBe(true);
  });

  test("without #thread_subject: og:title, then the list's title — never the <h1> site name", () => {
    const noSubject = THEMED.replace(/<span id="thread_subject">[\s\S]*?<\/span>/, "");
    expect(parseDiscuzThread(noSubject, PAGE, "77", 1, NOW).head!.title).toBe("食堂涨价（og）");
    const bare = noSubject.replace(/<meta property="og:title"[^>]*>/, "");
    expect(parseDiscuzThread(bare, PAGE, "77", 1, NOW, { thread: LIST_VIEW }).head!.title).toBe("列表里的标题");
    expect(parseDiscuzThread(bare, PAGE, "77", 1, NOW).head!.title).toBe("食堂 涨价");
  });

  test("an unreadable head date takes the list's date", () => {
    const warnings2: FieldWarning[] = [];
    const html = THEMED.replace(`发表于 <span title="2024-5-9 18:21:33">17&nbsp;小时前</span>`, "未知");
    const head = parseDiscuzThread(html, PAGE, "77", 1, NOW, { warn: (w) => warnings2.push(w), thread: LIST_VIEW }).head!;
    expect(head.publishedAt.toISOString()).toBe(LIST_VIEW.publishedAt.toISOString());
    expect(warnings2[0]).toMatchObject({ field: "date", raw: "未知", reason: "floor 500: used the list's date" });
  });
});

describe("Discuz! 7.2 pages", () => {
  const list = `<div id="threadlist" class="threadlist datalist"><form method="post" name="moderate" id="moderate" action="topicadmin.php?action=moderate&amp;fid=12">
<table summary="forum_12" id="forum_12" cellspacing="0" cellpadding="0" class="datatable">
<tbody id="stickthread_90"><tr><td class="folder"><img src="images/default/folder_common.gif" /></td>
<th class="subject common"><label>置顶</label><span id="thread_90"><a href="viewthread.php?tid=90&amp;extra=page%3D1">版规  必读</a></span></th>
<td class="author"><cite><a href="space.php?uid=1">管理员</a></cite><em>2010-3-1</em></td>
<td class="nums"><strong>2</strong>/<em>500</em></td>
<td class="lastpost"><cite><a href="space.php?username=x">某人</a></cite><em><a href="redirect.php?tid=90&amp;goto=lastpost#lastpost">2024-5-8 10:01</a></em></td></tr></tbody>
<tbody id="normalthread_91"><tr><td class="folder"></td>
<th class="subject new"><span id="thread_91"><a href="thread-91-1-1.html">宿舍 停电</a></span></th>
<td class="author"><cite><a href="space-uid-7.html">小刚</a></cite><em>日期不明</em></td>
<td class="nums"><strong>0</strong>/<em>3</em></td>
<td class="lastpost"><cite>小刚</cite><em><a href="redirect.php?tid=91&amp;goto=lastpost#lastpost">2024-5-9 22:10</a></em></td></tr></tbody>
</table></form></div>
<div class="pages"><strong>1</strong><a href="forumdisplay.php?fid=12&amp;page=2">2</a><a href="forumdisplay.php?fid=12&amp;page=2" class="next">下一页</a></div>`;

  test("list: 7.x columns, links in 7.x form, an unreadable date falls back to the last reply and warns", () => {
    const warnings: FieldWarning[] = [];
    const url = "http://old.example.edu.cn/bbs/forumdisplay.php?fid=12&page=1";
    const { items, nextUrl } = parseDiscuzList(list, url, NOW, { warn: (w) => warnings.push(w) });
    expect(items.map((i) => [i.platformId, i.title, i.author, i.authorId, i.pinned, i.replyCount, i.url])).toEqual([
      ["t90", "版规 必读", "管理员", "1", true, 2, "http://old.example.edu.cn/bbs/viewthread.php?tid=90"],
      ["t91", "宿舍 停电", "小刚", "7", false, 0, "http://old.example.edu.cn/bbs/viewthread.php?tid=91"],
    ]);
    expect(items[0]!.publishedAt.toISOString()).toBe(sh("2010-03-01T00:00:00"));
    expect(items[0]!.lastActivityAt!.toISOString()).toBe(sh("2024-05-08T10:01:00"));
    expect(items[1]!.publishedAt.toISOString()).toBe(sh("2024-05-09T22:10:00"));
    expect(warnings).toEqual([{ url, field: "date", raw: "日期不明", reason: "thread 91: used the row's last-reply date" }]);
    expect(nextUrl).toBe("http://old.example.edu.cn/bbs/forumdisplay.php?fid=12&page=2");
  });

  test("thread: #threadtitle h1, postauthor names, div.t_msgfont bodies, N# floors", () => {
    const thread = `<div id="threadtitle"><h1>宿舍 停电</h1></div><div id="postlist" class="mainbox viewthread">
<div id="post_900"><table id="pid900" summary="pid900"><tr><td class="postauthor" rowspan="2"><div class="postinfo"><a target="_blank" href="space.php?uid=7">小刚</a></div></td>
<td class="postcontent"><div class="postinfo"><strong><a title="复制本帖链接" id="postnum900" href="#">1<sup>#</sup></a></strong><div class="posterinfo"><div class="authorinfo"><em id="authorposton900">发表于 2024-5-9 22:00</em></div></div></div>
<div class="defaultpost"><div class="postmessage firstpost"><div class="t_msgfontfix"><table><tr><td class="t_msgfont" id="postmessage_900">三号楼又停电了</td></tr></table></div></div></div></td></tr></table></div>
<div id="post_901"><table id="pid901" summary="pid901"><tr><td class="postauthor" rowspan="2"><div class="postinfo"><a target="_blank" href="space.php?uid=8">小红</a></div></td>
<td class="postcontent"><div class="postinfo"><strong><a title="复制本帖链接" id="postnum901" href="#">2<sup>#</sup></a></strong><div class="posterinfo"><div class="authorinfo"><em id="authorposton901">发表于 2024-5-9 22:10</em></div></div></div>
<div class="defaultpost"><div class="postmessage"><div class="t_msgfontfix"><table><tr><td class="t_msgfont" id="postmessage_901">我们也是</td></tr></table></div></div></div></td></tr></table></div>
</div><div class="pages"><strong>1</strong></div>`;
    const page = parseDiscuzThread(thread, "http://old.example.edu.cn/bbs/viewthread.php?tid=91&page=1", "91", 1, NOW);
    expect(page.head).toMatchObject({
      platformId: "t91",
      title: "宿舍 停电",
      author: "小刚",
      authorId: "7",
      html: "三号楼又停电了",
      url: "http://old.example.edu.cn/bbs/viewthread.php?tid=91",
    });
    expect(page.replies).toHaveLength(1);
    expect(page.replies[0]).toMatchObject({
      platformId: "p901",
      author: "小红",
      floor: 2,
      url: "http://old.example.edu.cn/bbs/redirect.php?goto=findpost&ptid=91&pid=901",
    });
    expect(page.replies[0]!.publishedAt.toISOString()).toBe(sh("2024-05-09T22:10:00"));
    expect(page.pageCount).toBe(1);
  });
});

describe("URL forms", () => {
  test.each([
    ["https://bbs.example.edu.cn/forumdisplay.php?fid=12", "discuz"],
    ["https://bbs.example.edu.cn/forum-12-3.html", "discuz"],
    ["https://bbs.example.edu.cn/archiver/?fid-12.html", "discuz"],
    ["https://bbs.example.edu.cn/viewthread.php?tid=5", "discuz"],
    ["https://bbs.example.edu.cn/thread-5-2-1.html", "discuz"],
    ["https://bbs.example.edu.cn/forum.php?mod=viewthread&tid=5", "discuz"],
    ["https://bbs.example.edu.cn/archiver/?tid-5.html", "discuz"],
    ["https://bbs.example.edu.cn/forum.php?mod=guide", "blog"],
  ])("%s is %s", (url, platform) => {
    expect(recognisePlatform(url)).toBe(platform);
  });

  test("thread URLs in every form name their thread", () => {
    for (const url of [
      "https://b.cn/bbs/viewthread.php?tid=5&page=2",
      "https://b.cn/bbs/thread-5-2-1.html",
      "https://b.cn/bbs/forum.php?mod=viewthread&tid=5",
      "https://b.cn/bbs/archiver/?tid-5.html",
    ]) {
      expect(discuzThreadFromUrl(new URL(url))).toMatchObject({ base: "https://b.cn/bbs/", tid: "5" });
    }
    expect(discuzBoardFromUrl(new URL("https://b.cn/bbs/archiver/?tid-5.html"))).toBeNull();
  });

  test("a thread URL is refused as an entry with every board form listed; board forms are accepted", () => {
    const problem = platformProblem("https://bbs.example.edu.cn/thread-5-1-1.html", undefined);
    expect(problem).toMatch(/^unknown URL shape for a Discuz! board: expected something like /);
    for (const form of ["forum.php?mod=forumdisplay&fid=2", "forum-2-1.html", "forumdisplay.php?fid=2", "archiver/?fid-2.html"])
      expect(problem).toContain(form);
    for (const ok of ["https://bbs.example.edu.cn/forumdisplay.php?fid=2", "https://bbs.example.edu.cn/archiver/?fid-2.html"])
      expect(platformProblem(ok, undefined)).toBeNull();
  });

  test("every platform's message lists its forms", () => {
    expect(platformProblem("https://weibo.com/hot", undefined)).toMatch(/weibo\.com\/u\/1234567890, .*m\.weibo\.cn\/p\/1005051234567890/);
    expect(platformProblem("https://tieba.baidu.com/p/123", undefined)).toMatch(/f\?kw=北江大学, .*mo\/q\/m\?kw=北江大学/);
  });
});

describe("issue 30 item 7: a theme's 作者： label is not part of the name", () => {
  // A forumdisplay row of a theme that prints the label inside the author cell, with and without
  // the profile link (written after the X3 forumdisplay_list row, labels as themes add them).
  const row = (tid: number, cite: string) => `<tbody id="normalthread_${tid}"><tr>
<th class="common"><a href="forum.php?mod=viewthread&amp;tid=${tid}" class="s xst">帖子${tid}</a></th>
<td class="by"><cite>${cite}</cite><em><span>2024-5-9 10:00</span></em></td>
<td class="num"><a href="#" class="xi2">1</a><em>9</em></td>
<td class="by"><cite><a href="#">路人</a></cite><em><a href="#">2024-5-9 11:00</a></em></td></tr></tbody>`;
  const list = `<html><body><div id="threadlist"><table id="threadlisttableid">
${row(501, `作者：<a href="home.php?mod=space&amp;uid=5">张三</a>`)}
${row(502, `作者： 李四`)}
${row(503, `<a href="space-uid-7.html">楼主:王五</a>`)}
${row(504, `<a href="space-uid-8.html">写作者：赵六</a>`)}
</table></div></body></html>`;

  test("list rows: the name alone, with or without a link; a name that merely contains 作者 is kept", () => {
    const { items } = parseDiscuzList(list, "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", NOW);
    expect(items.map((i) => [i.platformId, i.author, i.authorId])).toEqual([
      ["t501", "张三", "5"],
      ["t502", "李四", undefined],
      ["t503", "王五", "7"],
      ["t504", "写作者：赵六", "8"],
    ]);
  });

  test("thread floors and 点评: the label before the name is dropped", () => {
    const labelled = (pid: number, name: string, num: string, comments = "") =>
      floor(pid, { date: "发表于 2024-5-9 10:00", num, comments }).replace('<div class="authi"></div>', `<div class="authi">${name}</div>`);
    const html = `<html><body><span id="thread_subject">标题</span><div id="postlist">
${labelled(91, `作者：<a href="home.php?mod=space&amp;uid=5">张三</a>`, "楼主")}
${labelled(92, "作者： 李四", "2#", comment({ author: "作者：王五", uid: 7, text: "同意", date: "2024-5-9 12:00" }))}
</div></body></html>`;
    const page = parseDiscuzThread(html, "https://bbs.example.edu.cn/forum.php?mod=viewthread&tid=77", "77", 1, NOW);
    expect(page.head?.author).toBe("张三");
    expect(page.replies.map((r) => r.author)).toEqual(["李四", "王五"]);
  });
});
