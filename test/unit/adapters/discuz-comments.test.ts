/**
 * Discuz! X 点评 beyond the ones a floor shows (issue 30 item 2), on markup written here after the
 * stock X3.4 templates (viewthread_node's comment loop and its "下一页" `ajaxget` link,
 * forum_misc.php's commentmore with comment_more.htm and `multi()`'s pager, in the AJAX envelope
 * of header_ajax/footer_ajax) and after a theme that prints the name inside `.psti`. Not copied
 * from any page.
 */
import { describe, expect, test } from "vitest";
import { parseDiscuzCommentMore, parseDiscuzThread } from "../../../crawler/adapters/discuz/pages";
import { NonRetryableError } from "../../../crawler/errors";
import type { FieldWarning } from "../../../crawler/types";

const NOW = new Date("2024-05-10T04:00:00Z"); // 2024-05-10 12:00 Shanghai
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();
const BASE = "http://bbs.example.edu.cn/bbs/";
const PAGE = `${BASE}forum.php?mod=viewthread&tid=77&page=1`;

/** One 点评 as viewthread_node and comment_more print it. */
function item(o: { author: string; uid: number; text: string; date: string }): string {
  return `<div class="pstl xs1 cl">
<div class="psta vm"><a href="home.php?mod=space&amp;uid=${o.uid}" c="1"><img src="uc_server/avatar.php?uid=${o.uid}&amp;size=small" /></a>
<a href="home.php?mod=space&amp;uid=${o.uid}" class="xi2 xw1">${o.author}</a>
</div>
<div class="psti">
${o.text}&nbsp;
<span class="xg1">
发表于 ${o.date}
</span>
</div>
</div>`;
}

/** A floor; `comments` is the inner HTML of its `div#comment_{pid}.cm`. */
function floor(pid: number, num: string, comments: string): string {
  return `<div id="post_${pid}"><table id="pid${pid}" class="plhin"><tr>
<td class="pls"><div class="pi"><div class="authi"><a href="home.php?mod=space&amp;uid=${pid}" class="xw1">楼层${pid}</a></div></div></td>
<td class="plc"><div class="pi"><strong><a href="#" id="postnum${pid}">${num}</a></strong>
<div class="pti"><div class="authi"><em id="authorposton${pid}">发表于 2024-5-9 18:${String(pid % 60).padStart(2, "0")}</em></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz"><table><tr><td class="t_f" id="postmessage_${pid}">正文${pid}</td></tr></table></div></div></div>
<div class="pcb"><div id="comment_${pid}" class="cm">${comments}</div><div id="post_rate_div_${pid}"></div></div>
</td></tr></table></div>`;
}

const HEADING = `<h3 class="psth xs1"><span class="icon_ring vm"></span>点评</h3>`;
/** The stock template's link to page 2 (the href is only `javascript:;`). */
const nextLink = (pid: number) =>
  `<div class="pgs mbm mtn cl"><div class="pg"><a href="javascript:;" class="nxt" onclick="ajaxget('forum.php?mod=misc&action=commentmore&tid=77&pid=${pid}&page=2', 'comment_${pid}')">下一页</a></div></div>`;

const five = [9, 8, 7, 6, 5].map((m) => item({ author: `点评人${m % 2}`, uid: 20 + (m % 2), text: `第${m}条`, date: `2024-5-10 10:0${m}` })).join("\n");

const THREAD = `<html><head><title>停水 - 生活 - BBS</title></head><body>
<div id="postlist" class="pl bm"><h1 class="ts"><span id="thread_subject">停水</span></h1>
${floor(500, "<em>楼主</em>", `${HEADING}\n${five}\n${nextLink(500)}`)}
${floor(501, "<em>沙发</em>", `${HEADING}\n${item({ author: "小红", uid: 12, text: "就两条", date: "2024-5-10 09:00" })}`)}
${floor(
  502,
  "<em>板凳</em>",
  `${HEADING}\n${item({ author: "小刚", uid: 13, text: "主题皮肤的链接", date: "2024-5-10 09:30" })}
