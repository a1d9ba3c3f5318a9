/**
 * Discuz! X boards (the usual campus BBS engine), read as desktop HTML.
 *
 * - Entry: `forum.php?mod=forumdisplay&fid={fid}` or the rewritten `forum-{fid}-{n}.html`.
 *   Boards often live in a sub-directory (`/bbs/`, `/2b/`): requests are built from the entry's
 *   origin plus that directory.
 * - List: `forum.php?mod=forumdisplay&fid={fid}&page={n}`, ordered by last reply (Discuz!'s
 *   default), so `orderedByActivity` and each item's `lastActivityAt` are set. Rows are
 *   `table#threadlisttableid > tbody[id^=normalthread_]`, pinned ones `stickthread_`; title
 *   `a.s.xst`; author `td.by cite a`; dates `td.by em span` — the `title` attribute holds the
 *   full date when the text is relative ("3 天前"); the second `td.by` is the last reply;
 *   `td.num` has replies (a) and views (em); `div.pg a.nxt` links the next page.
 * - Thread: `forum.php?mod=viewthread&tid={tid}&page={n}`; posts `div#postlist > div[id^=post_]`,
 *   author `.authi a.xw1`, date `em[id^=authorposton]` ("发表于 2019-1-11 22:29", or a span
 *   with a title), content `td.t_f[id^=postmessage_]`. The first post of page 1 is the head
 *   (platformId `t{tid}`); the others are replies (`p{pid}`, parent `t{tid}`).
 * - GBK boards are decoded by the fetcher (header or `<meta charset>`); nothing here cares.
 *
 * Also: {@link parseDiscuzMobileThreadList} reads the mobile API's `forumdisplay` JSON.
 */
import * as cheerio from "cheerio";
import type { CheerioAPI } from "cheerio";
import { parseDiscuzDate, tryParsePlatformDate } from "../dates";
import { NonRetryableError } from "../errors";
import type { Adapter, AdapterContext, CrawlItem, ListItem, ListPage, ThreadPage } from "../types";
import { arr, dig, imagesIn, num, rec, str, walkThreadPages, type ParsedThreadPage } from "./shared";

/** A cheerio selection of elements (spelled via cheerio's API so domhandler need not be imported). */
type Sel = ReturnType<ReturnType<CheerioAPI["root"]>["find"]>;

/** Board directory and forum id of an entry URL, or null when it is not a Discuz! board URL. */
export function discuzBoardFromUrl(url: URL): { base: string; fid: string } | null {
  const rewritten = /^(.*\/)forum-(\d+)-\d+\.html$/.exec(url.pathname);
  if (rewritten?.[1] && rewritten[2]) return { base: url.origin + rewritten[1], fid: rewritten[2] };
  const php = /^(.*\/)forum\.php$/.exec(url.pathname);
  const fid = url.searchParams.get("fid");
  if (php?.[1] && fid && /^\d+$/.test(fid) && (url.searchParams.get("mod") ?? "forumdisplay") === "forumdisplay") {
    return { base: url.origin + php[1], fid };
  }
  return null;
}

function boardOf(ctx: AdapterContext): { base: string; fid: string } {
  const board = discuzBoardFromUrl(new URL(ctx.account.entryUrl));
  if (!board) throw new NonRetryableError(`not a Discuz! board URL: ${ctx.account.entryUrl}`, ctx.account.entryUrl);
  return board;
}

/**
 * A date cell: the `title` attribute (full date) wins over the shown text ("3 天前"), except
 * when the title is a bare day and the text has the time ("昨天 09:32" titled "2019-3-4").
 */
function dateOf(cell: Sel, now: Date): Date | null {
  const titled = cell.find("span[title]").first();
  const title = titled.attr("title")?.trim();
  const text = (titled.length > 0 ? titled.text() : cell.text()).replace(/\s+/g, " ").trim();
  const fromTitle = title ? tryParsePlatformDate(title, now, "discuz") : null;
  const fromText = tryParsePlatformDate(text, now, "discuz");
  if (fromTitle && title && !title.includes(":") && text.includes(":") && fromText) return fromText;
  return fromTitle ?? fromText;
}

