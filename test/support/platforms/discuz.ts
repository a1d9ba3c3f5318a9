/**
 * Local Discuz! X board: forumdisplay and viewthread pages in the stock X3 template markup
 * (notes/platforms.md; no real HTML capture exists), the mobile API JSON in the shape of the
 * real capture (discuz_mobile_api_forumdisplay_s1.json), and GBK boards. Floors can carry 点评
 * (post comments, {@link addDiscuzComment}), rendered as viewthread_node renders them: newest
 * first, the newest `commentnumber` under the floor and a "下一页" link when there are more, the
 * rest on `forum.php?mod=misc&action=commentmore` pages (AJAX answers, as forum_misc.php and
 * comment_more.htm give them).
 */
import type { LocalAccount, LocalPost, PlatformModel } from "./model";
import { discuzDay, discuzFull, discuzRelative, esc } from "./format";
import { json, notFound, type PageSizes, type Rendered } from "./responses";

/** A 点评 under a floor (Discuz! X post comment). */
export interface LocalDiscuzComment {
  author: string;
  text: string;
  at: Date;
}

/** Comments per model, by floor pid (the head floor's pid is the post's `headId`). */
const COMMENTS = new WeakMap<PlatformModel, Map<string, LocalDiscuzComment[]>>();

/**
 * Add a 点评 under floor `pid` of a Discuz! thread (the head floor: `post.headId`). Like posts,
 * a comment dated after the clock is invisible until the clock passes it.
 */
export function addDiscuzComment(model: PlatformModel, pid: string, comment: Partial<LocalDiscuzComment> & { text: string }): LocalDiscuzComment {
  let byPid = COMMENTS.get(model);
  if (!byPid) COMMENTS.set(model, (byPid = new Map<string, LocalDiscuzComment[]>()));
  const c: LocalDiscuzComment = { author: comment.author ?? "路人甲", text: comment.text, at: comment.at ?? model.clock.now() };
  byPid.set(pid, [...(byPid.get(pid) ?? []), c]);
  return c;
}

/** A floor's visible 点评 as Discuz! lists them: newest first (`ORDER BY dateline DESC`; the later added first among equal times). */
function visibleComments(model: PlatformModel, pid: string, now: Date): LocalDiscuzComment[] {
  const all = COMMENTS.get(model)?.get(pid) ?? [];
  return all
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.at <= now)
    .sort((a, b) => b.c.at.getTime() - a.c.at.getTime() || b.i - a.i)
    .map(({ c }) => c);
}

/** One 点评 (`div.pstl`), as viewthread_node and comment_more render it. */
function commentItem(c: LocalDiscuzComment, now: Date): string {
  return `<div class="pstl xs1 cl"><div class="psta vm"><a href="home.php?mod=space&amp;uid=${1000 + c.author.length}" c="1"><img src="uc_server/avatar.php?uid=${1000 + c.author.length}&amp;size=small" /></a>
<a href="home.php?mod=space&amp;uid=${1000 + c.author.length}" class="xi2 xw1">${esc(c.author)}</a></div>
<div class="psti">${esc(c.text)}&nbsp;<span class="xg1">发表于 ${timeCell(c.at, now)}</span></div></div>`;
}

/**
 * The comment block of a floor: `div#comment_{pid}.cm` with the newest `perPage` 点评 and, when
 * the floor has more, the template's "下一页" link to commentmore page 2 (an `ajaxget` in
 * `onclick`, the `href` only `javascript:;`).
 */
function commentBlock(model: PlatformModel, tid: string, pid: string, now: Date, perPage: number): string {
  const all = visibleComments(model, pid, now);
  if (all.length === 0) return `<div id="comment_${pid}" class="cm"></div>`;
  const more =
    all.length > perPage
      ? `<div class="pgs mbm mtn cl"><div class="pg"><a href="javascript:;" class="nxt" onclick="ajaxget('forum.php?mod=misc&action=commentmore&tid=${tid}&pid=${pid}&page=2', 'comment_${pid}')">下一页</a></div></div>`
      : "";
  return `<div id="comment_${pid}" class="cm"><h3 class="psth xs1"><span class="icon_ring vm"></span>点评</h3>
${all
  .slice(0, perPage)
  .map((c) => commentItem(c, now))
  .join("\n")}
${more}</div>`;
}

