/**
 * Telling a logged-in answer from a logged-out one, per platform: the markers on pages written
 * here after the real markup (Discuz! X member bar / login form / showmessage notice, Tieba's
 * viewer in the page data, Weibo's api/config), the real Tieba captures when present, and the
 * adapters refusing logged-out pages only for accounts with login cookies.
 */
import { describe, expect, it } from "vitest";
import { LoginExpiredError, NonRetryableError } from "../../../crawler/errors";
import { discuzAdapter } from "../../../crawler/adapters/discuz";
import { discuzLoginState } from "../../../crawler/adapters/discuz/login";
import { tiebaAdapter } from "../../../crawler/adapters/tieba";
import { tiebaLoginState } from "../../../crawler/adapters/tieba/login";
import { weiboAdapter } from "../../../crawler/adapters/weibo";
import { collect, readReal, realAvailable, stubContext, stubFetcher } from "./helpers";

const NOW = new Date("2026-11-30T04:00:00Z");

const DISCUZ_MEMBER_BAR = `<div id="toptb" class="cl"><div id="um"><p><strong class="vwmy"><a href="home.php?mod=space&amp;uid=7">会员七号</a></strong><span class="pipe">|</span><a href="member.php?mod=logging&amp;action=logout&amp;formhash=1f2e3d4c">退出</a></p></div></div>`;
const DISCUZ_LOGIN_FORM = `<div id="toptb" class="cl"><form method="post" autocomplete="off" id="lsform" action="member.php?mod=logging&amp;action=login&amp;loginsubmit=yes&amp;infloat=yes&amp;lssubmit=yes"><input type="text" name="username" id="ls_username" /></form></div>`;
const discuzPage = (top: string, body: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8" /><title>水区 - 校园BBS - Powered by Discuz!</title></head><body id="nv_forum">${top}${body}</body></html>`;
/** One thread row whose title contains a login notice's words. */
const DISCUZ_LIST = `<div id="threadlist"><table id="threadlisttableid"><tbody id="normalthread_12"><tr><th class="common"><a href="forum.php?mod=viewthread&amp;tid=12" class="s xst">选课系统为什么需要登录两次</a></th>
<td class="by"><cite><a href="home.php?mod=space&amp;uid=3">小林</a></cite><em><span>2026-11-29 20:15</span></em></td><td class="num"><a class="xi2">0</a><em>5</em></td>
<td class="by"><cite><a>小林</a></cite><em><a>2026-11-29 20:15</a></em></td></tr></tbody></table></div>`;
const DISCUZ_NOTICE = `<div id="ct" class="wp cl w"><div class="nfl"><div class="f_c altw"><div id="messagetext" class="alert_error"><p>抱歉，您尚未登录，没有权限访问该版块</p></div><div id="messagelogin"></div></div></div></div>`;
const DISCUZ_TO_LOGIN = `<div id="messagetext" class="alert_info"><p>您需要先登录才能继续本操作</p></div>`;

describe("Discuz! login state", () => {
  it("reads the member bar, the login form and the notices", () => {
    expect(discuzLoginState(discuzPage(DISCUZ_MEMBER_BAR, DISCUZ_LIST))).toEqual({ state: "in" });
    expect(discuzLoginState(discuzPage(DISCUZ_LOGIN_FORM, DISCUZ_LIST))).toEqual({ state: "out", notice: null });
    expect(discuzLoginState(discuzPage(DISCUZ_LOGIN_FORM, DISCUZ_NOTICE))).toEqual({ state: "out", notice: "抱歉，您尚未登录，没有权限访问该版块" });
    expect(discuzLoginState(discuzPage("", DISCUZ_TO_LOGIN))).toEqual({ state: "out", notice: "您需要先登录才能继续本操作" });
    // Discuz! 7.x prints logging.php links.
    expect(discuzLoginState(discuzPage(`<a href="logging.php?action=logout&amp;formhash=ab">退出</a>`, DISCUZ_LIST))).toEqual({ state: "in" });
    // A theme without either: nothing to say.
    expect(discuzLoginState(discuzPage("", DISCUZ_LIST))).toEqual({ state: "unknown" });
  });

  it("is not fooled by a thread title that speaks of logging in", () => {
    expect(discuzLoginState(discuzPage("", DISCUZ_LIST))).toEqual({ state: "unknown" });
    expect(discuzLoginState(discuzPage(DISCUZ_MEMBER_BAR, DISCUZ_LIST))).toEqual({ state: "in" });
  });

  const entry = "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2";
  const page1 = "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2&page=1";

  it("an account with cookies refuses a logged-out list, even of a public board", async () => {
    const ctx = stubContext("discuz", entry, stubFetcher({ [page1]: discuzPage(DISCUZ_LOGIN_FORM, DISCUZ_LIST) }), NOW);
    ctx.account.hasLoginCookies = true;
    const err = await collect(discuzAdapter.list(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoginExpiredError);
    expect(err).toMatchObject({ name: "LoginExpired", url: page1 });
    // Logged in: read as usual.
    const member = stubContext("discuz", entry, stubFetcher({ [page1]: discuzPage(DISCUZ_MEMBER_BAR, DISCUZ_LIST) }), NOW);
    member.account.hasLoginCookies = true;
    expect((await collect(discuzAdapter.list(member))).flatMap((p) => p.items.map((i) => i.title))).toEqual(["选课系统为什么需要登录两次"]);
  });

  it("an anonymous account reads a public board as a visitor, and is told when a board is for members", async () => {
    const visitor = stubContext("discuz", entry, stubFetcher({ [page1]: discuzPage(DISCUZ_LOGIN_FORM, DISCUZ_LIST) }), NOW);
    expect((await collect(discuzAdapter.list(visitor))).flatMap((p) => p.items)).toHaveLength(1);
    const refused = stubContext("discuz", entry, stubFetcher({ [page1]: discuzPage(DISCUZ_LOGIN_FORM, DISCUZ_NOTICE) }), NOW);
    const err = await collect(discuzAdapter.list(refused)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toMatch(/members only/);
  });
});

/** Tieba's viewer, written after the list page's data and the thread page's `PageData.user`. */
const tiebaList = (loggedIn: boolean) =>
  `<html><head><script>var PageData = {"forum":{"is_private_forum":0},"user":{"is_login":${loggedIn},"user_id":${loggedIn ? 7007 : 0},"user_name":"${loggedIn ? "\\u4f1a\\u5458" : ""}"}};</script></head><body>
<code id="pagelet_html_frs-list/pagelet/thread_list" style="display:none;"><!--<ul id="thread_list"><li class="j_thread_list clearfix" data-field='{"id":901,"author_name":"小林","reply_num":0}'>
<a href="/p/901" title="图书馆几点关门" class="j_th_tit">图书馆几点关门</a><span class="is_show_create_time">11-29</span><span class="threadlist_reply_date">11-29</span><div class="threadlist_abs">图书馆几点关门</div></li></ul>--></code></body></html>`;

describe("Tieba login state", () => {
  it("reads the viewer's is_login, not someone else's", () => {
    expect(tiebaLoginState(tiebaList(true))).toBe("in");
    expect(tiebaLoginState(tiebaList(false))).toBe("out");
    expect(
      tiebaLoginState(`<script>PageData.user = {        "id": "7007",        "name": "会员",        "is_login": 1,        "portrait": "tb.1.abc"};</script>`),
    ).toBe("in");
    expect(tiebaLoginState(`<script>PageData.user = {        "id": "",        "is_login": 0};</script>`)).toBe("out");
    // A visit card about another user says nothing about the viewer.
    expect(tiebaLoginState(`<script>_.Module.use('ihome/widget/UserVisitCard',{'uname':'某人','is_login':0,'tbs':''});</script>`)).toBe("unknown");
    expect(tiebaLoginState(`<li class="u_username" id="j_u_username"><a>会员</a></li>`)).toBe("in");
  });

  it.skipIf(!realAvailable)("on the real captures: the bar list was saved logged out, the thread logged in", () => {
    expect(tiebaLoginState(readReal("tieba_forum_list_frs.html"))).toBe("out");
    expect(tiebaLoginState(readReal("tieba_thread_detail_pb.html"))).toBe("in");
  });

  it("only an account with cookies refuses a logged-out list", async () => {
    const entry = "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6";
    const url = "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8&pn=0";
    const visitor = stubContext("tieba", entry, stubFetcher({ [url]: tiebaList(false) }), NOW);
    expect((await collect(tiebaAdapter.list(visitor))).flatMap((p) => p.items)).toHaveLength(1);
    const member = stubContext("tieba", entry, stubFetcher({ [url]: tiebaList(false) }), NOW);
    member.account.hasLoginCookies = true;
    await expect(collect(tiebaAdapter.list(member))).rejects.toMatchObject({ name: "LoginExpired", url });
    const fine = stubContext("tieba", entry, stubFetcher({ [url]: tiebaList(true) }), NOW);
    fine.account.hasLoginCookies = true;
    expect((await collect(tiebaAdapter.list(fine))).flatMap((p) => p.items)).toHaveLength(1);
  });
});

describe("Weibo login state", () => {
  const entry = "https://weibo.com/u/1669879400";
  const config = "https://m.weibo.cn/api/config";
  const lookup = "https://m.weibo.cn/api/container/getIndex?type=uid&value=1669879400";
  const timeline = `${lookup}&containerid=1076031669879400`;
  const emptyTimeline = JSON.stringify({ ok: 1, data: { cards: [], cardlistInfo: {} } });

  it("asks api/config only for an account with cookies, and stops at login: false", async () => {
    const visitorFetch = stubFetcher({ [lookup]: "{}", [timeline]: emptyTimeline });
    await collect(weiboAdapter.list(stubContext("weibo", entry, visitorFetch, NOW)));
    expect(visitorFetch.requests.map((r) => r.url)).not.toContain(config);

    const expired = stubFetcher({ [config]: JSON.stringify({ ok: 1, data: { login: false, st: "", uid: "" } }), [lookup]: "{}", [timeline]: emptyTimeline });
    const ctx = stubContext("weibo", entry, expired, NOW);
    ctx.account.hasLoginCookies = true;
    await expect(collect(weiboAdapter.list(ctx))).rejects.toMatchObject({ name: "LoginExpired", url: config });
    // Nothing after the config request: the timeline is not read as a visitor.
    expect(expired.requests.map((r) => r.url)).toEqual([config]);

    const member = stubFetcher({
      [config]: JSON.stringify({ ok: 1, data: { login: true, st: "a1b2", uid: "7007" } }),
      [lookup]: "{}",
      [timeline]: emptyTimeline,
    });
    const ok = stubContext("weibo", entry, member, NOW);
    ok.account.hasLoginCookies = true;
    await collect(weiboAdapter.list(ok));
    expect(member.requests.map((r) => r.url)).toEqual([config, lookup, timeline]);
  });
});
