/**
 * Local tieba.baidu.com: list pages with the thread list inside an HTML comment in the
 * `thread_list` pagelet and thread pages with `l_post` floors, both modelled on the real
 * captures (tieba_forum_list_frs.html, tieba_thread_detail_pb.html). As on Tieba, users print a
 * nickname while their login and portrait id differ, and floors carry their 楼中楼 (./tieba-lzl).
 */
import type { LocalAccount, LocalPost, LocalReply, PlatformModel } from "./model";
import { isGarbled, LZL_INLINE, lzlItem, lzlPager, tiebaForumId, tiebaLogin, tiebaPortrait, tiebaUserId, visibleLzl } from "./tieba-lzl";
import { asciiJson, esc, tiebaFloorDate, tiebaListDate } from "./format";
import { html, notFound, type PageSizes, type Rendered } from "./responses";

/** Baidu's block page, which answers fast clients with HTTP 200. */
export const BAIDU_CAPTCHA_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>百度安全验证</title></head><body><div class="timeout"><div class="timeout-img"></div><div class="timeout-title">网络不给力，请稍后重试</div><a class="timeout-button" href="javascript:location.reload()">返回首页</a></div><div id="wappass-captcha">请完成下方验证后继续操作</div></body></html>`;

const textOf = (h: string): string => h.replace(/<[^>]+>/g, "");

/** A thread's last activity as Tieba's list shows it: a 楼中楼 bumps the thread like a floor does. */
export function tiebaLastActivity(model: PlatformModel, post: LocalPost): Date {
  let last = model.lastActivity(post);
  for (const pid of [post.headId, ...model.visibleReplies(post).map((r) => r.id)]) {
    const newest = visibleLzl(model, pid).at(-1);
    if (newest && newest.publishedAt > last) last = newest.publishedAt;
  }
  return last;
}

function threadRow(model: PlatformModel, post: LocalPost): string {
  const now = model.clock.now();
  const replies = model.visibleReplies(post);
  const last = replies.at(-1);
  const field = asciiJson({
    id: Number(post.id),
    author_name: tiebaLogin(post.author),
    author_nickname: post.author,
    author_portrait: tiebaPortrait(post.author),
    first_post_id: Number(post.headId),
    reply_num: replies.length,
    is_bakan: null,
    vid: "",
    is_good: null,
    is_top: post.pinned ? 1 : null,
    is_protal: null,
    is_membertop: null,
    is_multi_forum: null,
    frs_tpoint: null,
  });
  const abstract = textOf(post.html).slice(0, 60);
  return `<li class=" j_thread_list clearfix thread_item_box${post.pinned ? " thread_top j_thread_list_top" : ""}" data-field='${esc(field)}'  data-tid='${post.id}' data-thread-type="0">
        <div class="t_con cleafix">
                <div class="col2_left j_threadlist_li_left"><span class="threadlist_rep_num center_text" title="回复">${replies.length}</span></div>
                <div class="col2_right j_threadlist_li_right ">
            <div class="threadlist_lz clearfix">
                <div class="threadlist_title pull_left j_th_tit ">${post.pinned ? '<i class="icon-top" alt="置顶" title="置顶"></i>' : ""}
    <a rel="noopener" href="/p/${post.id}" title="${esc(post.title)}" target="_blank" class="j_th_tit ">${esc(post.title)}</a>
</div><div class="threadlist_author pull_right">
    <span class="tb_icon_author " title="主题作者: ${esc(post.author)}"><i class="icon_author"></i><span class="frs-author-name-wrap"><a rel="noopener" class="frs-author-name j_user_card " href="/home/main/?id=tb.1.local" target="_blank">${esc(post.author)}</a></span></span>
    <span class="pull-right is_show_create_time" title="创建时间">${tiebaListDate(post.publishedAt, now)}</span>
