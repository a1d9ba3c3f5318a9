/**
 * `campuswatch parse` as a user runs it (a real process): pages and API answers saved from the
 * local platforms, and the real captures when ../shared is there, read by the adapters' own
 * parsers, printed as JSON Lines with the export's keys and a closing warnings line.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAdapter } from "../../crawler/adapters";
import { PLATFORMS } from "../../lib/platforms";
import { htmlToText } from "../../crawler/text";
import { runCli } from "../support/cli";
import { startLocalPlatforms, type LocalPlatforms, type LocalPost } from "../support/platforms";
import { readReal, REAL_DIR, realAvailable } from "../unit/adapters/helpers";

let dir = "";
const env = { ...process.env };

/** Run the CLI without blocking this process (the local platform server answers from it). */
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });

/** The printed records and the closing warnings of a successful run. */
type Parsed = { records: Record<string, unknown>[]; warnings: Record<string, unknown>[] };

/** Parse a `parse` run's output; fails the test when the run did not succeed or the last line is not the warnings. */
function output(r: { code: number | null; out: string; err: string }): Parsed {
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  const lines = r.out
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = lines.pop()!;
  expect(Object.keys(last)).toEqual(["warnings"]);
  return { records: lines, warnings: last.warnings as Record<string, unknown>[] };
}

/** The export's keys, in its order (server/export.ts EXPORT_FIELDS from platformId to text). */
const KEYS = ["platformId", "parentPlatformId", "kind", "url", "title", "author", "authorId", "publishedAt", "text"];