/**
 * `forum.php?mod=misc&action=commentmore&tid=&pid=&page=`: one page of a floor's 点评 in Discuz!'s
 * AJAX envelope (`<root><![CDATA[…]]></root>`, `application/xml`), with the pager `multi()`
 * prints (links carry `ajaxtarget`; the next one is `a.nxt`). A page past the end has the heading
 * and no items. Without `inajax` Discuz! answers the notice that 点评 are closed.
 */
export function renderDiscuzCommentMore(model: PlatformModel, post: LocalPost | undefined, url: URL, perPage: number): Rendered {
  const now = model.clock.now();
  if (!post || post.platform !== "discuz" || post.publishedAt > now) return notFound("抱歉，指定的主题不存在或已被删除或正在被审核");
  const account = model.account(post.accountKey);
  const charset = account.encoding === "gbk" ? "gbk" : "utf-8";
  const tid = post.id;
  const pid = url.searchParams.get("pid") ?? "";
  if (url.searchParams.get("inajax") !== "1")
    return page(account, "提示信息", `<div id="messagetext" class="alert_info"><p>抱歉，本站点评功能已关闭</p></div>`);
  const current = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
  const all = visibleComments(model, pid, now);
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  const target = ` ajaxtarget="comment_${pid}"`;
  const link = (p: number, text: string, cls = "") =>
    `<a href="forum.php?mod=misc&amp;action=commentmore&amp;tid=${tid}&amp;pid=${pid}&amp;page=${p}"${cls ? ` class="${cls}"` : ""}${target}>${text}</a>`;
  const shownPage = Math.min(current, pages);
  let multi = "";
  if (pages > 1) {
    multi += shownPage > 1 ? link(shownPage - 1, "上一页", "prev") : "";
    for (let p = 1; p <= pages; p++) multi += p === shownPage ? `<strong>${p}</strong>` : link(p, String(p));
    multi += shownPage < pages ? link(shownPage + 1, "下一页", "nxt") : "";
    multi = `<div class="pg">${multi}</div>`;
  }
  const items = all.slice((current - 1) * perPage, current * perPage).map((c) => commentItem(c, now));
  return {
    status: 200,
    contentType: `application/xml; charset=${charset}`,
    charset,
    body: `<?xml version="1.0" encoding="${charset}"?><root><![CDATA[<h3 class="psth xs1"><span class="icon_ring vm"></span>点评</h3>
${items.join("\n")}
<div class="pgs mbm mtn cl">${multi}</div>]]></root>`,
  };
}

function page(account: LocalAccount, title: string, body: string, status = 200): Rendered {
  const charset = account.encoding === "gbk" ? "gbk" : "utf-8";
  return {
    status,
    contentType: `text/html; charset=${charset}`,
    charset,
    body: `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}" />
<title>${esc(title)} - 校园BBS - Powered by Discuz!</title><meta name="generator" content="Discuz! X3.4" /></head><body id="nv_forum" class="pg_forumdisplay">
${body}
</body></html>`,
  };
}

/** Author column: the day, or a relative form with the day in `title` (Discuz!'s dateconvert). */
function dayCell(at: Date, now: Date): string {
  const rel = discuzRelative(at, now);
  return rel ? `<span class="xi1"><span title="${discuzDay(at)}">${rel}</span></span>` : `<span>${discuzDay(at)}</span>`;
}

/** Last-post column and post headers: full date, or a relative form with it in `title`. */
function timeCell(at: Date, now: Date): string {
  const rel = discuzRelative(at, now);
  return rel ? `<span title="${discuzFull(at)}">${rel}</span>` : discuzFull(at);
}

function pager(base: string, current: number, pages: number): string {
  if (pages <= 1) return "";
  const links: string[] = [];
  if (current > 1) links.push(`<a href="${base}&amp;page=${current - 1}" class="prev">&nbsp;&nbsp;</a>`);
  for (let p = 1; p <= pages; p++) links.push(p === current ? `<strong>${p}</strong>` : `<a href="${base}&amp;page=${p}">${p}</a>`);
  links.push(
    `<label><input type="text" name="custompage" class="px" size="2" title="输入页码，按回车快速跳转" value="${current}" /><span title="共 ${pages} 页"> / ${pages} 页</span></label>`,
  );
  if (current < pages) links.push(`<a href="${base}&amp;page=${current + 1}" class="nxt">下一页</a>`);
  return `<div class="pg">${links.join("")}</div>`;
}

