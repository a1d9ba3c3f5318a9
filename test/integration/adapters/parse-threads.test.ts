/**
 * crawler/parse/off-thread.ts runs the adapters' page parsers on a worker thread. The parser run
 * inline is its definition: on a parse thread every parser must give the same value, the same
 * warnings in the same order and the same error (class, message, fields), for every page, the
 * local sites' (Discuz! UTF-8 and GBK-served, Tieba, blog list and article pages) and the real
 * captures in ../shared (skipped, with a warning, when absent). Pages that are not the parser's
 * kind are passed too, so the errors cross threads as well. Also: the page's own string comes
 * back as each item's source, a stopped thread loses no request, and what cannot be sent is
 * parsed inline.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advertisedFeedsIn, readFeed } from "../../../crawler/adapters/blog/feed";
import { parseBlogListing, readBlogArticle } from "../../../crawler/adapters/blog/page";
import { archiveSource, archiveSync, flushArchive, readArchived } from "../../../crawler/archive";
import { parseDiscuzCommentMore, parseDiscuzList, parseDiscuzThread, type DiscuzCommentFloor } from "../../../crawler/adapters/discuz/pages";
import { parseListPage } from "../../../crawler/adapters/tieba";
import { parseTiebaThread } from "../../../crawler/adapters/tieba/thread";
import { failParseThreadForTests, offThread, parseThreadCount, parseThreadStats, stopParseThreads, type ParserName } from "../../../crawler/parse/off-thread";
import { enableParseThreads } from "../../../crawler/parse/thread";
import { parsers, type Parsers } from "../../../crawler/parse/parsers";
import type { FieldWarning, ListItem } from "../../../crawler/types";
import { addDiscuzComment } from "../../support/platforms/discuz";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms/server";
import { REAL_DIR, readReal, realAvailable } from "../../unit/adapters/helpers";

const NOW = new Date("2026-11-30T12:00:00Z");
let site: LocalPlatforms;
const pages: { name: string; url: string; html: string }[] = [];

beforeAll(async () => {
  site = await startLocalPlatforms({ seed: 31, accounts: { weibo: 0, tieba: 1, discuz: 2, blog: 1 }, postsPerAccount: 8, repliesPerPost: [0, 14] });
  site.setEncoding(site.accounts.find((a) => a.platform === "discuz")!.key, "gbk");
  // A floor with more 点评 than its thread page shows: its commentmore page 2 is one of the pages.
  const commented = site.account(site.accounts.filter((a) => a.platform === "discuz")[1]!.key).posts[0]!;
  for (let k = 0; k < 7; k++) addDiscuzComment(site.model, commented.headId, { author: `点评人${k % 3}`, text: `第${k}条点评` });
  const more = `${site.origin}/bbs/forum.php?mod=misc&action=commentmore&tid=${commented.id}&pid=${commented.headId}&page=2&inajax=1`;
  pages.push({ name: "discuz commentmore page 2", url: more, html: await (await fetch(more)).text() });
  for (const a of site.accounts) {
    const entry = site.entryUrl(a.key);
    const res = await fetch(entry);
    // The GBK board is read as the crawler reads it (decoded); the parsers take strings.
    const list = new TextDecoder(/gbk/i.test(res.headers.get("content-type") ?? "") ? "gbk" : "utf-8").decode(await res.arrayBuffer());
    pages.push({ name: `${a.key} list`, url: entry, html: list });
    if (a.platform === "blog")
      for (const name of ["feed/", "atom.xml"]) {
        const r = await fetch(new URL(name, entry));
        if (r.ok) pages.push({ name: `${a.key} ${name}`, url: new URL(name, entry).href, html: await r.text() });
      }
    const links = [...list.matchAll(/href="([^"]*(?:viewthread|\/p\/\d+|\/blog\/[^"/]+\/[^"/]+)[^"]*)"/g)]
      .map((m) => new URL(m[1]!.replace(/&amp;/g, "&"), entry).href)
      .filter((u) => u !== entry)
      .slice(0, 3);
    for (const url of links) {
      const r = await fetch(url);
      pages.push({
        name: `${a.key} ${url}`,
        url,
        html: new TextDecoder(/gbk/i.test(r.headers.get("content-type") ?? "") ? "gbk" : "utf-8").decode(await r.arrayBuffer()),
      });
    }
  }
  if (realAvailable)
    for (const n of fs.readdirSync(REAL_DIR).filter((f) => /\.(html|xml)$/.test(f)))
      pages.push({ name: n, url: `https://example.edu.cn/${n}`, html: readReal(n) });
  else console.warn(`[parse-threads] real captures not found at ${REAL_DIR}: only the local sites' pages are compared`);
});
afterAll(async () => {
  await stopParseThreads();
  await site?.close();
});

type Outcome = { value?: unknown; error?: { cls: unknown; name: string; message: string; fields: Record<string, unknown> }; warnings: FieldWarning[] };

/** The arguments each parser gets for a page (a `warn` that records into `warnings`). */
type PageParser = Exclude<ParserName, "archive">;
const PAGE_PARSERS: PageParser[] = [
  "discuzList",
  "discuzThread",
  "discuzCommentMore",
  "tiebaList",
  "tiebaThread",
  "blogListing",
  "blogArticle",
  "blogFeed",
  "blogFeedLinks",
];

