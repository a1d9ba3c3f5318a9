/** The local platform copies themselves: determinism, mutations, faults and the request log. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recognisePlatform } from "../../../crawler/adapters";
import { PlatformModel, startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";

describe("local platforms", () => {
  let site: LocalPlatforms;

  beforeAll(async () => {
    site = await startLocalPlatforms({ seed: 21, accounts: { weibo: 2, tieba: 2, discuz: 2, blog: 2 }, postsPerAccount: 30, repliesPerPost: [0, 10] });
  });
  afterAll(async () => site.close());

  test("the same seed gives the same world; another seed a different one", () => {
    const snapshot = (m: PlatformModel) =>
      m.accounts.map((a) => [a.key, a.slug, a.posts.map((p) => [p.id, p.title, p.html, p.publishedAt.toISOString(), p.replies.length])]);
    expect(
      snapshot(new PlatformModel({ seed: 21, accounts: { weibo: 2, tieba: 2, discuz: 2, blog: 2 }, postsPerAccount: 30, repliesPerPost: [0, 10] })),
    ).toEqual(snapshot(site.model));
    expect(
      snapshot(new PlatformModel({ seed: 22, accounts: { weibo: 2, tieba: 2, discuz: 2, blog: 2 }, postsPerAccount: 30, repliesPerPost: [0, 10] })),
    ).not.toEqual(snapshot(site.model));
  });

  test("eight accounts, a few hundred posts and replies, every post before the clock", () => {
    expect(site.accounts.map((a) => a.key)).toEqual(["weibo-1", "weibo-2", "tieba-1", "tieba-2", "discuz-1", "discuz-2", "blog-1", "blog-2"]);
    const posts = site.accounts.flatMap((a) => a.posts);
    const replies = posts.flatMap((p) => p.replies);
    expect(posts).toHaveLength(240);
    expect(replies.length).toBeGreaterThan(500);
    const now = site.clock.now().getTime();
    expect([...posts, ...replies].every((x) => x.publishedAt.getTime() < now)).toBe(true);
    expect(replies.every((r) => r.publishedAt >= site.model.post(r.postId)!.publishedAt)).toBe(true);
    expect(site.accounts.filter((a) => a.platform === "blog").map((a) => a.hasFeed)).toEqual([true, false]);
  });

  test("entry URLs are recognised by the adapter registry as their platform", () => {
    for (const a of site.accounts) expect(recognisePlatform(site.entryUrl(a.key))).toBe(a.platform);
  });

  test("mutations show on the next request; the log records kind and account", async () => {
    const mark = site.lastSeq();
    site.clock.advance(60_000);
    const post = site.addPost("tieba-1", { title: "食堂新开了麻辣烫窗口", text: "在二楼东侧" });
    const res = await fetch(site.entryUrl("tieba-1"));
    expect(await res.text()).toContain("食堂新开了麻辣烫窗口");
    const thread = await fetch(`${site.origin}/p/${post.id}`);
    expect(thread.status).toBe(200);
    await fetch(`${site.origin}/robots.txt`);
    expect(site.requests({ afterSeq: mark }).map((r) => [r.kind, r.accountKey, r.status])).toEqual([
      ["list", "tieba-1", 200],
      ["item", "tieba-1", 200],
      ["other", null, 200],
    ]);
    expect(site.requests({ afterSeq: mark, accountKey: "tieba-1", kind: "item" })).toHaveLength(1);
    expect(site.requests({ afterSeq: mark })[0]!.at.getTime()).toBe(site.clock.now().getTime());
  });

  test("posts dated after the clock are invisible until it passes them", async () => {
    const later = site.addPost("discuz-1", { title: "明天的讲座", at: new Date(site.clock.now().getTime() + 3_600_000) });
    expect(await (await fetch(site.entryUrl("discuz-1"))).text()).not.toContain("明天的讲座");
    expect((await fetch(`${site.origin}/bbs/forum.php?mod=viewthread&tid=${later.id}`)).status).toBe(404);
    site.clock.advance(2 * 3_600_000);
    expect(await (await fetch(site.entryUrl("discuz-1"))).text()).toContain("明天的讲座");
  });

  test("faults: status N times then success, captcha, redirect loop, custom body, slow", async () => {
    const f418 = site.fault("/api/container/getIndex", { type: "status", status: 418, times: 1, retryAfterSeconds: 2 });
    const url = `${site.origin}/api/container/getIndex?type=uid&value=${site.account("weibo-1").slug}`;
    const first = await fetch(url);
    expect([first.status, first.headers.get("retry-after")]).toEqual([418, "2"]);
    expect((await fetch(url)).status).toBe(200);
    expect([f418.hits, f418.remaining]).toEqual([1, 0]);

    site.fault("/f?kw=", { type: "captcha", times: 1 });
    expect(await (await fetch(site.entryUrl("tieba-2"))).text()).toContain("百度安全验证");
    expect(await (await fetch(site.entryUrl("tieba-2"))).text()).toContain("thread_list");

    const loop = site.fault(/^\/blog\/[^/]+\/$/, { type: "redirectLoop" });
    const r1 = await fetch(site.entryUrl("blog-1"), { redirect: "manual" });
    expect(r1.status).toBe(302);
    const r2 = await fetch(new URL(r1.headers.get("location")!, site.origin), { redirect: "manual" });
    expect(new URL(r2.headers.get("location")!, site.origin).href).toBe(site.entryUrl("blog-1"));
    loop.clear();

    const wall = site.fault((u) => u.pathname === "/statuses/extend", {
      type: "body",
      body: '{"ok":-100,"url":"https://passport.weibo.cn/signin"}',
      contentType: "application/json",
    });
    expect(await (await fetch(`${site.origin}/statuses/extend?id=1`)).json()).toEqual({ ok: -100, url: "https://passport.weibo.cn/signin" });
    wall.clear();

    site.fault("/blog/", { type: "slow", delayMs: 20, times: 1 });
    expect((await fetch(site.entryUrl("blog-2"))).status).toBe(200);
    expect(site.requests().at(-1)!.fault).toBe("slow");
    site.clearFaults();
  });

  test("simulateActivity adds seeded posts and replies within the window", () => {
    const start = site.clock.now().getTime();
    const { posts, replies } = site.simulateActivity({ posts: 5, replies: 20, withinMs: 3_600_000 });
    expect(posts).toHaveLength(5);
    expect(replies).toHaveLength(20);
    expect([...posts, ...replies].every((x) => x.publishedAt.getTime() >= start && x.publishedAt.getTime() <= start + 3_600_000 + 60_000)).toBe(true);
  });

  test("without the captures folder, captures are null with a reason (callers skip)", async () => {
    const bare = await startLocalPlatforms({ accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0 }, realCaptures: "/nonexistent/fixtures/real" });
    try {
      expect(bare.captures).toBeNull();
      expect(bare.capturesSkipReason).toMatch(/not found at \/nonexistent/);
    } finally {
      await bare.close();
    }
  });

  test("platformIdOf names items the way the adapters do", () => {
    const d = site.account("discuz-1").posts[0]!;
    expect(site.platformIdOf(d)).toBe(`t${d.id}`);
    expect(site.platformIdOf(d.replies[0] ?? site.addReply(d.id))).toMatch(/^p\d+$/);
    const b = site.account("blog-2").posts[0]!;
    expect(site.platformIdOf(b)).toBe(`/blog/${site.account("blog-2").slug}/posts/${b.id}/`);
  });
});
