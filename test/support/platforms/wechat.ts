/**
 * Local WeChat articles (mp.weixin.qq.com): `/s/{token}` serves the account's article in the
 * markup of the real capture wechat_article_huashangbao_2018-04-06.html (`#activity-name`,
 * `#js_name`, `#publish_time`, `#js_content`, and the page script's `var ct`, `var biz`,
 * `var nickname`), and WeChat's removal page (`.weui-msg__title` "该内容已被发布者删除", as the
 * expired-link capture shows it) once the article is removed (`removePost`). A WeChat account
 * is one article: the account's first post, edited with `editPost`.
 */
import type { LocalAccount, PlatformModel } from "./model";
import { blogDay, esc } from "./format";
import { html, type Rendered } from "./responses";

/** The `__biz` of a local account: WeChat's base64 of a number, per account. */
export function wechatBiz(account: LocalAccount): string {
  return Buffer.from(String(3_000_000_000 + Number(/\d+$/.exec(account.key)?.[0] ?? 0))).toString("base64");
}

/** WeChat's page for an article it no longer serves (the notice WeChat shows in `.weui-msg__title`). */
function removedPage(notice: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title></title>
<link rel="stylesheet" href="https://res.wx.qq.com/open/libs/weui/1.1.0/weui.min.css"></head>
<body id="activity-detail" class="zh_CN "><div class="weui-msg"><div class="weui-msg__icon-area"><i class="weui-icon-warn weui-icon_msg"></i></div>
<div class="weui-msg__text-area"><h2 class="weui-msg__title">${esc(notice)}</h2></div></div></body></html>`;
}

/** `/s/{token}`: the account's article, or WeChat's removal page once it is removed. */
export function renderWechatArticle(model: PlatformModel, account: LocalAccount): Rendered {
  const post = account.posts[0];
  if (!post || post.removed) return html(removedPage("该内容已被发布者删除"));
  const biz = wechatBiz(account);
  const ct = Math.floor(post.publishedAt.getTime() / 1000);
  return html(`<!DOCTYPE html><html><head><meta charset="utf-8">
<meta property="og:title" content="${esc(post.title)}"><meta property="og:type" content="article">
<title>${esc(post.title)}</title></head>
<body id="activity-detail" class="zh_CN mm_appmsg">
<div id="js_article" class="rich_media"><div class="rich_media_inner"><div id="page-content" class="rich_media_area_primary"><div id="img-content">
<h1 class="rich_media_title" id="activity-name">
  ${esc(post.title)}
</h1>
<div id="meta_content" class="rich_media_meta_list">
<span class="rich_media_meta rich_media_meta_nickname" id="profileBt"><a href="javascript:void(0);" id="js_name">
  ${esc(account.name)}
</a></span>
<em id="publish_time" class="rich_media_meta rich_media_meta_text">${blogDay(post.publishedAt)}</em>
</div>
<div class="rich_media_content js_underline_content" id="js_content" style="visibility: hidden;">
${post.html}
</div></div></div></div></div>
<script type="text/javascript">
    var biz = "" || "${biz}";
    var mid = "" || "${post.id}";
    var idx = "" || "1";
    var nickname = "${esc(account.name)}";
    var ct = "${ct}";
    var msg_title = "${esc(post.title)}";
    var views = ${model.visibleReplies(post).length};
</script></body></html>`);
}