function argsFor(name: PageParser, page: { url: string; html: string }, warnings: FieldWarning[]): unknown[] {
  const warn = (w: FieldWarning) => warnings.push(w);
  const fallback: ListItem = {
    platformId: "p1",
    kind: "post",
    url: page.url,
    title: "列表里的标题",
    author: "列表作者",
    publishedAt: new Date("2026-11-01T08:00:00Z"),
    html: "<p>列表摘要</p>",
    images: [],
    textIncomplete: true,
  };
  switch (name) {
    case "discuzList":
      return [page.html, page.url, NOW, { warn }];
    case "discuzThread":
      return [page.html, page.url, "7", 1, NOW, { warn, thread: { title: "列表里的标题", author: "列表作者", publishedAt: fallback.publishedAt } }];
    case "discuzCommentMore": {
      const floor: DiscuzCommentFloor = {
        tid: "7",
        pid: "70",
        parentPlatformId: "t7",
        url: page.url,
        floorDate: fallback.publishedAt,
        nextPage: 2,
        seen: { "c70-1003-1": ["已读的点评"] },
      };
      return [page.html, page.url, floor, 2, NOW, { warn }];
    }
    case "tiebaList":
      return [page.html, page.url, NOW, true];
    case "tiebaThread":
      return [page.html, page.url, "9", NOW, { warn, fallbackDate: fallback.publishedAt, fallbackAuthor: "列表作者" }];
    case "blogListing":
      return [page.html, page.url, NOW, { warn, siteNames: new Set(["某某的博客"]) }];
    case "blogArticle":
      return [page.html, page.url, NOW, fallback, { warn, siteNames: ["某某的博客"] }];
    case "blogFeed":
      // The feed reader takes its warn callback as an argument of its own.
      return [page.html, page.url, NOW, warn];
    case "blogFeedLinks":
      return [page.html];
  }
}

async function outcome(name: PageParser, page: { url: string; html: string }): Promise<Outcome> {
  const warnings: FieldWarning[] = [];
  const args = argsFor(name, page, warnings) as Parameters<Parsers[typeof name]>;
  try {
    const value = await (offThread as (n: ParserName, f: unknown, ...a: unknown[]) => Promise<unknown>)(name, parsers[name], ...args);
    return { value, warnings };
  } catch (e) {
    const err = e as Error;
    const fields = Object.fromEntries(Object.entries(err));
    return { error: { cls: err.constructor, name: err.name, message: err.message, fields }, warnings };
  }
}

/** Every `source` in a parsed value. */
function sources(value: unknown, out: { url: string; body: string }[] = []): { url: string; body: string }[] {
  if (Array.isArray(value)) for (const v of value) sources(v, out);
  else if (value && typeof value === "object" && !(value instanceof Date))
    for (const [k, v] of Object.entries(value)) {
      if (k === "source" && v && typeof v === "object") out.push(v as { url: string; body: string });
      else sources(v, out);
    }
  return out;
}

