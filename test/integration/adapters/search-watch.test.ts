/**
 * Keyword watches (issue 14, item 5) through the real worker, fetcher and a real SQLite database,
 * against the local platforms' search endpoints: Weibo's getIndex search (实时 newest first, 综合
 * by relevance), Tieba's in-bar search (GBK, by relevance) and a Discuz! board's search.php whose
 * board is members-only. A hit is stored under the same platform id the platform's own adapter
 * gives the same post, so the accounts and the watch agree on what is one post.
 */
import { afterEach, describe, expect, it } from "vitest";
import { buildSearchUrl } from "../../../crawler/adapters";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import { crawlAccount } from "../../../crawler/worker";
import { createAccount } from "../../../server/accounts";
import { loadAccountCookies, setAccountCookies } from "../../../server/account-access";
import { ValidationError } from "../../../lib/validation";
import { crawlFixture, type CrawlFixture } from "../crawl/support";
import { CLI_ACTOR } from "../../../lib/audit";

const WORD = "紫藤餐厅";
const HOUR = 3_600_000;

const open: CrawlFixture[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A site whose fetchers carry each account's stored cookies (members-only boards need them). */
async function fixture(options: Parameters<typeof crawlFixture>[0]): Promise<CrawlFixture> {
  const f = await crawlFixture(options);
  open.push(f);
  const scheduler = new HostScheduler();
  f.services.createFetcher = (account, onRequest) =>
    createFetcher({
      mode: account.fetchMode,
      scheduler,
      hostDelayMs: 0,
      retries: 1,
      backoffBaseMs: 10,
      onRequest,
      log: () => undefined,
      cookies: () => loadAccountCookies(f.t.db, account.id),
    });
  return f;
}

/** Register a watch and crawl it through the worker. */
async function watch(f: CrawlFixture, url: string) {
  const row = await createAccount(f.t.db, { url, fetchMode: "http" }, CLI_ACTOR);
  return { id: row.id, crawl: () => crawlAccount(f.services, row.id, "cli") };
}

async function storedOf(f: CrawlFixture, accountId: number) {
  const rows = await f.t.db.post.findMany({
    where: { accountId },
    include: { parent: { select: { platformId: true } } },
    orderBy: { platformId: "asc" },
  });
  return new Map(rows.map((r) => [r.platformId, r]));
}

/** platformId → post id of every post an account is a source of (PostSource). */
async function reachedBy(f: CrawlFixture, accountId: number) {
  const rows = await f.t.db.postSource.findMany({
    where: { accountId },
    include: { post: { select: { id: true, platformId: true } } },
  });
  return new Map(rows.map((r) => [r.post.platformId, r.post.id]));
}

const searchRequests = (f: CrawlFixture, after: number, test: (url: string) => boolean) => f.site.requests({ afterSeq: after }).filter((r) => test(r.url));

describe("keyword watches", () => {
  it("Weibo 实时 search: hits are the authors' posts (same mids), and the next run stops at the history mark", async () => {
    const f = await fixture({
      seed: 5,
      accounts: { weibo: 2, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 4,
      repliesPerPost: [0, 1],
      pageSizes: { weibo: 2 },
    });
    const start = f.site.clock.now().getTime();
    const hits = [
      f.site.addPost("weibo-1", {
        text: `今天${WORD}的菜又贵了`,
        at: new Date(start - 5 * HOUR),
      }),
      f.site.addPost("weibo-2", {
        text: `${WORD}排队一小时`,
        at: new Date(start - 4 * HOUR),
      }),
      f.site.addPost("weibo-1", {
        text: `听说${WORD}要装修`,
        at: new Date(start - 3 * HOUR),
      }),
      f.site.addPost("weibo-2", {
        text: `${WORD}的新菜单`,
        at: new Date(start - 2 * HOUR),
      }),
    ];
    const w = await watch(f, buildSearchUrl({ platform: "weibo", word: WORD }, { weibo: f.site.origin }));
    const account = await f.t.db.account.findUniqueOrThrow({
      where: { id: w.id },
    });
    expect(account.platform).toBe("weibo");
    expect(account.name).toBe(`“${WORD}” · weibo search`);

    const first = await w.crawl();
    expect(first.errors).toEqual([]);
    expect(first.status).toBe("ok");
    expect(first.newPosts).toBe(4);
    const stored = await storedOf(f, w.id);
    expect([...stored.keys()].sort()).toEqual(hits.map((p) => f.site.platformIdOf(p)).sort());
    expect(stored.get(f.site.platformIdOf(hits[0]!))!.text).toContain(WORD);

    // The author's own account reaches the same posts: one row each, with both as sources.
    const ownRun = await f.crawl("weibo-1");
    expect(ownRun.errors).toEqual([]);
    const viaAccount = await reachedBy(f, f.ids.get("weibo-1")!);
    for (const p of [hits[0]!, hits[2]!]) expect(viaAccount.get(f.site.platformIdOf(p))).toBe(stored.get(f.site.platformIdOf(p))!.id);

    // One new hit: page 1 has it, page 2 is all known, the walk stops there.
    f.site.clock.advance(HOUR);
    const fresh = f.site.addPost("weibo-1", {
      text: `${WORD}开门了`,
      at: f.site.clock.now(),
    });
    const seq = f.site.lastSeq();
    const second = await w.crawl();
    expect(second.newPosts).toBe(1);
    expect((await storedOf(f, w.id)).has(f.site.platformIdOf(fresh))).toBe(true);
    expect(searchRequests(f, seq, (u) => u.includes("page_type=searchall")).map((r) => new URL(r.url, f.site.origin).searchParams.get("page"))).toEqual([
      "1",
      "2",
    ]);
  });

  it("Weibo 综合 search (relevance, card_group): a fixed number of pages every run, dedupe does the rest", async () => {
    const f = await fixture({
      seed: 6,
      accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 2,
      repliesPerPost: [0, 0],
      pageSizes: { weibo: 2 },
    });
    const start = f.site.clock.now().getTime();
    for (let i = 0; i < 7; i++)
      f.site.addPost("weibo-1", {
        text: `${WORD}第${i}条`,
        at: new Date(start - (i + 1) * HOUR),
      });
    const url = `${f.site.origin}/search?containerid=${encodeURIComponent(`100103type=1&q=${WORD}`)}&cw_pages=2`;
    const w = await watch(f, url);
    let seq = f.site.lastSeq();
    const first = await w.crawl();
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBe(4); // 2 pages × 2 results
    expect(searchRequests(f, seq, (u) => u.includes("page_type=searchall"))).toHaveLength(2);

    seq = f.site.lastSeq();
    const second = await w.crawl();
    // Old results on page 1 do not end the walk: page 2 is read again.
    expect(searchRequests(f, seq, (u) => u.includes("page_type=searchall"))).toHaveLength(2);
    expect(second).toMatchObject({
      newPosts: 0,
      changedPosts: 0,
      unchangedPosts: 4,
    });
  });

  it("Tieba in-bar search (GBK): a thread hit is the thread id with its full first floor, a floor hit its post id under the thread", async () => {
    const f = await fixture({
      seed: 7,
      accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 },
      postsPerAccount: 5,
      repliesPerPost: [1, 2],
    });
    const bar = f.site.account("tieba-1").slug;
    const start = f.site.clock.now().getTime();
    const thread = f.site.addPost("tieba-1", {
      title: `${WORD}今天开门吗`,
      text: "如题，谁知道？这家店在二号楼下面。",
      at: new Date(start - 6 * HOUR),
    });
    const other = f.site.addPost("tieba-1", {
      title: "周末去哪吃",
      text: "求推荐",
      at: new Date(start - 5 * HOUR),
    });
    const floor = f.site.addReply(other.id, {
      text: `去${WORD}吧，新开的`,
      at: new Date(start - 4 * HOUR),
    });
    const w = await watch(f, buildSearchUrl({ platform: "tieba", word: WORD, bar }, { tieba: f.site.origin }));
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id: w.id } })).platform).toBe("tieba");

    const run = await w.crawl();
    expect(run.errors).toEqual([]);
    expect(run.newPosts).toBe(2);
    const stored = await storedOf(f, w.id);
    const head = stored.get(f.site.platformIdOf(thread))!;
    expect(head).toMatchObject({
      kind: "post",
      title: `${WORD}今天开门吗`,
      incomplete: false,
    });
    // Completed from the thread's first page: the whole first floor, not the search excerpt.
    expect(head.text).toContain("这家店在二号楼下面");
    const reply = stored.get(f.site.platformIdOf(floor))!;
    expect(reply).toMatchObject({ kind: "reply", incomplete: true });
    expect(reply.text).toContain(WORD);

    // The bar's own account reaches the same two rows (and completes the floor's excerpt).
    const ownRun = await f.crawl("tieba-1");
    expect(ownRun.errors).toEqual([]);
    const viaBar = await reachedBy(f, f.ids.get("tieba-1")!);
    expect(viaBar.get(f.site.platformIdOf(thread))).toBe(head.id);
    expect(viaBar.get(f.site.platformIdOf(floor))).toBe(reply.id);
    // The floor the watch found first is linked to its thread once the bar's crawl stored it.
    const linked = await f.t.db.post.findUniqueOrThrow({ where: { id: reply.id }, include: { parent: { select: { platformId: true } } } });
    expect(linked.parent?.platformId).toBe(f.site.platformIdOf(other));
    expect(
      await f.t.db.post.count({
        where: {
          platformId: {
            in: [f.site.platformIdOf(thread), f.site.platformIdOf(floor)],
          },
        },
      }),
    ).toBe(2);
  });

  it("Tieba search by relevance reads the default 3 pages each run, never stopping at old results", async () => {
    const f = await fixture({
      seed: 8,
      accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 },
      postsPerAccount: 2,
      repliesPerPost: [0, 0],
    });
    const bar = f.site.account("tieba-1").slug;
    const start = f.site.clock.now().getTime();
    for (let i = 0; i < 45; i++)
      f.site.addPost("tieba-1", {
        title: `${WORD}帖子${i}`,
        text: `内容${i}`,
        at: new Date(start - (i + 1) * HOUR),
      });
    const w = await watch(f, buildSearchUrl({ platform: "tieba", word: WORD, bar }, { tieba: f.site.origin }));
    for (const expected of [30, 0]) {
      const seq = f.site.lastSeq();
      const run = await w.crawl();
      expect(run.errors).toEqual([]);
      expect(run.newPosts).toBe(expected);
      const pages = searchRequests(f, seq, (u) => u.startsWith("/f/search/res")).map((r) => new URL(r.url, f.site.origin).searchParams.get("pn"));
      expect(pages).toEqual(["1", "2", "3"]);
    }
  });

  it("Discuz! search on a members-only board: refused as a visitor, read with a member's cookies", async () => {
    const f = await fixture({
      seed: 9,
      accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 },
      postsPerAccount: 4,
      repliesPerPost: [0, 2],
    });
    const start = f.site.clock.now().getTime();
    const a = f.site.addPost("discuz-1", {
      title: `关于${WORD}的投诉`,
      text: `${WORD}的饭菜太咸了，希望改进。`,
      at: new Date(start - 3 * HOUR),
    });
    const b = f.site.addPost("discuz-1", {
      title: "二手自行车",
      text: `在${WORD}门口交易`,
      at: new Date(start - 2 * HOUR),
    });
    f.site.logins.membersOnly("discuz-1");
    const board = new URL(f.site.entryUrl("discuz-1"));
    const w = await watch(
      f,
      buildSearchUrl({
        platform: "discuz",
        word: WORD,
        base: `${board.origin}/bbs/`,
      }),
    );
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id: w.id } })).platform).toBe("discuz");

    const visitor = await w.crawl();
    expect(visitor.status).toBe("failed");
    expect(visitor.newPosts).toBe(0);
    expect(visitor.errors[0]?.reason).toMatch(/members only/);
    expect(visitor.errors[0]?.url).toContain("/bbs/search.php");
    expect(await f.t.db.post.count({ where: { accountId: w.id } })).toBe(0);

    await setAccountCookies(f.t.db, w.id, f.site.logins.signIn("discuz"), CLI_ACTOR);
    const member = await w.crawl();
    expect(member.errors).toEqual([]);
    expect(member.newPosts).toBe(2);
    const stored = await storedOf(f, w.id);
    expect([...stored.keys()].sort()).toEqual([f.site.platformIdOf(a), f.site.platformIdOf(b)].sort());
    expect(stored.get(`t${a.id}`)).toMatchObject({
      kind: "post",
      title: `关于${WORD}的投诉`,
      incomplete: false,
    });
    expect(stored.get(`t${a.id}`)!.text).toContain("希望改进");
  });

  it("a search URL with no word is refused and nothing is registered", async () => {
    const f = await fixture({
      seed: 10,
      accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 },
      postsPerAccount: 1,
    });
    const before = await f.t.db.account.count();
    for (const url of [
      `${f.site.origin}/f/search/res?ie=utf-8&kw=x&qw=`,
      "https://m.weibo.cn/search?containerid=100103type%3D1%26q%3D",
      `${f.site.origin}/bbs/search.php?mod=forum&srchtxt=%20&searchsubmit=yes`,
    ]) {
      const err = await createAccount(f.t.db, { url }, CLI_ACTOR).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fieldErrors.url?.[0]).toMatch(/^a search URL with no word/);
    }
    expect(await f.t.db.account.count()).toBe(before);
  });
});