describe("campuswatch parse on pages of the local platforms", () => {
  let site: LocalPlatforms;
  let now: string;

  /** Save what the local site answers at `pathAndQuery` as a file, and return the file and its URL. */
  async function save(name: string, pathAndQuery: string): Promise<{ file: string; url: string }> {
    const url = new URL(pathAndQuery, site.origin).href;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return { file, url };
  }

  /** An account's visible post with between `min` and `max` replies (one thread page holds them all). */
  function postWithReplies(key: string, min: number, max: number): LocalPost {
    const post = site.account(key).posts.find((p) => !p.removed && p.replies.length >= min && p.replies.length <= max);
    expect(post, `${key} has a post with ${min}–${max} replies`).toBeDefined();
    return post!;
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-parse-"));
    site = await startLocalPlatforms({
      seed: 34,
      accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2, wechat: 1 },
      postsPerAccount: 12,
      repliesPerPost: [1, 6],
      pageSizes: { weibo: 5 },
    });
    now = site.clock.now().toISOString();
  });
  afterAll(async () => {
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("--help lists every platform's kinds, as its adapter declares them", async () => {
    const r = await cw("parse", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: campuswatch parse/);
    for (const platform of PLATFORMS) {
      const kinds = getAdapter(platform).captureKinds ?? [];
      expect(kinds.length, platform).toBeGreaterThan(0);
      const block = new RegExp(`^  ${platform}:\\n((?:    .*\\n)+)`, "m").exec(r.out)?.[1] ?? "";
      expect(
        block
          .split("\n")
          .filter(Boolean)
          .map((l) => l.trim().split(/\s+/)[0]),
        platform,
      ).toEqual(kinds.map((k) => k.kind));
    }
    expect(r.out).toMatch(/^ {4}list +a bar's thread list/m);
  });

  it("a Tieba thread page: the head post and its floors, each reply under the thread, kind guessed", async () => {
    const post = postWithReplies("tieba-1", 2, 6);
    const { file, url } = await save("thread.html", `/p/${post.id}`);
    const { records, warnings } = output(await cw("parse", file, "--platform", "tieba", "--url", url, "--now", now));
    expect(warnings).toEqual([]);
    expect(records.map((r) => Object.keys(r))).toEqual(records.map(() => KEYS));
    const [head, ...replies] = records;
    expect(head).toMatchObject({ platformId: post.id, parentPlatformId: null, kind: "post", title: post.title, author: post.author });
    expect(head!.publishedAt).toBe(post.publishedAt.toISOString().replace(/:\d\d\.\d{3}Z$/, ":00.000Z"));
    const visible = post.replies.filter((r) => !r.removed);
    expect(replies.map((r) => r.platformId)).toEqual(visible.map((r) => site.platformIdOf(r)));
    expect(replies.map((r) => r.author)).toEqual(visible.map((r) => r.author));
    expect(replies.every((r) => r.kind === "reply" && r.parentPlatformId === post.id && String(r.text).length > 0)).toBe(true);

    // Without --url the thread's id is read from the page itself.
    expect(output(await cw("parse", file, "--platform", "tieba", "--now", now)).records.map((r) => r.platformId)).toEqual(records.map((r) => r.platformId));
  });

  it("a Tieba bar's list page: one post per thread row", async () => {
    const { file, url } = await save("list.html", site.entryUrl("tieba-1").replace(site.origin, ""));
    const { records } = output(await cw("parse", file, "--platform", "tieba", "--url", url, "--now", now));
    const ids = new Set(site.account("tieba-1").posts.map((p) => site.platformIdOf(p)));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => ids.has(String(r.platformId)) && r.kind === "post")).toBe(true);
  });

  it("Weibo's timeline and hotflow answers: posts, then the comments under their post", async () => {
    const uid = site.account("weibo-1").slug;
    const timeline = await save("timeline.json", `/api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}`);
    const { records } = output(await cw("parse", timeline.file, "--platform", "weibo", "--url", timeline.url, "--now", now));
    // A page of five, and the pinned post above them.
    expect(records).toHaveLength(6);
    const posts = new Map(site.account("weibo-1").posts.map((p) => [site.platformIdOf(p), p]));
    for (const r of records) expect(posts.get(String(r.platformId))?.author).toBe(r.author);

    const post = postWithReplies("weibo-1", 1, 6);
    const hotflow = await save("hotflow.json", `/comments/hotflow?id=${post.id}&mid=${post.id}&max_id_type=0`);
    const comments = output(await cw("parse", hotflow.file, "--platform", "weibo", "--kind", "comments", "--url", hotflow.url, "--now", now));
    expect(comments.warnings).toEqual([]);
    expect(comments.records.map((r) => r.platformId).sort()).toEqual(post.replies.map((r) => site.platformIdOf(r)).sort());
    expect(comments.records.every((r) => r.kind === "reply" && r.parentPlatformId === post.id)).toBe(true);
  });

  it("a Discuz! viewthread page and forumdisplay page", async () => {
    const post = postWithReplies("discuz-1", 1, 6);
    const thread = await save("viewthread.html", `/bbs/forum.php?mod=viewthread&tid=${post.id}`);
    const { records } = output(await cw("parse", thread.file, "--platform", "discuz", "--url", thread.url, "--now", now));
    expect(records[0]).toMatchObject({ platformId: site.platformIdOf(post), kind: "post", title: post.title, author: post.author });
    expect(records.slice(1).map((r) => r.platformId)).toEqual(post.replies.map((r) => site.platformIdOf(r)));
    const list = await save("forumdisplay.html", site.entryUrl("discuz-1").replace(site.origin, ""));
    const listed = output(await cw("parse", list.file, "--platform", "discuz", "--kind", "list", "--url", list.url, "--now", now)).records;
    expect(listed.map((r) => r.platformId)).toContain(site.platformIdOf(post));
  });

  it("a blog's feed, listing page and article page", async () => {
    const blogs = site.accounts.filter((a) => a.platform === "blog");
    const withFeed = blogs.find((a) => a.hasFeed)!;
    const feed = await save("feed.xml", `/blog/${withFeed.slug}/feed/`);
    const fromFeed = output(await cw("parse", feed.file, "--platform", "blog", "--url", feed.url, "--now", now)).records;
    const ids = new Set(withFeed.posts.map((p) => site.platformIdOf(p)));
    expect(fromFeed.length).toBeGreaterThan(0);
    expect(fromFeed.every((r) => ids.has(String(r.platformId)))).toBe(true);

    const other = blogs.find((a) => !a.hasFeed)!;
    const listing = await save("listing.html", `/blog/${other.slug}/`);
    const listed = output(await cw("parse", listing.file, "--platform", "blog", "--kind", "listing", "--url", listing.url, "--now", now)).records;
    expect(listed.length).toBeGreaterThan(0);
    const first = other.posts.find((p) => site.platformIdOf(p) === listed[0]!.platformId)!;
    expect(listed[0]!.title).toBe(first.title);

    const article = await save("article.html", String(listed[0]!.url).replace(site.origin, ""));
    const read = output(await cw("parse", article.file, "--platform", "blog", "--kind", "article", "--url", article.url, "--now", now)).records;
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({ platformId: first && site.platformIdOf(first), title: first.title, kind: "post" });
    expect(read[0]!.text).toBe(htmlToText(first.html));
  });

  it("a WeChat article page: the article; WeChat's removal page: an error naming its notice", async () => {
    const account = site.account("wechat-1");
    const article = account.posts[0]!;
    const page = await save("article-wechat.html", site.entryUrl("wechat-1").replace(site.origin, ""));
    const { records, warnings } = output(await cw("parse", page.file, "--platform", "wechat", "--url", page.url, "--now", now));
    expect(warnings).toEqual([]);
    expect(records).toEqual([
      {
        platformId: site.platformIdOf(article),
        parentPlatformId: null,
        kind: "post",
        url: page.url,
        title: article.title,
        author: account.name,
        authorId: expect.stringMatching(/\S/) as unknown,
        publishedAt: new Date(Math.floor(article.publishedAt.getTime() / 1000) * 1000).toISOString(),
        text: htmlToText(article.html),
      },
    ]);
    site.removePost(article.id);
    const gone = await save("gone-wechat.html", site.entryUrl("wechat-1").replace(site.origin, ""));
    const r = await cw("parse", gone.file, "--platform", "wechat", "--url", gone.url);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/as wechat article: WeChat says the article is gone: 该内容已被发布者删除/);
  });

  it("refuses, in one line and with exit code 1: an unknown platform or kind, a missing file, unreadable input, an ambiguous kind", async () => {
    const html = path.join(dir, "page.html");
    fs.writeFileSync(html, "<html><head><title>登录</title></head><body>请登录</body></html>");
    const cases: [string[], RegExp][] = [
      [[html, "--platform", "myspace"], /unknown --platform "myspace" \(platforms: weibo, tieba/],
      [[html, "--platform", "tieba", "--kind", "feed-space"], /unknown --kind "feed-space" for tieba \(kinds: list, thread\)/],
      [[path.join(dir, "absent.html"), "--platform", "tieba", "--kind", "list"], /cannot read .*absent\.html: ENOENT/],
      [[html, "--platform", "weibo", "--kind", "timeline"], /cannot read .*page\.html as weibo timeline: expected a JSON answer/],
      [[html, "--platform", "tieba", "--kind", "list"], /as tieba list: not a Tieba list page/],
      [[html, "--platform", "blog"], /cannot tell which kind of page this is: give --kind \(blog kinds: feed, listing, article\)/],
      [[html], /missing --platform/],
      [[html, "--platform", "tieba", "--now", "yesterday"], /--now must be a date/],
    ];
    for (const [args, message] of cases) {
      const r = await cw("parse", ...args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.out).toBe("");
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err, args.join(" ")).toMatch(message);
    }
  });
});