function threadRow(model: PlatformModel, post: LocalPost): string {
  const now = model.clock.now();
  const replies = model.visibleReplies(post);
  const last = replies.at(-1);
  const kind = post.pinned ? "stickthread" : "normalthread";
  const link = `forum.php?mod=viewthread&amp;tid=${post.id}&amp;extra=page%3D1`;
  return `<tbody id="${kind}_${post.id}">
<tr>
<td class="icn"><a href="${link}" title="${post.pinned ? "本版置顶主题 - " : "有新回复 - "}新窗口打开" target="_blank"><img src="static/image/common/${post.pinned ? "pin_1" : "folder_common"}.gif" /></a></td>
<th class="${post.pinned ? "lock" : "common"}">
<a href="${link}" onclick="atarget(this)" class="s xst">${esc(post.title)}</a>
</th>
<td class="by">
<cite><a href="home.php?mod=space&amp;uid=${1000 + post.author.length}" c="1">${esc(post.author)}</a></cite>
<em>${dayCell(post.publishedAt, now)}</em>
</td>
<td class="num"><a href="${link}" class="xi2">${replies.length}</a><em>${post.views}</em></td>
<td class="by">
<cite><a href="home.php?mod=space&amp;username=${encodeURIComponent(last?.author ?? post.author)}" c="1">${esc(last?.author ?? post.author)}</a></cite>
<em><a href="forum.php?mod=redirect&amp;tid=${post.id}&amp;goto=lastpost#lastpost">${timeCell(model.lastActivity(post), now)}</a></em>
</td>
</tr>
</tbody>`;
}

/** Threads of a board in display order: pinned first, then by last reply (Discuz!'s default). */
function ordered(model: PlatformModel, account: LocalAccount): { pinned: LocalPost[]; rest: LocalPost[] } {
  const posts = model.visiblePosts(account);
  return {
    pinned: posts.filter((p) => p.pinned),
    rest: posts.filter((p) => !p.pinned).sort((a, b) => model.lastActivity(b).getTime() - model.lastActivity(a).getTime()),
  };
}

/** `forum.php?mod=forumdisplay&fid={fid}&page={n}` (and `forum-{fid}-{n}.html`). */
export function renderDiscuzList(model: PlatformModel, account: LocalAccount, pageNo: number, sizes: PageSizes): Rendered {
  const { pinned, rest } = ordered(model, account);
  const pages = Math.max(1, Math.ceil(rest.length / sizes.discuz));
  const current = Math.min(Math.max(1, pageNo), pages); // Discuz! clamps out-of-range pages
  const rows = rest.slice((current - 1) * sizes.discuz, current * sizes.discuz);
  const sticky = current === 1 ? pinned : [];
  const base = `forum.php?mod=forumdisplay&amp;fid=${account.slug}`;
  return page(
    account,
    account.name,
    `<div id="pt" class="bm cl"><div class="z"><a href="./" class="nvhm" title="首页">校园BBS</a> <em>&rsaquo;</em> <a href="${base}">${esc(account.name)}</a></div></div>
<div class="bm bw0 pgs cl"><span id="fd_page_top">${pager(base, current, pages)}</span></div>
<div id="threadlist" class="tl bm bmw"><div class="bm_c"><form method="post" autocomplete="off" name="moderate" id="moderate" action="forum.php?mod=topicadmin&amp;action=moderate&amp;fid=${account.slug}&amp;infloat=yes&amp;nopost=yes">
<table summary="forum_${account.slug}" cellspacing="0" cellpadding="0" id="threadlisttableid">
${sticky.map((p) => threadRow(model, p)).join("\n")}
<tbody id="separatorline" class="emptb"><tr class="ts"><td>&nbsp;</td><th><a href="javascript:;" class="forumrefresh">版块主题</a></th><td>&nbsp;</td><td>&nbsp;</td><td>&nbsp;</td></tr></tbody>
${rows.map((p) => threadRow(model, p)).join("\n")}
</table></form></div></div>
<div class="bm bw0 pgs cl"><span id="fd_page_bottom">${pager(base, current, pages)}</span></div>`,
  );
}