</div>
            </div>
                <div class="threadlist_detail clearfix">
                    <div class="threadlist_text pull_left">
                                <div class="threadlist_abs threadlist_abs_onlyline ">
            ${esc(abstract)}
        </div>
                    </div>
        <div class="threadlist_author pull_right">
        <span class="tb_icon_author_rely j_replyer" title="最后回复人: ${esc(last?.author ?? post.author)}"><i class="icon_replyer"></i><a rel="noopener" class="frs-author-name j_user_card " href="/home/main/?id=tb.1.local" target="_blank">${esc(last?.author ?? post.author)}</a>        </span>
        <span class="threadlist_reply_date pull_right j_reply_data" title="最后回复时间">
            ${tiebaListDate(tiebaLastActivity(model, post), now)}        </span>
</div>
                </div>
                                </div>
    </div>
</li>`;
}

/**
 * `/f?kw={bar}&pn={offset}`: pinned threads first (page 1 only), then by last reply, newest
 * first. Offsets shift when threads gain replies mid-crawl, as they do on Tieba.
 */
export function renderTiebaList(model: PlatformModel, account: LocalAccount, url: URL, sizes: PageSizes): Rendered {
  const pn = Math.max(0, Number(url.searchParams.get("pn") ?? "0") || 0);
  const posts = model.visiblePosts(account);
  const pinned = posts.filter((p) => p.pinned);
  const rest = posts.filter((p) => !p.pinned).sort((a, b) => tiebaLastActivity(model, b).getTime() - tiebaLastActivity(model, a).getTime());
  const rows = [...(pn === 0 ? pinned : []), ...rest.slice(pn, pn + sizes.tieba)];
  const kw = encodeURIComponent(account.slug);
  const hasNext = pn + sizes.tieba < rest.length;
  const lastPn = Math.max(0, Math.floor((rest.length - 1) / sizes.tieba) * sizes.tieba);
  const pager = `<div class="thread_list_bottom clearfix"><div id="frs_list_pager" class="pagination-default clearfix">${
    pn > 0 ? `<a href="/f?kw=${kw}&ie=utf-8&pn=${Math.max(0, pn - sizes.tieba)}" class="pre pagination-item ">&lt;上一页</a>` : ""
  }<span class="pagination-current pagination-item ">${Math.floor(pn / sizes.tieba) + 1}</span>${
    hasNext
      ? `<a href="/f?kw=${kw}&ie=utf-8&pn=${pn + sizes.tieba}" class="next pagination-item ">下一页&gt;</a><a href="/f?kw=${kw}&ie=utf-8&pn=${lastPn}" class="last pagination-item " >尾页</a>`
      : ""
  }</div></div>`;
  const list = `<ul id="thread_list" class="threadlist_bright j_threadlist_bright">
    ${rows.map((p) => threadRow(model, p)).join("")}
</ul>${pager}`;
  return html(`<!DOCTYPE html><html><head><meta charset="UTF-8"><title>${esc(account.slug)}吧-百度贴吧</title></head><body>
<div id="head" class="search_bright"><div class="card_title"><a class="card_title_fname" href="/f?kw=${kw}">${esc(account.slug)}吧</a></div></div>
<div id="content"><div class="forum_content clearfix">
<script>Bigpipe.register("frs-list/pagelet/thread_list", {"parent":"frs-list\\/pagelet\\/thread","scripts":[],"styles":[]}).then(function(pagelet){});</script><code class="pagelet_html" id="pagelet_html_frs-list/pagelet/thread_list" style="display:none;"><!--

