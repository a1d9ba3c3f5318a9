/**
 * URLs and HTML of the synthetic web. Every site spells its URLs its own way (see UrlStyle), and
 * every page type has the regions a crawler meets on real news sites: a menu, breadcrumbs, the
 * article, "相关阅读", "热门推荐", ads, a footer; lists with pagers; home pages with category boxes.
 */
import { labelSlug, type ArticleModel, type FarmPageModel, type SiteModel, type SyntheticWebModel } from "./model";

/** What a path of a site (or of the farm) shows. */
export type PageRef =
  | { kind: "home"; site: number }
  | { kind: "list"; site: number; label: string; page: number }
  | { kind: "article"; id: number }
  | { kind: "sitemap"; site: number }
  | { kind: "about"; site: number; which: "about" | "contact" }
  | { kind: "farm"; id: number };

/** 2009-01-01T00:00:00Z: articles are dated minutes after it, by id. */
export const WEB_EPOCH_MS = Date.UTC(2009, 0, 1);

/** Origins of the running servers, for absolute links across hosts. */
export interface Origins {
  sites: readonly string[];
  farm: string;
}

function hash8(id: number): string {
  return ((Math.imul(id + 1, 2654435761) >>> 0).toString(16) + "00000000").slice(0, 8);
}

/** Path (and query) of a page on its own host. */
export function pathOf(web: SyntheticWebModel, ref: PageRef): string {
  switch (ref.kind) {
    case "home":
      return "/";
    case "sitemap":
      return "/sitemap.html";
    case "about":
      return `/${ref.which}.html`;
    case "farm":
      return ref.id === 0 ? "/" : `/go/${ref.id}.html`;
    case "list": {
      const site = web.sites[ref.site] as SiteModel;
      const en = labelSlug(web.labels, ref.label, "en");
      const py = labelSlug(web.labels, ref.label, "pinyin");
      const cat = web.labels.indexOf(ref.label);
      switch (site.urlStyle) {
        case "category":
          return ref.page === 1 ? `/${en}/` : `/${en}/index_${ref.page}.shtml`;
        case "pinyin":
          return `/${py}/list_${ref.page}.html`;
        case "opaque":
          return `/list/${cat}/${ref.page}.html`;
        case "query":
          return `/list.php?cat=${cat}&page=${ref.page}`;
        case "channel":
          return `/channel/${en}_${ref.page}.html`;
      }
      break;
    }
    case "article": {
      const a = web.articles[ref.id] as ArticleModel;
      const site = web.sites[a.site] as SiteModel;
      const en = labelSlug(web.labels, a.label, "en");
      const py = labelSlug(web.labels, a.label, "pinyin");
      const d = new Date(WEB_EPOCH_MS + a.id * 3_600_000);
      const yyyy = d.getUTCFullYear();
      const mm = String(d.getUTCMonth() + 1).padStart(2, "0");
      switch (site.urlStyle) {
        case "category":
          return `/${en}/${yyyy}/${mm}/${a.id}.shtml`;
        case "pinyin":
          return `/${py}/a/${a.id}.html`;
        case "opaque":
          return `/a/${hash8(a.id)}.html`;
        case "query":
          return `/article.php?id=${a.id}`;
        case "channel":
          return `/news/${a.id}.html`;
      }
    }
  }
  throw new Error(`no path for ${JSON.stringify(ref)}`);
}

/** The host index a page lives on: a site index, or -1 for the farm. */
export function hostOf(web: SyntheticWebModel, ref: PageRef): number {
  if (ref.kind === "farm") return -1;
  if (ref.kind === "article") return (web.articles[ref.id] as ArticleModel).site;
  return ref.site;
}

/** Absolute URL of a page. */
export function urlOf(web: SyntheticWebModel, origins: Origins, ref: PageRef): string {
  const host = hostOf(web, ref);
  return (host < 0 ? origins.farm : (origins.sites[host] as string)) + pathOf(web, ref);
}