<p class="xg1"><a href="forum.php?mod=misc&amp;action=commentmore&amp;tid=77&amp;pid=502" onclick="ajaxget(this.href, 'comment_502');return false;">查看全部点评</a></p>`,
)}
</div></body></html>`;

/** A commentmore answer: the AJAX envelope around the heading, the items and multi()'s pager. */
function more(items: string, pager: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<root><![CDATA[${HEADING}
${items}
<div class="pgs mbm mtn cl">${pager}</div>]]></root>`;
}
const link = (p: number, text: string, cls = "") =>
  `<a href="forum.php?mod=misc&amp;action=commentmore&amp;tid=77&amp;pid=500&amp;page=${p}"${cls ? ` class="${cls}"` : ""} ajaxtarget="comment_500">${text}</a>`;
const pager = (current: number, pages: number) =>
  `<div class="pg">${current > 1 ? link(current - 1, "上一页", "prev") : ""}${Array.from({ length: pages }, (_v, i) => (i + 1 === current ? `<strong>${i + 1}</strong>` : link(i + 1, String(i + 1)))).join("")}${current < pages ? link(current + 1, "下一页", "nxt") : ""}</div>`;

describe("a thread page says which floors have more 点评", () => {
  const page = parseDiscuzThread(THREAD, PAGE, "77", 1, NOW);
  const floor500 = page.commentFloors.find((f) => f.pid === "500")!;

  test("the stock '下一页' and a theme's '查看全部点评' both lead to page 2; a floor shown whole does not", () => {
    expect(page.commentFloors.map((f) => [f.pid, f.parentPlatformId, f.nextPage])).toEqual([
      ["500", "t77", 2],
      ["502", "p502", 2],
    ]);
    expect(floor500).toMatchObject({ tid: "77", url: `${BASE}forum.php?mod=redirect&goto=findpost&ptid=77&pid=500` });
    expect(floor500.floorDate.toISOString()).toBe(sh("2024-05-09T18:20:00"));
  });

  test("the shown 点评 are replies to their floor, and the floor remembers them to number the next pages", () => {
    const shown = page.replies.filter((r) => r.parentPlatformId === "t77" && r.platformId.startsWith("c"));
    expect(shown.map((r) => r.html)).toEqual(["第9条", "第8条", "第7条", "第6条", "第5条"]);
    expect(Object.values(floor500.seen).flat()).toEqual(["第9条", "第8条", "第7条", "第6条", "第5条"]);
    expect(Object.keys(floor500.seen)).toEqual(shown.map((r) => r.platformId));
  });

  test("page 2: the next five, each once, with name, uid and date; the pager's nxt names page 3", () => {
    const warnings: FieldWarning[] = [];
    const body = more(
      [4, 3, 2, 1, 0].map((m) => item({ author: `点评人${m % 2}`, uid: 20 + (m % 2), text: `第${m}条`, date: `2024-5-10 10:0${m}` })).join("\n"),
      pager(2, 3),
    );
    const url = `${BASE}forum.php?mod=misc&action=commentmore&tid=77&pid=500&page=2&inajax=1`;
    const got = parseDiscuzCommentMore(body, url, floor500, 2, NOW, { warn: (w) => warnings.push(w) });
    expect(got.comments.map((c) => [c.html, c.author, c.authorId, c.parentPlatformId, c.kind])).toEqual(
      [4, 3, 2, 1, 0].map((m) => [`第${m}条`, `点评人${m % 2}`, String(20 + (m % 2)), "t77", "reply"]),
    );
    expect(got.comments[0]!.publishedAt.toISOString()).toBe(sh("2024-05-10T10:04:00"));
    expect(got.comments[0]!.source).toEqual({ url, body });
    expect(got.comments[0]!.url).toBe(floor500.url);
    expect([got.nextPage, got.rows, warnings]).toEqual([3, 5, []]);
    // The last page has no nxt.
    const last = parseDiscuzCommentMore(
      more(item({ author: "最早", uid: 30, text: "沙发", date: "2024-5-10 09:58" }), pager(3, 3)),
      url,
      { ...floor500, seen: got.seen },
      3,
      NOW,
    );
    expect([last.comments.map((c) => c.html), last.nextPage]).toEqual([["沙发"], null]);
  });

  test("a comment a new one pushed down from page 1 is not returned again; same key, other text counts on", () => {
    // 第5条 was the last on page 1; a new comment moved it to the top of page 2.
    const [key5] = Object.entries(floor500.seen).find(([, texts]) => texts.includes("第5条"))!;
    const body = more(
      [
        item({ author: "点评人1", uid: 21, text: "第5条", date: "2024-5-10 10:05" }),
        item({ author: "点评人1", uid: 21, text: "同一分钟的另一条", date: "2024-5-10 10:05" }),
      ].join("\n"),
      pager(2, 2),
    );
    const got = parseDiscuzCommentMore(body, `${BASE}x`, floor500, 2, NOW);
    expect(got.comments.map((c) => [c.platformId, c.html])).toEqual([[`${key5}-2`, "同一分钟的另一条"]]);
    expect(got.rows).toBe(2);
    expect(got.nextPage).toBeNull();
    // The floor's own record is not changed: the caller carries `seen` on.
    expect(floor500.seen[key5]).toEqual(["第5条"]);
    expect(got.seen[key5]).toEqual(["第5条", "同一分钟的另一条"]);
  });

  test("a theme that prints the name first in .psti: the name is read, the text is only the comment", () => {
    const themed = `<?xml version="1.0" encoding="utf-8"?><root><![CDATA[<h3 class="psth cm">点评</h3>
<div class="pstl"><div class="psta"><img src="a.jpg"></div>
<div class="psti"><a href="home.php?mod=space&amp;uid=579" class="xi2 xw1">孤狼</a>&nbsp;主题里的点评&nbsp;<a href="forum.php?mod=redirect&amp;goto=findpost&amp;pid=9&amp;ptid=77" class="xi2">详情</a>
<span class="xg1">发表于 <span title="2024-5-9 20:00">昨天&nbsp;20:00</span></span></div></div>]]></root>`;
    const got = parseDiscuzCommentMore(themed, `${BASE}x`, floor500, 2, NOW);
    expect(got.comments.map((c) => [c.author, c.authorId, c.html, c.publishedAt.toISOString()])).toEqual([
      ["孤狼", "579", "主题里的点评", sh("2024-05-09T20:00:00")],
    ]);
  });

  test("a page past the end is empty; an answer that is not a 点评 page throws with what it says", () => {
    expect(parseDiscuzCommentMore(more("", ""), `${BASE}x`, floor500, 9, NOW)).toMatchObject({ comments: [], rows: 0, nextPage: null });
    const notice = `<?xml version="1.0" encoding="utf-8"?><root><![CDATA[<div class="alert_info"><p>抱歉，本站点评功能已关闭</p></div>]]></root>`;
    expect(() => parseDiscuzCommentMore(notice, `${BASE}x`, floor500, 2, NOW)).toThrow(NonRetryableError);
    expect(() => parseDiscuzCommentMore(notice, `${BASE}x`, floor500, 2, NOW)).toThrow(/not a Discuz! 点评 page .*抱歉，本站点评功能已关闭/);
  });

  test("an unreadable 点评 date takes the floor's, with a warning naming the commentmore URL", () => {
    const warnings: FieldWarning[] = [];
    const url = `${BASE}forum.php?mod=misc&action=commentmore&tid=77&pid=500&page=2&inajax=1`;
    const got = parseDiscuzCommentMore(more(item({ author: "小明", uid: 11, text: "几时来水", date: "不久前" }), pager(2, 2)), url, floor500, 2, NOW, {
      warn: (w) => warnings.push(w),
    });
    expect(got.comments[0]!.publishedAt.toISOString()).toBe(floor500.floorDate.toISOString());
    expect(warnings).toEqual([{ url, field: "date", raw: "发表于 不久前", reason: "comment on t77: used the floor's date" }]);
  });
});