${list}
--></code>
</div></div></body></html>`);
}

function floor(model: PlatformModel, post: LocalPost, item: { id: string; author: string; html: string; publishedAt: Date; floor: number }): string {
  const noDate = isGarbled(model, item.id, "date");
  const noAuthor = isGarbled(model, item.id, "author");
  const noBody = isGarbled(model, item.id, "body");
  const lzl = visibleLzl(model, item.id);
  const author = noAuthor
    ? { user_id: 0, user_name: "", props: null, portrait: "", user_nickname: null }
    : {
        user_id: tiebaUserId(item.author),
        user_name: tiebaLogin(item.author),
        props: null,
        portrait: `${tiebaPortrait(item.author)}?t=1700000000`,
        user_nickname: item.author,
      };
  const field = asciiJson({
    author,
    content: {
      post_id: Number(item.id),
      is_anonym: false,
      forum_id: tiebaForumId(model, post.accountKey),
      thread_id: Number(post.id),
      ...(noBody ? {} : { content: item.html }),
      post_no: item.floor,
      type: "0",
      comment_num: lzl.length,
      is_fold: 0,
      props: null,
      post_index: item.floor - 1,
      pb_tpoint: null,
    },
  });
  const name = noAuthor
    ? ""
    : `<a rel="noopener" data-field='${esc(asciiJson({ un: tiebaLogin(item.author), id: tiebaPortrait(item.author) }))}' class="p_author_name j_user_card" href="/home/main?id=${tiebaPortrait(item.author)}&amp;fr=pb" target="_blank">${esc(item.author)}</a>`;
  const body = noBody ? "" : `<div id="post_content_${item.id}" class="d_post_content j_d_post_content " style="display:;">            ${item.html}</div>`;
  const date = noDate ? "某天下午" : tiebaFloorDate(item.publishedAt);
  const inline =
    lzl.length > 0
      ? `<ul class="j_lzl_m_w" style="display:">${lzl.slice(0, LZL_INLINE).map(lzlItem).join("")}${lzlPager(lzl.length)}</ul>`
      : `<ul class="j_lzl_m_w" style="display:none">${lzlPager(0)}</ul>`;
  return `<div class="l_post l_post_bright j_l_post clearfix  " data-field="${esc(field)}" data-pid="${item.id}">
<div class="d_author"><ul class="p_author"><li class="d_name" data-field='{}'>${name}</li></ul></div>
<div class="d_post_content_main ${item.floor === 1 ? "d_post_content_firstfloor" : ""}"><div class="p_content  "><cc>${body}<br></cc></div>
<div class="core_reply j_lzl_wrapper"><div class="core_reply_tail clearfix"><div class="post-tail-wrap"><span class="tail-info">来自<a rel="noopener" href="#" target="_blank">Android客户端</a></span><span class="tail-info">${item.floor}楼</span><span class="tail-info">${date}</span><div class="j_lzl_r p_reply" data-field="${esc(JSON.stringify({ pid: Number(item.id), total_num: lzl.length > 0 ? lzl.length : null }))}"><a rel="noopener" href="#" class="lzl_link_unfold">回复(${lzl.length})</a></div></div></div>
<div class="j_lzl_container core_reply_wrapper" data-field="${esc(JSON.stringify({ pid: Number(item.id), floor_num: item.floor, total_num: lzl.length }))}"><div class="j_lzl_c_b_a core_reply_content">${inline}</div></div></div></div>
</div>`;
}

/** Post ids of the floors on thread page `pn` (floor 1 is the head post's `headId`). */
export function tiebaFloorsOnPage(model: PlatformModel, post: LocalPost, pn: number, perPage: number): string[] {
  const ids = [post.headId, ...model.visibleReplies(post).map((r) => r.id)];
  return ids.slice((pn - 1) * perPage, pn * perPage);
}

/** `/p/{tid}?pn={n}`: floor 1 (the head post) then replies, oldest first, 30 floors a page. */
export function renderTiebaThread(model: PlatformModel, post: LocalPost | undefined, url: URL, sizes: PageSizes): Rendered {
  if (!post || post.platform !== "tieba" || post.publishedAt > model.clock.now()) {
    return html(
      `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>贴吧404</title></head><body><div class="page404">很抱歉，该贴已被删除。</div></body></html>`,
      404,
    );
  }
  const account = model.account(post.accountKey);
  const replies = model.visibleReplies(post);
  const floors: { id: string; author: string; html: string; publishedAt: Date; floor: number }[] = [
    { id: post.headId, author: post.author, html: post.html, publishedAt: post.publishedAt, floor: 1 },
    ...replies.map((r: LocalReply) => ({ id: r.id, author: r.author, html: r.html, publishedAt: r.publishedAt, floor: r.floor })),
  ];
  const pages = Math.max(1, Math.ceil(floors.length / sizes.tiebaFloors));
  const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1") || 1);
  if (pn > pages) return notFound("该页不存在");
  const shown = floors.slice((pn - 1) * sizes.tiebaFloors, pn * sizes.tiebaFloors);
  const pager = `<ul class="l_posts_num"><li class="l_pager pager_theme_4 pb_list_pager">${
    pn > 1 ? `<a href="/p/${post.id}?pn=${pn - 1}">上一页</a>` : ""
  }<span class="tP">${pn}</span>${pn < pages ? `<a href="/p/${post.id}?pn=${pn + 1}">下一页</a><a href="/p/${post.id}?pn=${pages}">尾页</a>` : ""}</li>
	<li class="l_reply_num" style="margin-left:8px"><span class="red" style="margin-right:3px">${replies.length}</span>回复贴，共<span class="red">${pages}</span>页</li>
	<li class="l_reply_num">，跳到 <input theme="4" id="jumpPage4" max-page="${pages}" type="text" class="jump_input_bright"> 页</li></ul>`;
  return html(`<!DOCTYPE html><html><head><meta charset="UTF-8"><title>${esc(post.title)}_${esc(account.slug)}吧_百度贴吧</title></head><body>
