/**
 * Local m.weibo.cn search: `/api/container/getIndex?containerid=100103type={t}&q={word}
 * &page_type=searchall&page={n}` over every local Weibo account. Type 61 (实时) answers newest
 * first; other types in a fixed relevance order, with page 1's first hit inside a type 11
 * `card_group` (behind a user card without an mblog), as the real 综合 tab groups hot posts.
 * `data.cardlistInfo.page` is the next page, null on the last.
 */
import type { LocalPost, PlatformModel } from "./model";
import { weiboRfc } from "./format";
import { json, type PageSizes } from "./responses";
import { byRelevance, byTime, hitsFor, type SearchRouted } from "./search-shared";

const plain = (html: string): string =>
  html
    .replace(/<\/p>\s*<p>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .trim();

function mblog(model: PlatformModel, post: LocalPost): Record<string, unknown> {
  const account = model.account(post.accountKey);
  return {
    created_at: weiboRfc(post.publishedAt),
    id: post.id,
    idstr: post.id,
    mid: post.id,
    text: plain(post.html).replace(/\n/g, "<br />"),
    user: { id: Number(account.slug), screen_name: account.name },
    reposts_count: 0,
    comments_count: model.visibleReplies(post).length,
    attitudes_count: 0,
    isLongText: false,
    mblogtype: 0,
    pics: [],
  };
}

/** Answer a search request (any local Weibo account's posts containing the word). */
export function routeWeiboSearch(model: PlatformModel, url: URL, sizes: PageSizes): SearchRouted {
  const m = /^100103type=(\d+)&q=(.*)$/.exec(url.searchParams.get("containerid") ?? "");
  const type = m?.[1] ?? "1";
  const word = (m?.[2] ?? "").trim();
  const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
  const accounts = model.accounts.filter((a) => a.platform === "weibo");
  const all = hitsFor(model, accounts, word, false);
  const ordered = type === "61" ? byTime(all) : byRelevance(all);
  const shown = ordered.slice((page - 1) * sizes.weibo, page * sizes.weibo);
  if (shown.length === 0)
    return {
      rendered: json({ ok: 0, msg: "这里还没有内容", data: { cards: [] } }),
      platform: "weibo",
      accountKey: null,
      kind: "list",
    };
  const cards: unknown[] = shown.map((h) => ({
    card_type: 9,
    itemid: `seqid:${h.post.id}`,
    mblog: mblog(model, h.post),
  }));
  if (type !== "61" && page === 1) {
    const first = cards.shift();
    cards.unshift({
      card_type: 11,
      card_group: [{ card_type: 10, user: { id: 1, screen_name: `${word}相关用户` } }, first],
    });
  }
  const last = page * sizes.weibo >= ordered.length;
  return {
    rendered: json({
      ok: 1,
      data: {
        cardlistInfo: {
          containerid: `100103type=${type}&q=${word}`,
          page_type: "searchall",
          page: last ? null : page + 1,
        },
        cards,
      },
    }),
    platform: "weibo",
    accountKey: null,
    kind: "list",
  };
}
