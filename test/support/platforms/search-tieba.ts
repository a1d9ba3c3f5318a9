/**
 * Local Tieba in-bar search: `/f/search/res?ie=utf-8&kw={bar}&qw={word}&rn={n}&pn={page}`,
 * served in GBK like the real page. Results are `div.s_post` in the real markup: a thread's own
 * post links `/p/{tid}?pid={headId}&cid=0#…` with the thread title, a floor links
 * `/p/{tid}?pid={pid}&cid=0#{pid}` titled "回复:" + the title. The order is a fixed relevance
 * order, not time. An empty `kw` searches every local bar.
 */
import type { PlatformModel } from "./model";
import { esc, tiebaFloorDate } from "./format";
import type { Rendered } from "./responses";
import { byRelevance, hitsFor, type Hit, type SearchRouted } from "./search-shared";

const plain = (html: string): string => html.replace(/<[^>]+>/g, "");

function highlight(text: string, word: string): string {
  return esc(text)
    .split(esc(word))
    .join(`<em>${esc(word)}</em>`);
}

function result(model: PlatformModel, h: Hit, word: string): string {
  const account = model.account(h.post.accountKey);
  const own = h.reply ?? {
    id: h.post.headId,
    author: h.post.author,
    html: h.post.html,
    publishedAt: h.post.publishedAt,
  };
  const title = h.reply ? `回复:${h.post.title}` : h.post.title;
  const excerpt = plain(own.html).slice(0, 80);
  return `<div class="s_post"><span class="p_title"><a data-tid="${h.post.id}" data-fid="${account.slug.length}" class="bluelink" href="/p/${h.post.id}?pid=${own.id}&amp;cid=0#${own.id}" target="_blank">${highlight(title, word)}</a></span>
<div class="p_content">${highlight(excerpt, word)}</div>
贴吧：<a data-fid="1" class="p_forum" href="/f?kw=${encodeURIComponent(account.slug)}" target="_blank"><font class="p_violet">${esc(account.name)}</font></a>作者：<a href="/home/main?un=${encodeURIComponent(own.author)}" target="_blank"><font class="p_violet">${esc(own.author)}</font></a> <font class="p_green p_date">${tiebaFloorDate(own.publishedAt)}</font>
</div>`;
}

/** Answer a search request. */
export function routeTiebaSearch(model: PlatformModel, url: URL): SearchRouted {
  const word = (url.searchParams.get("qw") ?? "").trim();
  const bar = (url.searchParams.get("kw") ?? "").trim();
  const rn = Math.min(50, Math.max(1, Number(url.searchParams.get("rn") ?? "10") || 10));
  const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1") || 1);
  const accounts = model.accounts.filter((a) => a.platform === "tieba" && (bar === "" || a.slug === bar));
  const hits = byRelevance(hitsFor(model, accounts, word, true));
  const shown = hits.slice((pn - 1) * rn, pn * rn);
  const next =
    pn * rn < hits.length
      ? `<a class="next" href="/f/search/res?isnew=1&amp;kw=${encodeURIComponent(bar)}&amp;qw=${encodeURIComponent(word)}&amp;rn=${rn}&amp;pn=${pn + 1}">下一页&gt;</a>`
      : "";
  const list = shown.length
    ? `<div class="s_post_list">${shown.map((h) => result(model, h, word)).join("\n")}</div><div class="pager pager-search">${next}</div>`
    : `<div class="s_post_list"></div><div class="s_tips">抱歉，没有找到与“${esc(word)}”相关的结果。</div>`;
  const rendered: Rendered = {
    status: 200,
    contentType: "text/html; charset=gbk",
    charset: "gbk",
    body: `<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk"><title>百度贴吧_${esc(word)}</title></head><body><div class="s_container clearfix"><div class="s_main">${list}</div></div></body></html>`,
  };
  return {
    rendered,
    platform: "tieba",
    accountKey: accounts.length === 1 ? accounts[0]!.key : null,
    kind: "list",
  };
}
