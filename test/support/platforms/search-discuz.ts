/**
 * Local Discuz! X search (`{dir}search.php?mod=forum`), site-wide over the local boards.
 * `srchtxt={word}&searchsubmit=yes` answers a redirect to
 * `search.php?mod=forum&searchid={n}&orderby=lastpost&ascdesc=desc&searchsubmit=yes&kw={word}`,
 * like X3; that page lists `#threadlist li.pbw` in the stock `search/thread_list` markup, ordered
 * by last post, ten a page, with `div.pg a.nxt` to the next page. The search belongs to the first
 * local board: when that board is members-only (`site.logins.membersOnly("discuz-1")`), so is
 * the search (./login.ts answers visitors the login notice).
 */
import type { PlatformModel } from "./model";
import { discuzFull, esc } from "./format";
import type { Rendered } from "./responses";
import { hitsFor, type SearchRouted } from "./search-shared";

/** Results per search page (Discuz!'s default `tpp` for search). */
export const DISCUZ_SEARCH_PAGE_SIZE = 10;

const plain = (html: string): string => html.replace(/<[^>]+>/g, "");
const highlight = (text: string, word: string): string =>
  esc(text)
    .split(esc(word))
    .join(`<strong><font color="#ff0000">${esc(word)}</font></strong>`);

function page(body: string): Rendered {
  return {
    status: 200,
    contentType: "text/html; charset=utf-8",
    body: `<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><title>搜索 - 校园BBS - Powered by Discuz!</title></head><body id="nv_search" class="pg_search">
${body}
</body></html>`,
  };
}

/** Answer a search request. */
export function routeDiscuzSearch(model: PlatformModel, url: URL): SearchRouted {
  const boards = model.accounts.filter((a) => a.platform === "discuz");
  const owner = boards[0]?.key ?? null;
  const routed = (rendered: Rendered): SearchRouted => ({
    rendered,
    platform: "discuz",
    accountKey: owner,
    kind: "list",
  });
  const srchtxt = url.searchParams.get("srchtxt");
  if (srchtxt !== null && !url.searchParams.has("searchid")) {
    const location = `search.php?mod=forum&searchid=77&orderby=lastpost&ascdesc=desc&searchsubmit=yes&kw=${encodeURIComponent(srchtxt.trim())}`;
    return routed({
      status: 302,
      contentType: "text/html; charset=utf-8",
      body: "",
      headers: { location },
    });
  }
  const word = (url.searchParams.get("kw") ?? "").trim();
  const pageNo = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
  const hits = hitsFor(model, boards, word, false).sort((a, b) => model.lastActivity(b.post).getTime() - model.lastActivity(a.post).getTime());
  const shown = hits.slice((pageNo - 1) * DISCUZ_SEARCH_PAGE_SIZE, pageNo * DISCUZ_SEARCH_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(hits.length / DISCUZ_SEARCH_PAGE_SIZE));
  const base = `search.php?mod=forum&amp;searchid=77&amp;orderby=lastpost&amp;ascdesc=desc&amp;searchsubmit=yes&amp;kw=${encodeURIComponent(word)}`;
  const pager =
    pageNo < pages
      ? `<div class="pgs cl mbm"><div class="pg"><strong>${pageNo}</strong><a href="${base}&amp;page=${pageNo + 1}" class="nxt">下一页</a></div></div>`
      : "";
  const rows = shown.map(({ post }) => {
    const account = model.account(post.accountKey);
    return `<li class="pbw" id="${post.id}">
<h3 class="xs3"><a href="forum.php?mod=viewthread&amp;tid=${post.id}&amp;highlight=${encodeURIComponent(word)}" target="_blank">${highlight(post.title, word)}</a></h3>
<p class="xg1">${model.visibleReplies(post).length} 个回复 - ${post.views} 次查看</p>
<p>${highlight(plain(post.html).slice(0, 120), word)}</p>
<p>
<span>${discuzFull(post.publishedAt)}</span>
 -
<span><a href="home.php?mod=space&amp;uid=${1000 + post.author.length}" target="_blank">${esc(post.author)}</a></span>
 -
<span><a href="forum.php?mod=forumdisplay&amp;fid=${account.slug}" target="_blank" class="xi1">${esc(account.name)}</a></span>
</p>
</li>`;
  });
  const result = shown.length
    ? `<div class="slst mtw" id="threadlist"><ul>${rows.join("\n")}</ul></div>${pager}`
    : `<p class="emp xs2 xg2">对不起，没有找到匹配结果。</p>`;
  return routed(
    page(
      `<div id="ct" class="cl w"><div class="mw"><div class="tl"><div class="sttl mbn"><h2>结果: <em>找到 “<span class="emfont">${esc(word)}</span>” 相关内容 ${hits.length} 个</em></h2></div>${result}</div></div></div>`,
    ),
  );
}
