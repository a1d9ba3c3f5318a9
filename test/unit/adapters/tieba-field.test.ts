/**
 * Tieba fields as the page shows them (names, ids, titles) on the real captures, and one bad
 * field on a written floor: warned, stored with the best value, the page goes on.
 */
import { describe, expect, test } from "vitest";
import { parseTiebaList, parseTiebaThread } from "../../../crawler/adapters";
import { EMOJI_MARK, shownName } from "../../../crawler/adapters/tieba/names";
import type { FieldWarning } from "../../../crawler/types";
import { readReal, realAvailable } from "./helpers";

const NOW = new Date("2024-08-07T04:00:00Z");
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe.skipIf(!realAvailable)("names as the real pages print them", () => {
  test("list rows: the printed name, completed from the row's JSON when cut or drawn; the portrait as id", () => {
    const items = parseTiebaList(readReal("tieba_forum_list_frs.html"), "https://tieba.baidu.com/f?kw=x", NOW);
    const byId = new Map(items.map((i) => [i.platformId, i]));
    expect(byId.get("9079949995")).toMatchObject({ author: "公子伯仲", authorId: "tb.1.9115cccc.su4IfywmJ43rT4i5q38OeQ" });
    // "张海楼" + a nickname-emoji image; the JSON nickname is 张海楼🍀 (login 海楼ot).
    expect(byId.get("6710984997")).toMatchObject({ author: "张海楼🍀", authorId: "tb.1.439adf71.LJfJEp0YesoW1B1OGqBxYQ" });
    // The list cuts long names: "白茗咸鱼..." is 白茗咸鱼一条◆, "贴吧用户_..." is 贴吧用户_79AAM8A (empty login).
    expect(byId.get("9116131787")?.author).toBe("白茗咸鱼一条◆");
    expect(byId.get("9121416885")).toMatchObject({ author: "贴吧用户_79AAM8A", authorId: "tb.1.4cedaa8e.LRBI1QXp3DeJJjzUgL0KcQ" });
    // Issue 30 item 7: emoji drawn anywhere in the name, not only at its end, are kept as the reader sees them.
    expect(byId.get("9112665546")?.author).toBe("✨5x70✨");
    expect(byId.get("9005330391")?.author).toBe("😈盖塔😇");
    expect(byId.get("9081875540")?.author).toBe("😈盖塔😇");
    // A printed name that is none of the JSON ones is still what the reader saw.
    expect(byId.get("9121294238")?.author).toBe("君身三重雪_");
    expect(items.every((i) => i.author === i.author.replace(/\s+/g, " ").trim() && i.author.length > 0)).toBe(true);
    expect(items.every((i) => /^tb\.1\.[0-9a-f]+\.[\w-]+$/.test(i.authorId ?? ""))).toBe(true);
  });

  test("thread floors and their inline 楼中楼: printed names, portraits without the ?t= stamp", () => {
    const page = parseTiebaThread(readReal("tieba_thread_detail_pb.html"), "https://tieba.baidu.com/p/9117905169", "9117905169", NOW);
    const floors = [page.head!, ...page.replies];
    expect(floors.find((f) => f.floor === 4)).toMatchObject({ author: "我只是个薯条🌸", authorId: "tb.1.4c698014.LURMudV1qobUOJrpLor3Fw" });
    expect(floors.find((f) => f.floor === 37)).toMatchObject({ author: "贴吧用户_JR5CRAD", authorId: "tb.1.c5912c6a.uP2yV0JF6CPsRTTrLjoiyQ" });
    expect(floors.every((f) => f.author.length > 0 && !f.authorId?.includes("?"))).toBe(true);
    expect(page.forumId).toBe("27927174");
    expect(page.commentCounts.get("150719088158")).toBe(123);
    // The page renders ten 楼中楼 itself, all under floor 2 (post 150719088158).
    expect(page.inlineComments).toHaveLength(10);
    expect(page.inlineComments[0]).toMatchObject({
      platformId: "150721163086",
      parentPlatformId: "150719088158",
      kind: "reply",
      author: "铭寒◆",
      authorId: "tb.1.50fbb2e5.GDjkCVIqNasbD1qp4d5oQg",
    });
    expect(page.inlineComments[0]!.publishedAt.toISOString()).toBe(sh("2024-08-05T23:48:00"));
    expect(page.inlineComments[0]!.html).toBe("号废了重练一个而已，只是她妈后来才明白这一点");
    expect(page.inlineComments[3]).toMatchObject({ author: "快拉黑尔父", authorId: "tb.1.c42e64ac.OhZlpd4_OUeFpAX3DydSHg" });
  });
});

