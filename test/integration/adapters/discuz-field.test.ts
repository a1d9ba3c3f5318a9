/**
 * The Discuz! adapter through the real worker into a real database: a GBK board end to end
 * (crawl → store → dashboard search → export), 点评 stored as replies to their floor, unreadable
 * fields recorded as run warnings while the page is stored, and unchanged re-crawls.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exportFilteredPosts } from "../../../server/export";
import { listPostsPage } from "../../../server/posts";
import { addDiscuzComment } from "../../support/platforms/discuz";
import { crawlFixture, type CrawlFixture } from "../crawl/support";

const MINUTE = 60_000;

async function exported(f: CrawlFixture, q: string): Promise<Record<string, unknown>[]> {
  let text = "";
  for await (const chunk of exportFilteredPosts(f.t.db, "jsonl", { flagged: false, q })) text += chunk;
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("a GBK Discuz! board end to end", () => {
  let f: CrawlFixture;
  let tid = "";
  let headPid = "";
  let replyPid = "";

  beforeAll(async () => {
    f = await crawlFixture({
      seed: 31,
      accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 },
      postsPerAccount: 4,
      repliesPerPost: [0, 3],
      discuzEncoding: "gbk",
    });
    const { site } = f;
    site.clock.advance(10 * MINUTE);
    // 喆 and 堃 are in GBK but not in GB2312: a decoder that stops at GB2312 loses them.
    const post = site.addPost("discuz-1", { title: "图书馆空调坏了", text: "三楼阅览室闷热难耐，已经一周了", author: "王喆" });
    site.clock.advance(5 * MINUTE);
    const reply = site.addReply(post.id, { text: "四楼自习室也一样", author: "陈堃" });
    site.clock.advance(5 * MINUTE);
    addDiscuzComment(site.model, reply.id, { author: "刘喆", text: "报修电话打不通" });
    site.clock.advance(MINUTE);
    tid = post.id;
    headPid = post.headId;
    replyPid = reply.id;
  });
  afterAll(async () => f?.close());

  test("the bytes on the wire are GBK", async () => {
    const raw = await globalThis.fetch(`${f.site.origin}/bbs/forum.php?mod=viewthread&tid=${tid}&page=1`);
    expect(raw.headers.get("content-type")).toContain("charset=gbk");
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.toString("utf8")).not.toContain("王喆");
    expect(headPid).not.toBe("");
  });

  test("crawl stores GBK names and text; search finds it; export names the authors", async () => {
    const run = await f.crawl("discuz-1");
    expect(run.errors).toEqual([]);
    expect(run.status).toBe("ok");
    expect(run.warnings).toEqual([]);

    const stored = await f.stored("discuz-1");
    expect(stored.get(`t${tid}`)).toMatchObject({ title: "图书馆空调坏了", kind: "post" });
    expect(stored.get(`t${tid}`)!.text).toContain("三楼阅览室闷热难耐");
    expect(stored.get(`p${replyPid}`)).toMatchObject({ parentPlatformId: `t${tid}`, text: "四楼自习室也一样" });
    const comment = [...stored.values()].find((r) => r.text === "报修电话打不通");
    expect(comment).toMatchObject({ kind: "reply", parentPlatformId: `p${replyPid}` });

    // Dashboard search (the posts list with a query) on a Chinese word from the GBK page.
    const page = await listPostsPage(f.t.db, { flagged: false, q: "阅览室" });
    expect(page.rows.map((r) => [r.title, r.author])).toContainEqual(["图书馆空调坏了", "王喆"]);
    expect((await listPostsPage(f.t.db, { flagged: false, q: "报修电话" })).rows.map((r) => r.author)).toContain("刘喆");
    const byName = await f.t.db.post.findMany({ where: { author: { in: ["王喆", "陈堃", "刘喆"] } }, select: { author: true, authorId: true } });
    expect(byName.map((r) => r.author).sort()).toEqual(["刘喆", "王喆", "陈堃"].sort());
    expect(byName.every((r) => r.authorId && /^\d+$/.test(r.authorId))).toBe(true);

    // Export of the searched list: names intact, the comment under its floor.
    const head = (await exported(f, "阅览室")).find((r) => r.platformId === `t${tid}`);
    expect(head).toMatchObject({ title: "图书馆空调坏了", author: "王喆", platform: "discuz" });
    const rows = await exported(f, "报修电话");
    expect(rows.find((r) => r.text === "报修电话打不通")).toMatchObject({ author: "刘喆", parentPlatformId: `p${replyPid}`, kind: "reply" });
  });

  test("three unchanged crawls: nothing new, nothing changed", async () => {
    for (let k = 0; k < 3; k++) {
      f.site.clock.advance(30 * MINUTE);
      const run = await f.crawl("discuz-1");
      expect(run.status).toBe("ok");
      expect([run.newPosts, run.changedPosts]).toEqual([0, 0]);
    }
    const versions = await f.t.db.post.findMany({ where: { accountId: f.ids.get("discuz-1")! }, select: { version: true } });
    expect(versions.every((v) => v.version === 1)).toBe(true);
  });

  test("a new 点评 is picked up as a reply to its floor when the thread is read again", async () => {
    f.site.clock.advance(MINUTE);
    addDiscuzComment(f.site.model, headPid, { author: "王喆", text: "楼主补充：已经报给后勤了" });
    // A new floor makes the list show newer activity, so the thread is opened again.
    f.site.clock.advance(MINUTE);
    f.site.addReply(tid, { text: "今天修好了", author: "陈堃" });
    f.site.clock.advance(MINUTE);
    const run = await f.crawl("discuz-1");
    expect(run.status).toBe("ok");
    const stored = await f.stored("discuz-1");
    // The head floor's comments answer the thread post itself (t{tid} is floor 1).
    expect([...stored.values()].find((r) => r.text === "楼主补充：已经报给后勤了")).toMatchObject({ parentPlatformId: `t${tid}`, kind: "reply" });
  });
});

describe("one bad field never loses a page (through the worker)", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({ seed: 32, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 2, repliesPerPost: [0, 0] });
  });
  afterAll(async () => f?.close());

  test("an unreadable floor date is a run warning with the URL and raw text; the floor is stored with the best date", async () => {
    const { site } = f;
    site.clock.advance(10 * MINUTE);
    const post = site.addPost("discuz-1", { title: "选课系统崩了", text: "一直转圈" });
    site.clock.advance(3 * MINUTE);
    const r1 = site.addReply(post.id, { text: "我也是" });
    site.clock.advance(3 * MINUTE);
    const r2 = site.addReply(post.id, { text: "刷新试试" });
    site.clock.advance(MINUTE);
    const path = `/bbs/forum.php?mod=viewthread&tid=${post.id}&page=1`;
    const page = await (await globalThis.fetch(site.origin + path)).text();
    // A theme that prints something unreadable where the second reply's date belongs.
    const broken = page.replace(new RegExp(`(<em id="authorposton${r2.id}">)[^]*?(</em>)`), "$1时间：未知$2");
    expect(broken).not.toBe(page);
    site.fault(path, { type: "body", body: broken });

    const run = await f.crawl("discuz-1");
    expect(run.errors).toEqual([]);
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatchObject({
      url: site.origin + path,
      field: "date",
      raw: "时间：未知",
      reason: `floor ${r2.id}: used the previous floor's date`,
    });
    const stored = await f.stored("discuz-1");
    expect(stored.get(`p${r2.id}`)).toMatchObject({ text: "刷新试试" });
    expect(stored.get(`p${r2.id}`)!.publishedAt.getTime()).toBe(Math.floor(r1.publishedAt.getTime() / MINUTE) * MINUTE);
    const row = await f.t.db.crawlRun.findUnique({ where: { id: run.runId } });
    expect(row!.warningCount).toBe(1);
    expect((JSON.parse(row!.warnings ?? "[]") as unknown[])[0]).toMatchObject({ field: "date", raw: "时间：未知" });
  });
});