/** The items of a forumdisplay page. Exported for unit tests. */
export function parseDiscuzList(html: string, pageUrl: string, now: Date): { items: ListItem[]; nextUrl: string | null } {
  const $ = cheerio.load(html);
  const table = $("table#threadlisttableid");
  if (table.length === 0) throw new NonRetryableError("not a Discuz! thread list: no table#threadlisttableid", pageUrl);
  const base = pageUrl.replace(/[^/]*$/, "");
  const items: ListItem[] = [];
  const source = { url: pageUrl, body: html };
  table.children("tbody[id^=normalthread_], tbody[id^=stickthread_]").each((_i, el) => {
    const tbody = $(el);
    const id = tbody.attr("id") ?? "";
    const tid = /_(\d+)$/.exec(id)?.[1];
    if (!tid) return;
    const link = tbody.find("a.s.xst, a.xst").first();
    const by = tbody.find("td.by");
    const authorCell = by.eq(0);
    const lastCell = by.eq(1);
    const publishedAt = dateOf(authorCell.find("em").first(), now);
    if (!publishedAt) return;
    const lastActivityAt = lastCell.length > 0 ? dateOf(lastCell.find("em").first(), now) : null;
    const numCell = tbody.find("td.num").first();
    const replies = num(numCell.find("a").first().text().trim()) ?? 0;
    items.push({
      platformId: `t${tid}`,
      kind: "post",
      url: `${base}forum.php?mod=viewthread&tid=${tid}`,
      title: link.text().trim(),
      author: authorCell.find("cite a").first().text().trim() || authorCell.find("cite").text().trim(),
      publishedAt,
      html: "",
      pinned: id.startsWith("stickthread_"),
      incomplete: true,
      hasReplies: replies > 0,
      replyCount: replies,
      lastActivityAt: lastActivityAt ?? publishedAt,
      source,
    });
  });
  const next = $("div.pg a.nxt").first().attr("href");
  return { items, nextUrl: next ? new URL(next, pageUrl).href : null };
}

const NAMED_FLOORS: Record<string, number> = { 楼主: 1, 沙发: 2, 板凳: 3, 地板: 4 };

/** One viewthread page. Exported for unit tests. */
export function parseDiscuzThread(html: string, pageUrl: string, tid: string, page: number, now: Date): ParsedThreadPage {
  const $ = cheerio.load(html);
  const title = $("#thread_subject").first().text().trim() || $("title").text().split(/\s+-\s+/)[0]?.trim() || "";
  const base = pageUrl.replace(/[^/]*$/, "");
  const source = { url: pageUrl, body: html };
  const posts = $("div#postlist > div[id^=post_]").filter((_i, el) => /^post_\d+$/.test($(el).attr("id") ?? ""));
  if (posts.length === 0 && $("div#postlist").length === 0) {
    throw new NonRetryableError("not a Discuz! thread page: no div#postlist", pageUrl);
  }
  const replies: CrawlItem[] = [];
  let head: CrawlItem | undefined;
  posts.each((index, el) => {
    const div = $(el);
    const pid = (div.attr("id") ?? "").slice("post_".length);
    const posted = div.find("em[id^=authorposton]").first();
    const publishedAt = dateOf(posted, now) ?? parseDiscuzDate(posted.text(), now);
    const body = div.find("td.t_f[id^=postmessage_]").first().html() ?? "";
    const floorText = div.find("a[id^=postnum] em").first().text().trim();
    const floor = num(floorText) ?? NAMED_FLOORS[floorText];
    const item: CrawlItem = {
      platformId: `p${pid}`,
      parentPlatformId: `t${tid}`,
      kind: "reply",
      url: `${base}forum.php?mod=redirect&goto=findpost&ptid=${tid}&pid=${pid}`,
      title: "",
      author: div.find(".authi a.xw1").first().text().trim() || div.find(".authi").first().text().trim(),
      publishedAt,
      html: body.trim(),
      images: imagesIn(body, pageUrl),
      source,
    };
    if (floor !== undefined) item.floor = floor;
    if (page === 1 && index === 0) {
      head = { ...item, platformId: `t${tid}`, parentPlatformId: null, kind: "post", title, url: `${base}forum.php?mod=viewthread&tid=${tid}`, floor: 1 };
    } else {
      replies.push(item);
    }
  });
  const pg = $("div.pg").first();
  const total =
    num(/(\d+)/.exec(pg.find("span[title]").first().attr("title") ?? "")?.[1]) ??
    Math.max(page, ...pg.find("a").map((_i, a) => num($(a).text().replace(/^\.\.\.\s*/, "").trim()) ?? 0).get());
  const result: ParsedThreadPage = { url: pageUrl, replies, pageCount: Math.max(1, total) };
  if (head) result.head = head;
  return result;
}