describe("shownName", () => {
  test("prefers the printed name; completes a cut or pictured one from the known names", () => {
    expect(shownName("  张  三 ", false, ["x"])).toBe("张 三");
    expect(shownName("", false, [null, " ", "登录名"])).toBe("登录名");
    expect(shownName("白茗咸鱼...", false, ["别人", "白茗咸鱼一条◆"])).toBe("白茗咸鱼一条◆");
    expect(shownName("张海楼", true, ["张海楼🍀", "海楼ot"])).toBe("张海楼🍀");
    expect(shownName("张海楼", true, ["别的"])).toBe("张海楼");
  });

  test("issue 30 item 7: a nickname emoji anywhere in the printed name (marked) is matched in place", () => {
    const m = EMOJI_MARK;
    expect(shownName(`${m}5x70${m}`, false, ["闻提晓", "✨5x70✨"])).toBe("✨5x70✨");
    expect(shownName(`长白${m}初暖`, false, ["长白ლ初暖"])).toBe("长白ლ初暖");
    // A ZWJ sequence is one emoji drawn as one image.
    expect(shownName(`${m}阿强`, false, ["👨‍👩‍👧阿强"])).toBe("👨‍👩‍👧阿强");
    // The mark says where the emoji is: a name with text after the printed end does not match.
    expect(shownName(`盖塔${m}`, false, ["盖塔😇们", "x"])).toBe("盖塔");
    // Cut after an emoji: a prefix match.
    expect(shownName(`入${m}夜微...`, false, ["入-夜微凉ლ"])).toBe("入-夜微凉ლ");
    // Regular-expression characters in a name are only characters.
    expect(shownName(`a.b${m}`, false, ["axb😀", "a.b😀"])).toBe("a.b😀");
  });
});

describe("issue 30 item 7: one author, one name on list and thread pages", () => {
  // Written after the real markup: the name "<img>5x70<img>" on a list row (tooltip and JSON
  // nickname carry the emoji) and on the thread's first floor (show_nickname carries them).
  const img = `<img src="//tb1.bdstatic.com/tb/cms/nickemoji/3-27.png" class="nicknameEmoji" style="width:13px;height:13px"/>`;
  const list = `<html><body><code class="pagelet_html" id="pagelet_html_frs-list/pagelet/thread_list"><!--
<ul id="thread_list"><li class=" j_thread_list clearfix thread_item_box" data-field='{"id":777,"author_name":"\u95fb\u63d0\u6653","author_nickname":"\u27285x70\u2728","author_portrait":"tb.1.3ad0ec8d.HJT3","first_post_id":1,"reply_num":1}'>
<div class="threadlist_title"><a href="/p/777" title="标题" class="j_th_tit ">标题</a></div>
<span class="tb_icon_author " title="主题作者: ✨5x70✨"><span class="frs-author-name-wrap"><a class="frs-author-name j_user_card " href="#">${img}5x70${img}</a></span></span>
<span class="pull-right is_show_create_time">8-5</span><div class="threadlist_abs">摘要</div></li></ul>--></code></body></html>`;
  const thread = `<html><body><h3 class="core_title_txt" title="标题">标题</h3>
<div class="l_post j_l_post" data-field='{"author":{"user_id":233672503,"user_name":"\u95fb\u63d0\u6653","show_nickname":"\u27285x70\u2728","portrait":"tb.1.3ad0ec8d.HJT3?t=1"},"content":{"post_id":1,"post_no":1,"comment_num":0}}'>
<div class="d_author"><a class="p_author_name j_user_card" href="#">${img}5x70${img}</a></div>
<div id="post_content_1" class="d_post_content">正文</div><span class="tail-info">1楼</span><span class="tail-info">2024-08-05 10:00</span></div></body></html>`;

  test("the list row and the thread's floor give the same name, with its emoji", () => {
    const [row] = parseTiebaList(list, "https://tieba.baidu.com/f?kw=x", NOW);
    const page = parseTiebaThread(thread, "https://tieba.baidu.com/p/777", "777", NOW);
    expect(row?.author).toBe("✨5x70✨");
    expect(page.head?.author).toBe("✨5x70✨");
    expect(row?.authorId).toBe(page.head?.authorId);
  });
});

