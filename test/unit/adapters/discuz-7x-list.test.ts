/**
 * Discuz! 6/7 board lists with multi-page threads (issue 30 item 3): the title is the subject
 * link, never one of the page links ("1 2 3 … 12") the template prints after it. Markup written
 * here after the structure of real 7.2 `forumdisplay.php` pages (a `th` with `label`,
 * `span#thread_{tid}` around the subject link, then `span.threadpages` with `&amp;page=N` links
 * carrying the list's `extra=page%3D…`), and a 6.x-style theme without the `span#thread_`
 * wrapper whose page links use the rewritten `thread-{tid}-{page}-1.html` form.
 */
import { describe, expect, test } from "vitest";
import { parseDiscuzList } from "../../../crawler/adapters";
import type { FieldWarning } from "../../../crawler/types";

const NOW = new Date("2024-05-10T04:00:00Z");
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();
const URL_7 = "http://bbs.example.edu.cn/forumdisplay.php?fid=21&page=1";

/** A 7.2 row; `pages` > 1 adds the `span.threadpages` links the template prints for long threads. */
function row(o: { tid: number; title: string; author: string; uid: number; date: string; replies: number; pages?: number; sticky?: boolean }): string {
  const extra = "extra=page%3D1%26amp%3Bfilter%3D0";
  const link = `viewthread.php?tid=${o.tid}&amp;${extra}`;
  const pageLinks =
    o.pages && o.pages > 1
      ? `<span class="threadpages"> &nbsp; ${Array.from({ length: Math.min(o.pages, 4) }, (_v, i) => `<a href="${link}&amp;page=${i + 1}">${i + 1}</a>`).join(" ")}${
          o.pages > 4 ? ` .. <a href="${link}&amp;page=${o.pages}">${o.pages}</a>` : ""
        } </span>`
      : "";
  return `<tbody id="${o.sticky ? "stickthread" : "normalthread"}_${o.tid}"><tr>
	<td class="folder"><a href="${link}" title="新窗口打开" target="_blank"><img src="images/default/folder_common.gif" /></a></td>
	<td class="icon">&nbsp;</td>
	<th class="${o.sticky ? "hot" : "common"}" >
		<label>${o.sticky ? `<img src="images/default/pin_1.gif" alt="本版置顶" />` : ""} </label>
		<span id="thread_${o.tid}"><a href="${link}">${o.title}</a></span>
		<img src="images/attachicons/common.gif" alt="附件" class="attach" />
		${pageLinks}
	</th>
	<td class="author"><cite><a href="space.php?uid=${o.uid}">${o.author}</a></cite><em>${o.date}</em></td>
	<td class="nums"><strong>${o.replies}</strong> / <em>${o.replies * 20}</em></td>
	<td class="lastpost"><em><a href="redirect.php?tid=${o.tid}&goto=lastpost#lastpost">2024-5-9 21:00</a></em><cite>by <a href="space.php?username=x">某人</a></cite></td>
</tr></tbody>`;
}

const LIST_72 = `<div class="mainbox threadlist"><h1><a href="forumdisplay.php?fid=21">校园生活</a></h1>
<form method="post" name="moderate" id="moderate" action="topicadmin.php?action=moderate&amp;fid=21&amp;infloat=yes&amp;nopost=yes">
<table summary="forum_21" id="forum_21" cellspacing="0" cellpadding="0">
<thead class="category"><tr><td class="folder">&nbsp;</td><td class="icon">&nbsp;</td><th>标题</th><td class="author">作者</td><td class="nums">回复/查看</td><td class="lastpost">最后发表</td></tr></thead>
${row({ tid: 60817, title: "本版版规（必读）", author: "版主", uid: 2, date: "2010-3-1", replies: 75, pages: 8, sticky: true })}
${row({ tid: 51462, title: "宿舍 断网 讨论", author: "小明", uid: 13, date: "2024-5-2", replies: 62, pages: 2 })}
${row({ tid: 51470, title: "二食堂的新菜", author: "小红", uid: 14, date: "2024-5-8", replies: 3 })}
</table></form></div>
<div class="pages_btns"><div class="pages"><em>&nbsp;412&nbsp;</em><strong>1</strong><a href="forumdisplay.php?fid=21&amp;page=2">2</a><a href="forumdisplay.php?fid=21&amp;page=2" class="next">下一页</a></div></div>`;

describe("Discuz! 7.2 board list with multi-page threads", () => {
  const warnings: FieldWarning[] = [];
  const { items, nextUrl } = parseDiscuzList(LIST_72, URL_7, NOW, { warn: (w) => warnings.push(w) });

  test("each row's title is its subject link, not a page number", () => {
    expect(items.map((i) => [i.platformId, i.title, i.author, i.authorId, i.pinned, i.replyCount])).toEqual([
      ["t60817", "本版版规（必读）", "版主", "2", true, 75],
      ["t51462", "宿舍 断网 讨论", "小明", "13", false, 62],
      ["t51470", "二食堂的新菜", "小红", "14", false, 3],
    ]);
    expect(items.map((i) => i.url)).toEqual([
      "http://bbs.example.edu.cn/viewthread.php?tid=60817",
      "http://bbs.example.edu.cn/viewthread.php?tid=51462",
      "http://bbs.example.edu.cn/viewthread.php?tid=51470",
    ]);
    expect(items[1]!.publishedAt.toISOString()).toBe(sh("2024-05-02T00:00:00"));
    expect(warnings).toEqual([]);
    expect(nextUrl).toBe("http://bbs.example.edu.cn/forumdisplay.php?fid=21&page=2");
  });

  test("a theme without span#thread_: the subject link, not the rewritten page links after it", () => {
    const themed = `<table id="forum_21"><tbody id="normalthread_77"><tr>
<th class="subject"><a href="thread-77-1-1.html">社团招新 汇总</a> <span class="threadpages"><a href="thread-77-2-1.html">2</a> <a href="thread-77-3-1.html">3</a></span></th>
<td class="author"><cite><a href="space.php?uid=5">社联</a></cite><em>2024-5-7</em></td><td class="nums"><strong>40</strong> / <em>900</em></td></tr></tbody>
<tbody id="normalthread_78"><tr>
<th class="subject"><a href="viewthread.php?tid=78">图书馆 占座</a> <a href="viewthread.php?tid=78&amp;page=2">2</a></th>
<td class="author"><cite><a href="space.php?uid=6">路人</a></cite><em>2024-5-6</em></td><td class="nums"><strong>12</strong> / <em>90</em></td></tr></tbody></table>`;
    const parsed = parseDiscuzList(themed, URL_7, NOW);
    expect(parsed.items.map((i) => [i.platformId, i.title])).toEqual([
      ["t77", "社团招新 汇总"],
      ["t78", "图书馆 占座"],
    ]);
  });
});
