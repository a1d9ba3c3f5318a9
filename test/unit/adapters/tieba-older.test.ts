/**
 * Never silently empty (issue 30 item 5), Tieba side: an older thread page (the pre-2014 `pb`
 * markup: `data-field` with `author.{id, name}` and `content.{id, floor, date}`, the body in
 * `<cc><div id="post_content_{pid}" class="d_post_content j_d_post_content">`, the date in
 * `ul.p_tail` instead of `.tail-info`) is read floor by floor; a thread page whose floors carry
 * nothing the parser knows records a "structure" warning with the URL and what was expected; a
 * list row without a date but with a thread link and an author is kept, not dropped as an ad.
 * The markup is written here after that structure (the keys public Tieba scrapers of the time
 * read), not copied from any page; the list rows follow the real capture's current markup.
 */
import { describe, expect, test } from "vitest";
import { parseTiebaList, parseTiebaThread } from "../../../crawler/adapters";
import { parseListPage } from "../../../crawler/adapters/tieba";
import { STRUCTURE_FIELD, type FieldWarning } from "../../../crawler/types";

const NOW = new Date("2024-05-10T04:00:00Z");
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();
const q = (o: unknown): string => JSON.stringify(o).replace(/"/g, "&quot;");

/** One floor of the older page. */
function oldFloor(o: { pid: number; floor: number; uid: number; name: string; date: string; body: string }): string {
  const field = q({
    author: { id: o.uid, name: o.name, name_u: `${encodeURIComponent(o.name)}&ie=utf-8`, sex: 1, grade_level: 5 },
    content: { id: o.pid, is_anonym: false, floor: o.floor, date: o.date },
  });
  return `<div class="l_post${o.floor === 1 ? " noborder" : ""}" data-field="${field}">
<div class="d_author"><ul class="p_author"><li class="icon"><div class="icon_relative j_user_card"><a class="p_author_face" href="/i/${o.uid}"><img src="http://tb.himg.baidu.com/sys/portraitn/item/${o.uid}"></a></div></li>
<li class="d_name" data-field="${q({ id: o.uid })}"><a class="p_author_name j_user_card" href="/i/${o.uid}" target="_blank">${o.name}</a></li></ul></div>
<div class="d_post_content_main"><div class="p_content"><cc><div id="post_content_${o.pid}" class="d_post_content j_d_post_content">${o.body}</div></cc></div>
<div class="core_reply j_lzl_wrapper"><div class="core_reply_tail clearfix"><ul class="p_tail"><li><span>${o.floor}楼</span></li><li><span>${o.date}</span></li></ul></div></div></div>
</div>`;
}

const OLD_THREAD = `<!DOCTYPE html><html><head><meta charset="gbk"><title>食堂又涨价了_北江大学吧_百度贴吧</title></head><body>
<div class="wrap1"><div class="wrap2"><div id="container" class="l_container clearfix"><div class="left_section"><div class="core">
<div class="core_title_wrap" id="j_core_title_wrap"><div class="core_title"><h1 class="core_title_txt" title="食堂又涨价了">食堂又涨价了</h1></div></div>
<div class="p_postlist" id="j_p_postlist">
${oldFloor({ pid: 30001, floor: 1, uid: 501, name: "小明", date: "2013-05-01 10:00", body: "二食堂的红烧肉又涨价了" })}
${oldFloor({ pid: 30002, floor: 2, uid: 502, name: "小红", date: "2013-05-01 10:05", body: "确实<br>贵了" })}
${oldFloor({ pid: 30005, floor: 3, uid: 503, name: "路人甲", date: "2013-05-02 08:00", body: "去三食堂吧" })}
</div></div></div></div></div></div>
<div class="l_pager pager_theme_2"><span class="tP">1</span></div></body></html>`;

describe("an older Tieba thread page", () => {
  test("every floor is read: ids, floors, names and dates from the older data-field keys", () => {
    const warnings: FieldWarning[] = [];
    const page = parseTiebaThread(OLD_THREAD, "https://tieba.baidu.com/p/2300001", "2300001", NOW, { warn: (w) => warnings.push(w) });
    expect(page.head).toMatchObject({
      platformId: "2300001",
      title: "食堂又涨价了",
      author: "小明",
      authorId: "501",
      floor: 1,
      html: "二食堂的红烧肉又涨价了",
    });
    expect(page.head!.publishedAt.toISOString()).toBe(sh("2013-05-01T10:00:00"));
    expect(page.replies.map((r) => [r.platformId, r.floor, r.author, r.authorId, r.publishedAt.toISOString()])).toEqual([
      ["30002", 2, "小红", "502", sh("2013-05-01T10:05:00")],
      ["30005", 3, "路人甲", "503", sh("2013-05-02T08:00:00")],
    ]);
    expect(warnings).toEqual([]);
  });

  test("a thread page with floors the parser cannot read warns 'structure' with the URL and what was expected", () => {
    // Floors as an even older template drew them: no data-field, no post_content ids.
    const unknown = OLD_THREAD.replace(/ data-field="[^"]*"/g, "").replace(/ id="post_content_\d+"/g, "");
    const warnings: FieldWarning[] = [];
    const url = "https://tieba.baidu.com/p/2300001";
    const page = parseTiebaThread(unknown, url, "2300001", NOW, { warn: (w) => warnings.push(w) });
    expect(page.head).toBeUndefined();
    expect(page.replies).toEqual([]);
    expect(warnings).toEqual([
      {
        url,
        field: STRUCTURE_FIELD,
        raw: "食堂又涨价了_北江大学吧_百度贴吧",
        reason: expect.stringMatching(/^page structure not recognised: expected floors \(div\.l_post\[data-field\]/),
      },
    ]);
  });
});

describe("a list row without a date", () => {
  /** A list page in the current markup (the real capture's structure); `date` empty leaves the row undated. */
  function listRow(o: { tid: number; title: string; author: string | null; date: string; href?: string }): string {
    const field = q({ id: o.tid, author_name: o.author ?? "", first_post_id: o.tid * 10, reply_num: 3, is_good: null, is_top: null });
    return `<li class=" j_thread_list clearfix thread_item_box" data-field="${field}" data-tid="${o.tid}"><div class="t_con cleafix">
<div class="col2_left j_threadlist_li_left"><span class="threadlist_rep_num center_text" title="回复">3</span></div>
<div class="col2_right j_threadlist_li_right"><div class="threadlist_lz clearfix"><div class="threadlist_title pull_left j_th_tit">
<a rel="noopener" href="${o.href ?? `/p/${o.tid}`}" title="${o.title}" target="_blank" class="j_th_tit">${o.title}</a></div>
<div class="threadlist_author pull_right">${
      o.author === null
        ? ""
        : `<span class="tb_icon_author" title="主题作者: ${o.author}"><i class="icon_author"></i><span class="frs-author-name-wrap"><a class="frs-author-name j_user_card" href="/home/main/?un=x">${o.author}</a></span></span>`
    }<span class="pull-right is_show_create_time" title="创建时间">${o.date}</span></div></div></div></div></li>`;
  }
  const page = (rows: string[]): string =>
    `<html><body><code id="pagelet_html_frs-list/pagelet/thread_list"><!--<ul id="thread_list" class="threadlist_bright j_threadlist_bright">${rows.join("\n")}</ul>--></code></body></html>`;

  test("is kept when it has a thread link and an author (date of the row above, warned); an ad block is still dropped", () => {
    const html = page([
      listRow({ tid: 801, title: "考研自习室", author: "小明", date: "5-9" }),
      listRow({ tid: 802, title: "旧版列表的帖子", author: "小红", date: "" }),
      listRow({ tid: 803, title: "推广", author: null, date: "" }),
      listRow({ tid: 804, title: "外链广告", author: "广告主", date: "", href: "https://ad.example.com/x" }),
    ]);
    const url = "https://tieba.baidu.com/f?kw=x&ie=utf-8&pn=0";
    const warnings: FieldWarning[] = [];
    const { items } = parseListPage(html, url, NOW, false, (w) => warnings.push(w));
    expect(items.map((i) => [i.platformId, i.title, i.author])).toEqual([
      ["801", "考研自习室", "小明"],
      ["802", "旧版列表的帖子", "小红"],
    ]);
    expect(items[1]!.publishedAt.toISOString()).toBe(items[0]!.lastActivityAt!.toISOString());
    expect(warnings).toEqual([{ url, field: "date", raw: "", reason: "thread 802: no date in its row; used the date of the row above it" }]);
    // Without a warn callback (the old signature) the same rows are kept.
    expect(parseTiebaList(html, url, NOW).map((i) => i.platformId)).toEqual(["801", "802"]);
  });
});