function tidOf(item: ListItem): string {
  return /[?&]tid=(\d+)/.exec(item.url)?.[1] ?? item.platformId.replace(/^t/, "");
}

/** Discuz! X boards. */
export const discuzAdapter: Adapter = {
  platform: "discuz",
  repliesIncludeHead: true,

  recognise(url: URL): boolean {
    return discuzBoardFromUrl(url) !== null;
  },

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const { base, fid } = boardOf(ctx);
    for (let page = 1; ; page++) {
      const res = await ctx.fetch.get(`${base}forum.php?mod=forumdisplay&fid=${fid}&page=${page}`, { kind: "list" });
      const { items, nextUrl } = parseDiscuzList(res.body, `${base}forum.php?mod=forumdisplay&fid=${fid}&page=${page}`, ctx.now);
      if (items.length === 0) return;
      yield { url: res.url, items, orderedByActivity: true };
      if (!nextUrl) return;
    }
  },

  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const { base } = boardOf(ctx);
    const tid = tidOf(item);
    const url = `${base}forum.php?mod=viewthread&tid=${tid}&page=1`;
    const res = await ctx.fetch.get(url, { kind: "item" });
    const page = parseDiscuzThread(res.body, url, tid, 1, ctx.now);
    if (!page.head) throw new NonRetryableError(`Discuz! thread ${tid} has no first post`, res.url);
    return page.head;
  },

  replies(ctx: AdapterContext, thread: ListItem, since: Date | null): AsyncIterable<ThreadPage> {
    const { base } = boardOf(ctx);
    const tid = tidOf(thread);
    return walkThreadPages(since, async (page) => {
      const url = `${base}forum.php?mod=viewthread&tid=${tid}&page=${page}`;
      const res = await ctx.fetch.get(url, { kind: "item" });
      return parseDiscuzThread(res.body, url, tid, page, ctx.now);
    });
  },
};

/**
 * The mobile API's thread list (`api/mobile/index.php?version=4&module=forumdisplay&fid=…`):
 * `Variables.forum_threadlist[]` with unix-second `dbdateline`/`dblastpost`. Boards that expose
 * it give exact times (the HTML list shows only days for older threads).
 * @param base the board directory URL ("https://bbs.example.edu.cn/bbs/"), for item links
 */
export function parseDiscuzMobileThreadList(json: string | unknown, base: string, now: Date): { items: ListItem[]; page: number; perPage: number } {
  let data: unknown = json;
  if (typeof json === "string") {
    try {
      data = JSON.parse(json) as unknown;
    } catch {
      throw new NonRetryableError("Discuz! mobile API: not JSON");
    }
  }
  const vars = rec(dig(data, "Variables"));
  if (!vars) throw new NonRetryableError("Discuz! mobile API: no Variables (error or login page?)");
  const items: ListItem[] = [];
  for (const row of arr(vars["forum_threadlist"])) {
    const t = rec(row);
    const tid = str(t?.["tid"]);
    if (!t || !tid) continue;
    const published = str(t["dbdateline"]) ?? str(t["dateline"]);
    if (!published) continue;
    const last = str(t["dblastpost"]) ?? str(t["lastpost"]);
    const replies = num(t["replies"]) ?? 0;
    const publishedAt = parseDiscuzDate(published, now);
    items.push({
      platformId: `t${tid}`,
      kind: "post",
      url: `${base}forum.php?mod=viewthread&tid=${tid}`,
      title: str(t["subject"]) ?? "",
      author: str(t["author"]) ?? "",
      publishedAt,
      html: "",
      pinned: (num(t["displayorder"]) ?? 0) > 0,
      incomplete: true,
      hasReplies: replies > 0,
      replyCount: replies,
      lastActivityAt: (last ? tryParsePlatformDate(last, now, "discuz") : null) ?? publishedAt,
    });
  }
  return { items, page: num(vars["page"]) ?? 1, perPage: num(vars["tpp"]) ?? items.length };
}