<div class="core_title_wrap_bright clearfix"><h3 class="core_title_txt pull-left text-overflow  " title="${esc(post.title)}" style="width: 416px;">${esc(post.title)}</h3></div>
${pager}
<div class="p_postlist" id="j_p_postlist">
${shown.map((f) => floor(model, post, f)).join("\n")}
<div class="l_post l_post_bright j_l_post clearfix" data-field="{}" data-index="3"></div>
</div>
${pager}
<div id="tofrs_up" class="tofrs_up"><a href="/f?kw=${encodeURIComponent(account.slug)}&amp;ie=utf-8" title="${esc(account.slug)}">&lt;返回${esc(account.slug)}吧</a></div>
</body></html>`);
}

/**
 * The viewer in a page's scripts, as Tieba prints it (./login.ts adds it when logins are
 * simulated): list pages carry `"user":{"is_login":…}` in their page data, thread pages
 * `PageData.user = {… "is_login": 1 …}`; a member also gets the top bar's `li#j_u_username`.
 */
export function tiebaViewer(member: string | null, kind: "list" | "item"): { head: string; bar: string } {
  const bar = member
    ? `<ul class="u_menu"><li class="u_username" id="j_u_username"><a href="/home/main?un=${encodeURIComponent(member)}">${esc(member)}</a></li><li class="u_logout"><a href="#">退出</a></li></ul>`
    : `<ul class="u_menu"><li class="u_login"><a href="https://passport.baidu.com/v2/?login">登录</a></li><li class="u_reg">注册</li></ul>`;
  const head =
    kind === "list"
      ? `<script>var PageData = {"forum":{"is_private_forum":0},"user":${asciiJson(member ? { is_login: true, user_id: 7007, user_name: member, portrait: "tb.1.local7" } : { is_login: false, user_id: 0, user_name: "", portrait: "" })}};</script>`
      : `<script>PageData.user = {        "id": "${member ? "7007" : ""}",        "name": "${member ? esc(member) : ""}",        "is_login": ${member ? 1 : 0},        "portrait": "${member ? "tb.1.local7" : ""}"};</script>`;
  return { head, bar };
}