/** A thread page written after the real markup: floor 1, a floor with noise, floor 3. */
function writtenThread(floor2: { tail?: string; name?: string; field?: string; body?: boolean }): string {
  const f = (pid: number, no: number, name: string, date: string, extra = "", body = true) => `
<div class="l_post l_post_bright j_l_post clearfix" data-field="${floor2.field && no === 2 ? floor2.field : `{&quot;author&quot;:{&quot;user_id&quot;:${pid},&quot;user_name&quot;:&quot;login${no}&quot;,&quot;portrait&quot;:&quot;tb.1.aa.bb${no}?t=1&quot;,&quot;user_nickname&quot;:null},&quot;content&quot;:{&quot;post_id&quot;:${pid},&quot;forum_id&quot;:42,&quot;post_no&quot;:${no},&quot;comment_num&quot;:0${extra}}}`}">
<div class="d_author"><ul class="p_author"><li class="d_name"><a class="p_author_name j_user_card" href="#">${name}</a></li></ul></div>
<div class="d_post_content_main">${body ? `<div id="post_content_${pid}" class="d_post_content j_d_post_content">第${no}楼的内容</div>` : ""}
<div class="core_reply_tail"><span class="tail-info">${no}楼</span><span class="tail-info">${date}</span></div></div></div>`;
  return `<html><head><title>标题_某吧_百度贴吧</title></head><body><h3 class="core_title_txt" title="  宿舍  空调   什么时候装 ">宿舍 空调</h3>
${f(101, 1, "楼主", "2025-06-01 10:00")}
${f(102, 2, floor2.name ?? "二楼", floor2.tail ?? "2025-06-01 11:00", ",&quot;content&quot;:&quot;JSON里的内容&quot;", floor2.body ?? true)}
${f(103, 3, "三楼", "2025-06-01 12:30")}
<input max-page="1"></body></html>`;
}

describe("one bad field on a floor", () => {
  const parse = (html: string) => {
    const warnings: FieldWarning[] = [];
    const page = parseTiebaThread(html, "https://tieba.baidu.com/p/555", "555", new Date("2025-06-15T04:00:00Z"), {
      warn: (w) => warnings.push(w),
      fallbackDate: new Date("2025-05-31T16:00:00Z"),
      fallbackAuthor: "列表上的楼主",
    });
    return { page, warnings };
  };

  test("a clean page: title collapsed, no warnings", () => {
    const { page, warnings } = parse(writtenThread({}));
    expect(page.head).toMatchObject({ title: "宿舍 空调 什么时候装", author: "楼主", authorId: "tb.1.aa.bb1" });
    expect(page.replies.map((r) => r.platformId)).toEqual(["102", "103"]);
    expect(warnings).toEqual([]);
  });

  test("an unreadable date keeps the floor with the previous floor's date and warns with the raw text", () => {
    const { page, warnings } = parse(writtenThread({ tail: "某天下午" }));
    expect(page.replies.map((r) => r.platformId)).toEqual(["102", "103"]);
    expect(page.replies[0]!.publishedAt.toISOString()).toBe(sh("2025-06-01T10:00:00"));
    expect(page.replies[1]!.publishedAt.toISOString()).toBe(sh("2025-06-01T12:30:00"));
    expect(warnings).toEqual([
      { url: "https://tieba.baidu.com/p/555 (floor 2, post 102)", field: "date", raw: "某天下午", reason: "the previous floor's date" },
    ]);
  });

  test("dates wrapped in labels and noise still parse", () => {
    const { page, warnings } = parse(writtenThread({ tail: "发表于 2025-6-1 11:05" }));
    expect(page.replies[0]!.publishedAt.toISOString()).toBe(sh("2025-06-01T11:05:00"));
    expect(warnings).toEqual([]);
  });

  test("a floor with no name anywhere warns; its body falls back to the floor's JSON copy", () => {
    const field = "{&quot;author&quot;:{},&quot;content&quot;:{&quot;post_id&quot;:102,&quot;post_no&quot;:2,&quot;content&quot;:&quot;JSON里的内容&quot;}}";
    const { page, warnings } = parse(writtenThread({ name: "", field, body: false }));
    expect(page.replies[0]).toMatchObject({ platformId: "102", author: "", html: "JSON里的内容" });
    expect(page.replies[0]!.authorId).toBeUndefined();
    expect(warnings.map((w) => [w.field, w.reason])).toEqual([
      ["author", "no name"],
      ["body", "the floor's JSON copy"],
    ]);
    expect(page.replies[1]).toMatchObject({ platformId: "103", author: "三楼" });
  });
});
