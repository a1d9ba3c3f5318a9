/**
 * The synthetic web as data: sites, pages and links, generated from a seed and from texts the
 * caller supplies by label (tests pass short texts of their own, the benchmark passes the real
 * corpus). Nothing here opens a socket; server.ts serves it and render.ts draws the HTML.
 *
 * Shape, on purpose like a small Chinese news web:
 * - every site has a speciality label (its articles lean to it, ×`specialityWeight`) and its own
 *   URL style (category directories, pinyin directories, opaque ids, query strings, …);
 * - an article links to `relatedLinks` articles of ITS label (topical locality; most on its own
 *   site, and about half chosen by shared title words, as a CMS "相关阅读" box does), to
 *   `hotLinks` articles of any label ("热门推荐": off-topic detours), to `adLinks` pages of the
 *   link farm, and to the site's menu and footer;
 * - hubs link widely: a home page with the newest articles of every category and links to the
 *   other sites, paginated category lists, a sitemap of random articles;
 * - a link farm on its own host: many pages densely linked to each other, titles and anchors
 *   copied from real titles of every label, no text of their own.
 */
import { seededRandom } from "./random";

/** Texts of one label: titles (anchor and page titles) and bodies (one article each). */
export interface LabelTexts {
  titles: readonly string[];
  bodies: readonly string[];
}

/** Texts by label. Every label needs at least one title and one body. */
export type SyntheticTexts = Readonly<Record<string, LabelTexts>>;

/** How a site spells its URLs. */
export type UrlStyle = "category" | "pinyin" | "opaque" | "query" | "channel";
const URL_STYLES: readonly UrlStyle[] = ["category", "pinyin", "opaque", "query", "channel"];

/** Options of {@link generateSyntheticWeb}. */
export interface SyntheticWebOptions {
  /** @default 1 */
  seed?: number;
  texts: SyntheticTexts;
  /** News sites (the link farm is one more host). @default 8 */
  sites?: number;
  /** Weight of a site's speciality label relative to the others (label shares otherwise follow the texts). @default 4 */
  specialityWeight?: number;
  /** "相关阅读" links per article (same label). @default 8 */
  relatedLinks?: number;
  /** Share of related links on the article's own site. @default 0.8 */
  locality?: number;
  /**
   * Slices of text per article body: article k of a label joins bodies k … k+n−1 (cyclically), so
   * short corpus slices still make article-length pages and each slice appears in n articles, as
   * a story reposted with different surroundings does. @default 1
   */
  bodySlices?: number;
  /** "热门推荐" links per article (any label). @default 6 */
  hotLinks?: number;
  /** Link-farm links per article (ads). @default 3 */
  adLinks?: number;
  /** Articles per category list page. @default 30 */
  listPageSize?: number;
  /** Articles per category on the home page. @default 5 */
  homeLatest?: number;
  /** Articles on a site's sitemap. @default 120 */
  sitemapLinks?: number;
  /** Pages of the link farm (0: none). @default 400 */
  farmPages?: number;
  /** Links per farm page. @default 40 */
  farmLinks?: number;
  /** Words some ad anchors carry (a crawler's sensitive-word filter should drop those links). @default ["博彩"] */
  spamWords?: readonly string[];
}

/** A site of the web. */
export interface SiteModel {
  index: number;
  name: string;
  /** Loopback address the site is served on (127.0.0.2 … 127.0.0.9). */
  address: string;
  urlStyle: UrlStyle;
  speciality: string;
  /** Article ids per label, newest (highest id) first. */
  byLabel: Map<string, number[]>;
}

/** An article. */
export interface ArticleModel {
  id: number;
  site: number;
  label: string;
  title: string;
  body: string;
  /** Bumped by edits (ETag and Last-Modified follow it). */
  version: number;
  /** Minutes after the web's epoch when it was last changed. */
  modifiedAt: number;
  related: number[];
  hot: number[];
  ads: number[];
}

/** A page of the link farm: a copied title and many links with copied titles as anchors. */
export interface FarmPageModel {
  id: number;
  title: string;
  links: { farm: number; anchor: string }[];
}