/** Number of list pages of a category on a site. */
export function listPages(web: SyntheticWebModel, site: number, label: string): number {
  const n = (web.sites[site] as SiteModel).byLabel.get(label)?.length ?? 0;
  return Math.max(1, Math.ceil(n / web.options.listPageSize));
}

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function a(href: string, text: string): string {
  return `<a href="${esc(href)}">${esc(text)}</a>`;
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

function dateOf(id: number): string {
  return new Date(WEB_EPOCH_MS + id * 3_600_000).toISOString().slice(0, 10);
}

/** Site-relative links are written relative (as most sites do); other hosts absolutely. */
function href(web: SyntheticWebModel, origins: Origins, from: number, ref: PageRef): string {
  return hostOf(web, ref) === from ? pathOf(web, ref) : urlOf(web, origins, ref);
}

function menu(web: SyntheticWebModel, site: number): string {
  const items = web.labels.map((l) => a(pathOf(web, { kind: "list", site, label: l, page: 1 }), l)).join(" ");
  return `<div class="top"><a href="/">首页</a> ${items} <a href="/sitemap.html">网站地图</a></div>`;
}

function footer(site: SiteModel): string {
  return `<div class="footer"><a href="/about.html">关于我们</a> | <a href="/contact.html">联系我们</a> | <a href="/sitemap.html">网站地图</a><p>Copyright © ${esc(site.name)} 版权所有</p></div>`;
}

/** Ad texts of the synthetic web (ours, not corpus text); `{spam}` takes a spam word. */
const AD_TEXTS = ["免费领取超值大礼包", "点击查看今日特价商品", "月入过万的秘密就在这里", "最新{spam}优惠活动火热开启", "名师一对一辅导限时优惠"];

function paragraphs(body: string): string {
  // Two paragraphs split at the sentence end nearest the middle, as an article would be.
  const mid = Math.floor(body.length / 2);
  let cut = -1;
  for (let d = 0; d < mid && cut < 0; d++) {
    if (body[mid + d] === "。") cut = mid + d + 1;
    else if (body[mid - d] === "。") cut = mid - d + 1;
  }
  const parts = cut > 0 && cut < body.length ? [body.slice(0, cut), body.slice(cut)] : [body];
  return parts.map((p) => `<p>${esc(p)}</p>`).join("\n");
}

/** HTML of a page. */
export function renderPage(web: SyntheticWebModel, origins: Origins, ref: PageRef): string {
  switch (ref.kind) {
    case "article":
      return renderArticle(web, origins, web.articles[ref.id] as ArticleModel);
    case "list":
      return renderList(web, ref.site, ref.label, ref.page);
    case "home":
      return renderHome(web, origins, ref.site);
    case "sitemap":
      return renderSitemap(web, ref.site);
    case "about": {
      const site = web.sites[ref.site] as SiteModel;
      const text =
        ref.which === "about"
          ? `${site.name}是一家综合性资讯网站，为读者提供及时、准确的新闻报道和生活服务信息。`
          : `联系${site.name}：欢迎读者来信来电，提供新闻线索，我们将认真对待每一条意见。`;
      return page(
        `${ref.which === "about" ? "关于我们" : "联系我们"}_${site.name}`,
        `${menu(web, ref.site)}\n<div class="content"><p>${esc(text)}</p></div>\n${footer(site)}`,
      );
    }
    case "farm":
      return renderFarm(web, web.farm[ref.id] as FarmPageModel);
  }
}

function renderArticle(web: SyntheticWebModel, origins: Origins, art: ArticleModel): string {
  const site = web.sites[art.site] as SiteModel;
  const list = (ids: readonly number[]) =>
    ids.map((id) => `<li>${a(href(web, origins, art.site, { kind: "article", id }), (web.articles[id] as ArticleModel).title)}</li>`).join("");
  const spam = web.options.spamWords;
  const ads = art.ads
    .map((f, k) => {
      const text = (AD_TEXTS[(art.id + k) % AD_TEXTS.length] as string).replace("{spam}", spam.length > 0 ? (spam[(art.id + k) % spam.length] as string) : "");
      return a(urlOf(web, origins, { kind: "farm", id: f }), text);
    })
    .join(" ");
  const body = [
    menu(web, art.site),
    `<div class="crumbs"><a href="/">首页</a> &gt; ${a(pathOf(web, { kind: "list", site: art.site, label: art.label, page: 1 }), art.label)} &gt; 正文</div>`,
    `<div class="article"><h1>${esc(art.title)}</h1><p class="meta">来源：${esc(site.name)} 发布时间：${dateOf(art.id)}</p>\n<div class="content">${paragraphs(art.body)}</div></div>`,
    art.related.length ? `<div class="related"><h3>相关阅读</h3><ul>${list(art.related)}</ul></div>` : "",
    art.hot.length ? `<div class="hot"><h3>热门推荐</h3><ul>${list(art.hot)}</ul></div>` : "",
    ads ? `<div class="ad"><span>广告</span> ${ads}</div>` : "",
    footer(site),
  ];
  return page(`${art.title}_${site.name}`, body.filter(Boolean).join("\n"));
}

function renderList(web: SyntheticWebModel, siteIndex: number, label: string, n: number): string {
  const site = web.sites[siteIndex] as SiteModel;
  const ids = site.byLabel.get(label) ?? [];
  const size = web.options.listPageSize;
  const pages = listPages(web, siteIndex, label);
  const items = ids
    .slice((n - 1) * size, n * size)
    .map((id) => `<li>${a(pathOf(web, { kind: "article", id }), (web.articles[id] as ArticleModel).title)} <span>${dateOf(id)}</span></li>`)
    .join("");
  const pager: string[] = [];
  const to = (k: number) => pathOf(web, { kind: "list", site: siteIndex, label, page: k });
  if (n > 1) pager.push(a(to(n - 1), "上一页"));
  for (let k = Math.max(1, n - 4); k <= Math.min(pages, n + 4); k++) pager.push(k === n ? `<b>${k}</b>` : a(to(k), String(k)));
  if (n < pages) pager.push(a(to(n + 1), "下一页"));
  const body = [
    menu(web, siteIndex),
    `<div class="list"><h2>${esc(label)}</h2><ul>${items}</ul></div>`,
    `<div class="pager">${pager.join(" ")}</div>`,
    footer(site),
  ];
  return page(`${label}频道_第${n}页_${site.name}`, body.join("\n"));
}

function renderHome(web: SyntheticWebModel, origins: Origins, siteIndex: number): string {
  const site = web.sites[siteIndex] as SiteModel;
  const boxes = web.labels.map((label) => {
    const ids = (site.byLabel.get(label) ?? []).slice(0, web.options.homeLatest);
    const items = ids.map((id) => `<li>${a(pathOf(web, { kind: "article", id }), (web.articles[id] as ArticleModel).title)}</li>`).join("");
    return `<div class="box"><h2>${a(pathOf(web, { kind: "list", site: siteIndex, label, page: 1 }), label)}</h2><ul>${items}</ul></div>`;
  });
  const friends = web.sites
    .filter((s) => s.index !== siteIndex)
    .map((s) => a(urlOf(web, origins, { kind: "home", site: s.index }), s.name))
    .join(" ");
  const body = [menu(web, siteIndex), ...boxes, `<div class="links"><h3>友情链接</h3>${friends}</div>`, footer(site)];
  return page(`${site.name}_首页`, body.join("\n"));
}

/** Article ids on a site's sitemap: a seeded sample across all its categories. */
export function sitemapIds(web: SyntheticWebModel, siteIndex: number): number[] {
  const site = web.sites[siteIndex] as SiteModel;
  const all = [...site.byLabel.values()].flat().sort((x, y) => x - y);
  const step = Math.max(1, Math.floor(all.length / web.options.sitemapLinks));
  const out: number[] = [];
  for (let i = siteIndex % step; i < all.length && out.length < web.options.sitemapLinks; i += step) out.push(all[i] as number);
  return out;
}

function renderSitemap(web: SyntheticWebModel, siteIndex: number): string {
  const site = web.sites[siteIndex] as SiteModel;
  const items = sitemapIds(web, siteIndex)
    .map((id) => `<li>${a(pathOf(web, { kind: "article", id }), (web.articles[id] as ArticleModel).title)}</li>`)
    .join("");
  return page(`网站地图_${site.name}`, `${menu(web, siteIndex)}\n<div class="sitemap"><ul>${items}</ul></div>\n${footer(site)}`);
}

function renderFarm(web: SyntheticWebModel, f: FarmPageModel): string {
  const items = f.links.map((l) => `<li>${a(pathOf(web, { kind: "farm", id: l.farm }), l.anchor)}</li>`).join("");
  return page(f.title, `<div class="main"><h1>${esc(f.title)}</h1><p>本站内容来自网络，更多精彩请点击下方链接。</p><ul>${items}</ul></div>`);
}
