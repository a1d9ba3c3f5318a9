/**
 * Hostile conditions: captcha pages, throttling, slow pages, redirect loops, GBK boards, pinned
 * posts. Each is recorded on the crawl run and never loses or duplicates a post.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import { crawlFixture, type CrawlFixture } from "./support";
import { createTopicWithChannels } from "../../support/topics";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const small = { postsPerAccount: 12, repliesPerPost: [0, 4] as const, weiboDates: "rfc" as const };

async function expectComplete(fx: CrawlFixture, key: string) {
  const stored = await fx.stored(key);
  expect([...stored.keys()].sort()).toEqual([...fx.expected(key).keys()].sort());
}

describe("crawl faults", () => {
  it("a Baidu captcha page is recorded as a block, not parsed as an empty list; the next crawl gets everything", async () => {
    f = await crawlFixture({ seed: 1, accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 }, ...small });
    const fault = f.site.fault("/f?kw=", { type: "captcha" });
    const blocked = await f.crawl("tieba-1");
    expect(blocked.status).toBe("failed");
    expect(blocked.blocks).toBe(1);
    expect(blocked.errors[0]!.kind).toBe("BlockedError");
    expect(blocked.errors[0]!.reason).toMatch(/百度安全验证|captcha|verification/i);
    expect(await f.t.db.post.count()).toBe(0);
    const account = await f.t.db.account.findUniqueOrThrow({ where: { id: f.ids.get("tieba-1")! } });
    expect(account.status).toBe("blocked");
    expect(await f.t.db.historyMark.count()).toBe(0);
    const run = await f.t.db.crawlRun.findUniqueOrThrow({ where: { id: blocked.runId } });
    expect(run).toMatchObject({ status: "failed", blocks: 1, errorCount: 1 });

    fault.clear();
    const ok = await f.crawl("tieba-1");
    expect(ok.status).toBe("ok");
    await expectComplete(f, "tieba-1");
  });

  it("418 then success: the request is retried and nothing is lost", async () => {
    f = await crawlFixture({ seed: 2, accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 }, ...small });
    const fault = f.site.fault("/api/container/getIndex", { type: "status", status: 418, times: 1 });
    const run = await f.crawl("weibo-1");
    expect(fault.hits).toBe(1);
    expect(run.errors).toEqual([]);
    await expectComplete(f, "weibo-1");
  });

  it("a page slower than the timeout is recorded and read on the next crawl", async () => {
    f = await crawlFixture(
      { seed: 3, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, ...small },
      {
        createFetcher: (account, onRequest) =>
          createFetcher({ mode: "http", scheduler: new HostScheduler(), hostDelayMs: 0, retries: 0, requestTimeoutMs: 300, onRequest, log: () => undefined }),
      },
    );
    const target = f.site
      .account("discuz-1")
      .posts.filter((p) => p.replies.length > 0)
      .at(-1)!;
    const fault = f.site.fault((u) => u.searchParams.get("tid") === target.id, { type: "slow", delayMs: 1500 });
    const slow = await f.crawl("discuz-1");
    expect(slow.status).toBe("partial");
    expect(slow.errors.some((e) => e.kind === "RetryableError" && /time/i.test(e.reason))).toBe(true);
    // The thread's list entry is kept, so the post is not lost meanwhile.
    expect((await f.stored("discuz-1")).has(f.site.platformIdOf(target))).toBe(true);
    fault.clear();
    const again = await f.crawl("discuz-1");
    expect(again.errors).toEqual([]);
    await expectComplete(f, "discuz-1");
  });

  it("a redirect loop on one article is skipped and recorded; the rest is stored", async () => {
    f = await crawlFixture({ seed: 4, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 }, ...small });
    // blog-2 has no feed: its articles are read one by one.
    const post = f.site.account("blog-2").posts[3]!;
    const articlePath = new URL(f.site.platformIdOf(post), f.site.origin).pathname;
    const fault = f.site.fault((u) => u.pathname === articlePath, { type: "redirectLoop" });
    const run = await f.crawl("blog-2");
    expect(run.status).toBe("partial");
    expect(run.errors.map((e) => e.reason).join(" ")).toMatch(/redirect loop/);
    const stored = await f.stored("blog-2");
    expect(stored.size).toBe(f.expected("blog-2").size - 1);
    fault.clear();
    await f.crawl("blog-2");
    await expectComplete(f, "blog-2");
  });

  it("a huge page is refused and recorded; the other posts are stored", async () => {
    f = await crawlFixture(
      { seed: 8, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 }, ...small },
      {
        createFetcher: (account, onRequest) =>
          createFetcher({ mode: "http", scheduler: new HostScheduler(), hostDelayMs: 0, retries: 0, maxBodyBytes: 64 * 1024, onRequest, log: () => undefined }),
      },
    );
    const post = f.site.account("blog-2").posts[2]!;
    const articlePath = new URL(f.site.platformIdOf(post), f.site.origin).pathname;
    f.site.fault((u) => u.pathname === articlePath, {
      type: "body",
      body: "<html><body>" + "大".repeat(200_000) + "</body></html>",
      contentType: "text/html; charset=utf-8",
    });
    const run = await f.crawl("blog-2");
    expect(run.status).toBe("partial");
    expect(run.errors.map((e) => `${e.kind} ${e.reason}`).join(" ")).toMatch(/NonRetryableError .*larger than/);
    expect((await f.stored("blog-2")).size).toBe(f.expected("blog-2").size - 1);
  });

  it("429 with a Retry-After beyond the cap blocks the host for this run, recorded, nothing lost", async () => {
    f = await crawlFixture({ seed: 9, accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 }, ...small });
    const fault = f.site.fault("/f?kw=", { type: "status", status: 429, retryAfterSeconds: 3600 });
    const run = await f.crawl("tieba-1");
    expect(run.status).toBe("failed");
    expect(run.blocks).toBe(1);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id: f.ids.get("tieba-1")! } })).status).toBe("blocked");
    fault.clear();
    await f.crawl("tieba-1");
    await expectComplete(f, "tieba-1");
  });

  it("a GBK board is decoded: every post and reply stored with its Chinese text", async () => {
    f = await crawlFixture({ seed: 5, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, ...small, discuzEncoding: "gbk" });
    const run = await f.crawl("discuz-1");
    expect(run.errors).toEqual([]);
    await expectComplete(f, "discuz-1");
    const stored = await f.stored("discuz-1");
    for (const [id, e] of f.expected("discuz-1")) expect(stored.get(id)!.text).toBe(e.text);
  });

  it("a pinned new post neither stops the scan nor hides older unseen posts", async () => {
    f = await crawlFixture({ seed: 6, accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 }, ...small });
    await f.crawl("weibo-1");
    const site = f.site;
    site.clock.advance(3_600_000);
    const a = site.addPost("weibo-1", { text: "新帖A：食堂二楼今天开始供应夜宵。" });
    site.clock.advance(60_000);
    site.addPost("weibo-1", { text: "置顶新帖B：本周六校园开放日。", pinned: true });
    await f.crawl("weibo-1");
    site.clock.advance(60_000);
    // C is newer than A but older than the pinned B.
    const c = site.addPost("weibo-1", { text: "新帖C：图书馆三楼空调坏了。", at: new Date(a.publishedAt.getTime() + 30_000) });
    site.clock.advance(60_000);
    const run = await f.crawl("weibo-1");
    expect(run.newPosts).toBe(1);
    const stored = await f.stored("weibo-1");
    expect(stored.has(site.platformIdOf(c))).toBe(true);
    await expectComplete(f, "weibo-1");
  });
});

describe("notifications after a crawl", () => {
  it("sends the run's new flags to the topic's webhook in one batch, without holding up the crawl", async () => {
    const http = await import("node:http");
    const bodies: unknown[] = [];
    const hook = http.createServer((req, res) => {
      let b = "";
      req.on("data", (d: Buffer) => (b += d.toString("utf8")));
      req.on("end", () => {
        bodies.push(JSON.parse(b));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    const { port } = hook.address() as import("node:net").AddressInfo;
    const { classifyPosts } = await import("../../../crawler/classify");
    const { notifyNewFlags } = await import("../../../lib/notify");
    let delivered: Promise<unknown> = Promise.resolve();
    f = await crawlFixture(
      { seed: 7, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, postsPerAccount: 3 },
      {
        classify: (db, ids) => classifyPosts(db, ids),
        // The hook is on loopback: allowed as an in-house receiver would be (CAMPUSWATCH_ALLOW_INTERNAL).
        notify: (db, runId) => (delivered = notifyNewFlags(db, runId, { allowInternal: ["127.0.0.1"] })),
      },
    );
    await createTopicWithChannels(f.t.db, { name: "考试", sensitiveWords: JSON.stringify(["作弊"]) }, { webhookUrl: `http://127.0.0.1:${port}/hook` });
    f.site.addPost("blog-1", { title: "考场作弊", text: "有人在期末考试作弊被抓。" });
    f.site.addPost("blog-1", { title: "作弊处分", text: "学校通报了两起作弊处分。" });
    const run = await f.crawl("blog-1");
    await delivered;
    expect(bodies).toHaveLength(1);
    expect(JSON.stringify(bodies[0])).toContain("作弊");
    const n = await f.t.db.notification.findFirstOrThrow({ where: { crawlRunId: run.runId } });
    expect(n.status).toBe("sent");
    await new Promise((r) => hook.close(r));
  });
});