describe("the registry", () => {
  it("names the functions the adapters pass", () => {
    expect(parsers).toEqual({
      discuzList: parseDiscuzList,
      discuzThread: parseDiscuzThread,
      discuzCommentMore: parseDiscuzCommentMore,
      tiebaList: parseListPage,
      tiebaThread: parseTiebaThread,
      blogListing: parseBlogListing,
      blogArticle: readBlogArticle,
      blogFeed: readFeed,
      blogFeedLinks: advertisedFeedsIn,
      archive: archiveSync,
    });
    expect(Object.keys(parsers).filter((n) => n !== "archive")).toEqual(PAGE_PARSERS);
    // Every offThread call in the adapters names a parser with its own function.
    const calls = [
      "crawler/adapters/discuz/index.ts",
      "crawler/adapters/discuz/comments.ts",
      "crawler/adapters/tieba/index.ts",
      "crawler/adapters/blog/index.ts",
    ].flatMap((f) => [...fs.readFileSync(f, "utf8").matchAll(/offThread\("(\w+)", (\w+)/g)]);
    expect(calls.length).toBeGreaterThanOrEqual(9);
    const expected: Record<string, string> = {
      discuzList: "parseDiscuzList",
      discuzThread: "parseDiscuzThread",
      discuzCommentMore: "parseDiscuzCommentMore",
      tiebaList: "parseListPage",
      tiebaThread: "parseTiebaThread",
      blogListing: "parseBlogListing",
      blogArticle: "readBlogArticle",
      blogFeed: "readFeed",
      blogFeedLinks: "advertisedFeedsIn",
    };
    for (const [, name, fn] of calls) expect(fn, name).toBe(expected[name!]);
  });
});

describe("on a parse thread, every parser gives what it gives inline", () => {
  it("values, warnings and errors, for every page and every parser", async () => {
    expect(pages.length).toBeGreaterThan(12);
    expect(pages.filter((p) => /feed\/|\.xml$/.test(p.name)).length).toBeGreaterThan(0);
    const names = PAGE_PARSERS;
    await stopParseThreads();
    expect(parseThreadCount()).toBe(0);
    const inline = new Map<string, Outcome>();
    for (const page of pages) for (const name of names) inline.set(`${page.name} ${name}`, await outcome(name, page));

    enableParseThreads(1);
    expect(parseThreadCount()).toBe(1);
    const before = parseThreadStats();
    let values = 0;
    let errors = 0;
    let warned = 0;
    // All at once, as a crawl's accounts send them: replies must find their own requests.
    const threaded = await Promise.all(pages.flatMap((page) => names.map(async (name) => [`${page.name} ${name}`, await outcome(name, page), page] as const)));
    for (const [key, got, page] of threaded) {
      const want = inline.get(key)!;
      expect(got.warnings, key).toEqual(want.warnings);
      if (want.error) {
        errors++;
        expect(got.error, key).toEqual(want.error);
      } else {
        values++;
        expect(got.value, key).toEqual(want.value);
        // The page comes back as the caller's own string, not a copy.
        for (const s of sources(got.value)) if (s.url === page.url) expect(s.body === page.html, key).toBe(true);
      }
      if (want.warnings.length > 0) warned++;
    }
    // The comparison covered each kind of outcome.
    expect(values).toBeGreaterThan(pages.length);
    expect(errors).toBeGreaterThan(pages.length);
    expect(warned).toBeGreaterThan(0);
    // And the worker answered them all (none fell back to this thread).
    expect(parseThreadCount()).toBe(1);
    expect(parseThreadStats()).toEqual({ answered: before.answered + threaded.length, fellBack: before.fellBack });
  });
});

describe("nothing is lost", () => {
  it("requests out when the thread stops are parsed here", async () => {
    enableParseThreads(1);
    const page = pages.find((p) => /^discuz.* http/.test(p.name))!;
    const want = await outcome("discuzThread", { ...page });
    await stopParseThreads();
    enableParseThreads(1);
    const before = parseThreadStats();
    const out = Array.from({ length: 20 }, () => outcome("discuzThread", page));
    // Stopped with the requests out: they are answered all the same.
    await stopParseThreads();
    const after = parseThreadStats();
    expect(after.answered - before.answered + after.fellBack - before.fellBack).toBe(20);
    expect(after.fellBack).toBeGreaterThan(before.fellBack);
    expect(parseThreadCount()).toBe(0);
    for (const got of await Promise.all(out)) expect(got).toEqual(want);
  });

  it("a warn callback passed as an argument of its own reports the same warnings", async () => {
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>某某的博客</title>` +
      `<item><title>读不出日期</title><link>https://blog.example.edu.cn/a/</link><pubDate>上周某天</pubDate><description>摘要</description></item>` +
      `<item><title>第二篇</title><link>https://blog.example.edu.cn/b/</link><pubDate>Tue, 01 Dec 2026 08:00:00 +0800</pubDate><description>摘要二</description></item>` +
      `</channel></rss>`;
    const here: FieldWarning[] = [];
    const want = readFeed(xml, "https://blog.example.edu.cn/feed/", NOW, (w) => here.push(w));
    enableParseThreads(1);
    const there: FieldWarning[] = [];
    const got = await offThread("blogFeed", readFeed, xml, "https://blog.example.edu.cn/feed/", NOW, (w) => there.push(w));
    expect(here.length).toBeGreaterThan(0);
    expect(there).toEqual(here);
    expect(got).toEqual(want);
  });

  it("a thread that fails has its requests parsed here, and is started again", async () => {
    enableParseThreads(1);
    const page = pages.find((p) => /^tieba.* list$/.test(p.name))!;
    const want = await outcome("tiebaList", page);
    expect(want.error).toBeUndefined();
    const before = parseThreadStats();
    failParseThreadForTests();
    const out = await Promise.all(Array.from({ length: 10 }, () => outcome("tiebaList", page)));
    for (const got of out) expect(got).toEqual(want);
    const after = parseThreadStats();
    expect(after.fellBack).toBeGreaterThan(before.fellBack);
    expect(after.answered - before.answered + after.fellBack - before.fellBack).toBe(10);
    // The next request starts a thread again, which answers it.
    expect(await outcome("tiebaList", page)).toEqual(want);
    expect(parseThreadCount()).toBe(1);
    expect(parseThreadStats().answered).toBe(after.answered + 1);
  });

  it("an option that cannot be sent is parsed here", async () => {
    enableParseThreads(1);
    const page = pages.find((p) => /^blog.* list$/.test(p.name))!;
    const warnings: FieldWarning[] = [];
    // A generator is iterable (siteNames takes any) but cannot be cloned.
    function* names() {
      yield "某某的博客";
    }
    const got = await offThread("blogListing", parseBlogListing, page.html, page.url, NOW, { warn: (w) => warnings.push(w), siteNames: names() });
    const want = parseBlogListing(page.html, page.url, NOW, { siteNames: ["某某的博客"] });
    expect(got).toEqual(want);
    expect(got.items.length).toBeGreaterThan(0);
    expect(parseThreadCount()).toBe(1);
  });

  it("the archive writes the same file from a parse thread as here", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-parse-archive-"));
    try {
      const page = pages.find((p) => /^tieba.* list$/.test(p.name))!;
      await stopParseThreads();
      const here = await archiveSource(path.join(dir, "here"), 3, { url: page.url, body: page.html });
      await flushArchive();
      enableParseThreads(1);
      const before = parseThreadStats();
      const there = await archiveSource(path.join(dir, "there"), 3, { url: page.url, body: page.html });
      await flushArchive();
      expect(parseThreadStats().answered).toBe(before.answered + 1);
      expect(there).toBe(here);
      expect(here).toMatch(/^3\/[0-9a-f]{40}\.json\.gz$/);
      const [a, b] = [await readArchived(path.join(dir, "here"), here!), await readArchived(path.join(dir, "there"), there!)];
      expect(b.body === page.html && a.body === page.html && b.url === a.url).toBe(true);
      // Written once: the same source again finds its file.
      expect(archiveSync(path.join(dir, "there"), 3, page.url, page.html)).toBe(there);
      // An archive folder that cannot be made: nothing thrown, nothing written.
      fs.writeFileSync(path.join(dir, "file"), "");
      expect(archiveSync(path.join(dir, "file"), 4, page.url, page.html)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