/** The generated web (serve it with `startSyntheticWeb`). */
export interface SyntheticWebModel {
  labels: string[];
  sites: SiteModel[];
  articles: ArticleModel[];
  farm: FarmPageModel[];
  /** Farm host's address. */
  farmAddress: string;
  options: Required<Omit<SyntheticWebOptions, "texts" | "seed">> & { seed: number };
}

/** English and pinyin directory names of the corpus labels; other labels get c0, c1, … */
const SLUGS: Readonly<Record<string, [string, string]>> = {
  体育: ["sports", "tiyu"],
  娱乐: ["ent", "yule"],
  财经: ["finance", "caijing"],
  房产: ["house", "fangchan"],
  教育: ["edu", "jiaoyu"],
  游戏: ["games", "youxi"],
  科技: ["tech", "keji"],
  时政: ["politics", "shizheng"],
  股票: ["stock", "gupiao"],
  社会: ["society", "shehui"],
  家居: ["home", "jiaju"],
  时尚: ["fashion", "shishang"],
};

/** Directory name of a label for a URL style. */
export function labelSlug(labels: readonly string[], label: string, style: "en" | "pinyin"): string {
  const known = SLUGS[label];
  if (known) return style === "en" ? known[0] : known[1];
  return `c${labels.indexOf(label)}`;
}

const SITE_NAMES = ["新闻在线", "天天资讯", "华夏网", "东方快讯", "星空新闻", "百姓热线", "今日看点", "环球视窗", "城市早报", "青年网"];

/** Character bigrams of a title (the "shared words" a CMS related box matches on). */
function bigrams(s: string): string[] {
  const out: string[] = [];
  const t = s.replace(/[^\u4e00-\u9fffA-Za-z0-9]/g, "");
  for (let i = 0; i + 2 <= t.length; i++) out.push(t.slice(i, i + 2));
  return out;
}