const FLOOR_NAMES: Record<number, string> = { 1: "楼主", 2: "沙发", 3: "板凳", 4: "地板" };

/** `forum.php?mod=viewthread&tid={tid}&page={n}`: the first post, then replies, oldest first. */
export function renderDiscuzThread(model: PlatformModel, post: LocalPost | undefined, pageNo: number, sizes: PageSizes): Rendered {
  if (!post || post.platform !== "discuz" || post.publishedAt > model.clock.now()) return notFound("抱歉，指定的主题不存在或已被删除或正在被审核");
  const account = model.account(post.accountKey);
  const now = model.clock.now();
  const replies = model.visibleReplies(post);
  const all = [
    { pid: post.headId, author: post.author, html: post.html, at: post.publishedAt, edited: post.editedAt, floor: 1 },
    ...replies.map((r) => ({ pid: r.id, author: r.author, html: r.html, at: r.publishedAt, edited: r.editedAt, floor: r.floor })),
  ];
  const pages = Math.max(1, Math.ceil(all.length / sizes.discuzPosts));
  const current = Math.min(Math.max(1, pageNo), pages);
  const shown = all.slice((current - 1) * sizes.discuzPosts, current * sizes.discuzPosts);
  const base = `forum.php?mod=viewthread&amp;tid=${post.id}&amp;extra=page%3D1`;
  const posts = shown
    .map(
      (p) => `<div id="post_${p.pid}"><table id="pid${p.pid}" class="plhin" summary="pid${p.pid}" cellspacing="0" cellpadding="0">
<tr>
<td class="pls" rowspan="2"><div id="favatar${p.pid}" class="pls favatar"><div class="pi"><div class="authi"><a href="home.php?mod=space&amp;uid=${1000 + p.author.length}" target="_blank" class="xw1">${esc(p.author)}</a></div></div></div></td>
<td class="plc"><div class="pi">
<strong><a href="forum.php?mod=redirect&amp;goto=findpost&amp;ptid=${post.id}&amp;pid=${p.pid}" id="postnum${p.pid}" onclick="setCopy(this.href, '帖子地址复制成功');return false;">${FLOOR_NAMES[p.floor] ? `<em>${FLOOR_NAMES[p.floor]}</em>` : `<em>${p.floor}</em><sup>#</sup>`}</a></strong>
<div class="pti"><div class="authi"><img class="authicn vm" id="authicon${p.pid}" src="static/image/common/online_member.gif" />
<em id="authorposton${p.pid}">发表于 ${timeCell(p.at, now)}</em>
<span class="pipe">|</span><a href="forum.php?mod=viewthread&amp;tid=${post.id}&amp;page=1&amp;authorid=1" rel="nofollow">只看该作者</a></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_${p.pid}">
${p.edited ? `<i class="pstatus"> 本帖最后由 ${esc(p.author)} 于 ${discuzFull(p.edited)} 编辑 </i><br />\n` : ""}${p.html}</td></tr></table></div>
${commentBlock(model, post.id, p.pid, now, sizes.discuzComments)}<div id="post_rate_div_${p.pid}"></div></div></div>
</td></tr></table></div>`,
    )
    .join("\n");
  return page(
    account,
    `${post.title} - ${account.name}`,
    `<div id="pt" class="bm cl"><div class="z"><a href="./" class="nvhm">校园BBS</a> <em>&rsaquo;</em> <a href="forum.php?mod=forumdisplay&amp;fid=${account.slug}">${esc(account.name)}</a></div></div>
<div class="pgs mtm mbm cl">${pager(base, current, pages)}</div>
<div id="postlist" class="pl bm">
<table cellspacing="0" cellpadding="0"><tr><td class="pls ptn pbn"><div class="hm ptn"><span class="xg1">查看:</span> <span class="xi1">${post.views}</span><span class="pipe">|</span><span class="xg1">回复:</span> <span class="xi1">${replies.length}</span></div></td>
<td class="plc ptm pbn vwthd"><h1 class="ts"><span id="thread_subject">${esc(post.title)}</span></h1></td></tr></table>
${posts}
<div id="postlistreply" class="pl"><div id="post_new" class="viewthread_table" style="display: none"></div></div>
</div>
<div class="pgs mtm mbm cl">${pager(base, current, pages)}</div>`,
  );
}

/** `api/mobile/index.php?version=4&module=forumdisplay&fid=&page=`: the mobile API's thread list. */
export function renderDiscuzMobileList(model: PlatformModel, account: LocalAccount | undefined, pageNo: number, sizes: PageSizes): Rendered {
  if (!account) return json({ Version: "4", Charset: "UTF-8", Message: { messageval: "forum_nonexistence", messagestr: "抱歉，指定的版块不存在" } });
  const { pinned, rest } = ordered(model, account);
  const current = Math.max(1, pageNo);
  const rows = [...(current === 1 ? pinned : []), ...rest.slice((current - 1) * sizes.discuz, current * sizes.discuz)];
  return json({
    Version: "4",
    Charset: "UTF-8",
    Variables: {
      cookiepre: "local_",
      auth: null,
      member_uid: "0",
      forum: { fid: account.slug, name: account.name, threads: String(rest.length + pinned.length) },
      forum_threadlist: rows.map((p) => {
        const last = model.lastActivity(p);
        const lastReply = model.visibleReplies(p).at(-1);
        return {
          tid: p.id,
          readperm: "0",
          author: p.author,
          authorid: String(1000 + p.author.length),
          subject: p.title,
          dateline: discuzFull(p.publishedAt),
          lastpost: discuzFull(last),
          lastposter: lastReply?.author ?? p.author,
          views: String(p.views),
          replies: String(model.visibleReplies(p).length),
          displayorder: p.pinned ? "1" : "0",
          digest: "0",
          attachment: "0",
          dbdateline: String(Math.floor(p.publishedAt.getTime() / 1000)),
          dblastpost: String(Math.floor(last.getTime() / 1000)),
        };
      }),
      tpp: String(sizes.discuz),
      page: String(current),
    },
  });
}

/**
 * The top bar of a Discuz! X page (./login.ts adds it when logins are simulated): a member's
 * `div#um` with the username and the logout link, or the visitor's login form `form#lsform`.
 */
export function discuzTopBar(member: string | null): string {
  return member
    ? `<div id="toptb" class="cl"><div id="um"><div class="avt y"><a href="home.php?mod=space&amp;uid=7"><img src="uc_server/avatar.php?uid=7&amp;size=small" /></a></div><p><strong class="vwmy"><a href="home.php?mod=space&amp;uid=7" target="_blank" title="访问我的空间">${esc(member)}</a></strong><span class="pipe">|</span><a href="member.php?mod=logging&amp;action=logout&amp;formhash=0a1b2c3d">退出</a></p></div></div>`
    : `<div id="toptb" class="cl"><form method="post" autocomplete="off" id="lsform" action="member.php?mod=logging&amp;action=login&amp;loginsubmit=yes&amp;infloat=yes&amp;lssubmit=yes"><div class="fastlg cl"><span id="return_ls" style="display:none"></span><input type="text" name="username" id="ls_username" class="px vm" /><input type="password" name="password" id="ls_password" class="px vm" /><button type="submit" class="pn vm"><em>登录</em></button></div></form></div>`;
}

/** What Discuz! shows a visitor instead of a members-only board or thread (showmessage). */
export function renderDiscuzLoginRequired(account: LocalAccount): Rendered {
  return page(
    account,
    "提示信息",
    `${discuzTopBar(null)}
<div id="ct" class="wp cl w"><div class="nfl"><div class="f_c altw"><div id="messagetext" class="alert_error"><p>抱歉，您尚未登录，没有权限访问该版块</p></div>
<div id="messagelogin"></div><script type="text/javascript">ajaxget('member.php?mod=logging&action=login&infloat=yes&frommessage', 'messagelogin');</script></div></div></div>`,
  );
}