describe.skipIf(!realAvailable)(`campuswatch parse on the real captures (${REAL_DIR})`, () => {
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-parse-real-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The CLI on a real capture, by name. */
  const parseReal = (name: string, ...args: string[]) => cw("parse", path.join(REAL_DIR, name), ...args);

  it("the Tieba thread page 9117905169: its first floor and the replies under it, the kind and the id read from the page", async () => {
    const { records, warnings } = output(await parseReal("tieba_thread_detail_pb.html", "--platform", "tieba", "--now", "2024-08-10T00:00:00Z"));
    expect(warnings).toEqual([]);
    expect(records[0]).toMatchObject({ platformId: "9117905169", kind: "post", title: "对于一个父亲来说，这个女儿14岁就死了", author: "章景轩" });
    expect(records[0]!.publishedAt).toBe("2024-08-05T08:56:00.000Z");
    expect(records.length).toBeGreaterThan(10);
    expect(
      records
        .slice(1)
        .every(
          (r) => r.parentPlatformId === "9117905169" && r.url === `https://tieba.baidu.com/p/9117905169?pid=${String(r.platformId)}#${String(r.platformId)}`,
        ),
    ).toBe(true);
  });

  it("the Weibo timeline answer: its ten posts by uid 1669879400", async () => {
    const { records } = output(await parseReal("weibo_m_getIndex_107603_timeline.json", "--platform", "weibo", "--now", "2019-06-20T00:00:00Z"));
    expect(records).toHaveLength(10);
    expect(new Set(records.map((r) => r.authorId))).toEqual(new Set(["1669879400"]));
    expect(records.every((r) => String(r.url).startsWith("https://m.weibo.cn/detail/"))).toBe(true);
  });

  it("the WordPress feed and the Hexo listing: links on the address the file names", async () => {
    const feed = output(await parseReal("wordpress_feed_zh.xml", "--platform", "blog")).records;
    expect(feed).toHaveLength(10);
    expect(feed.every((r) => String(r.url).startsWith("https://zhaoshuai.me/"))).toBe(true);
    const hexo = output(await parseReal("hexo_next_blog_index.html", "--platform", "blog", "--kind", "listing", "--now", "2022-01-22T00:00:00Z")).records;
    expect(hexo).toHaveLength(10);
    expect(hexo[0]!.publishedAt).toBe("2020-10-24T07:01:26.000Z");
  });

  it("the WeChat article of 华商报 and the expired-link page", async () => {
    const { records } = output(await parseReal("newer/wechat_article_huashangbao_2018-04-06.html", "--platform", "wechat"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      platformId: "ODUzMjkwMzYx_2654593305_1",
      title: "4月6日周五【新闻速览一分钟】",
      author: "华商报",
      publishedAt: "2018-04-05T22:56:20.000Z",
    });
    const expired = await parseReal("newer/wechat_article_expired_2018.html", "--platform", "wechat");
    expect(expired.code).toBe(1);
    expect(expired.err).toMatch(/gone: 链接已过期/);
  });

  it("the Tieba list page: the thread rows of 盗墓笔记", async () => {
    expect(readReal("tieba_forum_list_frs.html")).toContain("j_thread_list");
    const { records } = output(await parseReal("tieba_forum_list_frs.html", "--platform", "tieba", "--now", "2024-08-10T00:00:00Z"));
    expect(records.length).toBeGreaterThanOrEqual(45);
    expect(records.every((r) => /^https:\/\/tieba\.baidu\.com\/p\/\d+$/.test(String(r.url)))).toBe(true);
  });
});