/** Generate the web: deterministic for a given seed and texts. */
export function generateSyntheticWeb(options: SyntheticWebOptions): SyntheticWebModel {
  const o = {
    seed: options.seed ?? 1,
    sites: options.sites ?? 8,
    specialityWeight: options.specialityWeight ?? 4,
    relatedLinks: options.relatedLinks ?? 8,
    locality: options.locality ?? 0.8,
    bodySlices: Math.max(1, options.bodySlices ?? 1),
    hotLinks: options.hotLinks ?? 6,
    adLinks: options.adLinks ?? 3,
    listPageSize: options.listPageSize ?? 30,
    homeLatest: options.homeLatest ?? 5,
    sitemapLinks: options.sitemapLinks ?? 120,
    farmPages: options.farmPages ?? 400,
    farmLinks: options.farmLinks ?? 40,
    spamWords: options.spamWords ?? ["博彩"],
  };
  const rand = seededRandom(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const labels = Object.keys(options.texts).sort();
  if (labels.length === 0) throw new Error("synthetic web: no texts");
  for (const l of labels) {
    const t = options.texts[l] as LabelTexts;
    if (t.titles.length === 0 || t.bodies.length === 0) throw new Error(`synthetic web: label ${l} needs titles and bodies`);
  }

  const sites: SiteModel[] = Array.from({ length: o.sites }, (_, i) => ({
    index: i,
    name: SITE_NAMES[i % SITE_NAMES.length] + (i >= SITE_NAMES.length ? String(i) : ""),
    address: `127.0.0.${2 + (i % 8)}`,
    urlStyle: URL_STYLES[i % URL_STYLES.length] as UrlStyle,
    speciality: labels[i % labels.length] as string,
    byLabel: new Map(labels.map((l) => [l, [] as number[]])),
  }));

  // One article per body, its site drawn with the speciality weighting.
  const articles: ArticleModel[] = [];
  const order: { label: string; body: string; title: string }[] = [];
  for (const label of labels) {
    const t = options.texts[label] as LabelTexts;
    t.bodies.forEach((_, i) => {
      const parts: string[] = [];
      for (let k = 0; k < Math.min(o.bodySlices, t.bodies.length); k++) parts.push(t.bodies[(i + k) % t.bodies.length] as string);
      order.push({ label, body: parts.join(""), title: t.titles[i % t.titles.length] as string });
    });
  }
  // Interleave labels (seeded shuffle) so ids, and so list pages, mix topics as a real site does.
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] as (typeof order)[number], order[i] as (typeof order)[number]];
  }
  for (const a of order) {
    const weights = sites.map((s) => (s.speciality === a.label ? o.specialityWeight : 1));
    const total = weights.reduce((x, y) => x + y, 0);
    let r = rand() * total;
    let site = 0;
    while (site < sites.length - 1 && r >= (weights[site] as number)) r -= weights[site++] as number;
    const id = articles.length;
    articles.push({ id, site, label: a.label, title: a.title, body: a.body, version: 1, modifiedAt: id, related: [], hot: [], ads: [] });
    (sites[site]?.byLabel.get(a.label) as number[]).push(id);
  }
  for (const s of sites) for (const ids of s.byLabel.values()) ids.reverse();

  // Inverted indexes of title bigrams, per label and per (site, label), for the "shared words"
  // half of related links: a CMS matches keywords within its own site, now and then across sites.
  const gramIndex = new Map<string, Map<string, number[]>>();
  const indexOf = (key: string) => {
    let m = gramIndex.get(key);
    if (!m) gramIndex.set(key, (m = new Map<string, number[]>()));
    return m;
  };
  for (const a of articles) {
    for (const key of [a.label, `${a.site}|${a.label}`]) {
      const idx = indexOf(key);
      for (const g of new Set(bigrams(a.title))) {
        const list = idx.get(g) ?? [];
        list.push(a.id);
        idx.set(g, list);
      }
    }
  }
  const allByLabel = new Map(labels.map((l) => [l, articles.filter((a) => a.label === l).map((a) => a.id)]));
  const farmCount = o.farmPages;

  for (const a of articles) {
    const chosen = new Set<number>([a.id]);
    const same = sites[a.site]?.byLabel.get(a.label) as number[];
    const anywhere = allByLabel.get(a.label) as number[];
    // Half by shared title bigrams (rarest bigram first, as a tag or keyword match would).
    const byWords = Math.floor(o.relatedLinks / 2);
    const local = indexOf(`${a.site}|${a.label}`);
    const global = indexOf(a.label);
    const grams = [...new Set(bigrams(a.title))].sort((x, y) => (global.get(x)?.length ?? 0) - (global.get(y)?.length ?? 0) || (x < y ? -1 : 1));
    for (const g of grams) {
      if (a.related.length >= byWords) break;
      const idx = rand() < o.locality ? local : global;
      const ids = (idx.get(g) ?? []).filter((id) => !chosen.has(id));
      if (ids.length === 0 || ids.length > 60) continue; // a bigram in every title is no keyword
      const id = pick(ids);
      chosen.add(id);
      a.related.push(id);
    }
    for (let tries = 0; a.related.length < o.relatedLinks && tries < o.relatedLinks * 10; tries++) {
      const pool = rand() < o.locality && same.length > 1 ? same : anywhere;
      const id = pick(pool);
      if (chosen.has(id)) continue;
      chosen.add(id);
      a.related.push(id);
    }
    for (let tries = 0; a.hot.length < o.hotLinks && tries < o.hotLinks * 10; tries++) {
      const onSite = rand() < 0.7;
      const pool = onSite ? [...(sites[a.site] as SiteModel).byLabel.values()].flat() : articles.map((x) => x.id);
      const id = pick(pool);
      if (chosen.has(id)) continue;
      chosen.add(id);
      a.hot.push(id);
    }
    if (farmCount > 0) for (let k = 0; k < o.adLinks; k++) a.ads.push(Math.floor(rand() * farmCount));
  }

  const allTitles = labels.flatMap((l) => (options.texts[l] as LabelTexts).titles);
  const farm: FarmPageModel[] = [];
  for (let i = 0; i < farmCount; i++) {
    const links: FarmPageModel["links"] = [];
    for (let k = 0; k < o.farmLinks; k++) links.push({ farm: Math.floor(rand() * farmCount), anchor: pick(allTitles) });
    farm.push({ id: i, title: pick(allTitles), links });
  }

  return { labels, sites, articles, farm, farmAddress: `127.0.0.${2 + (o.sites % 8)}`, options: o };
}
