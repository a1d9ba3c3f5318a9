/**
 * One transaction per page, OCR text and last-reply time included (issue 15): the store writes a
 * page's posts, the OCR text of their images and the thread's last-reply time together, so a
 * failure after the page's posts (a database error, injected here by a trigger on the
 * UnclassifiedPost queue, the page's last write) leaves none of them; and the classifier judges
 * what the store wrote without reading the posts again.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts } from "../../../crawler/classify";
import type { Ocr } from "../../../crawler/ocr";
import { prepareItem, storePage, type StoredPost } from "../../../crawler/store";
import type { CrawlItem } from "../../../crawler/types";
import { createTestDb, type TestDb } from "../../support/db";
import { crawlFixture, type CrawlFixture } from "./support";

let t: TestDb | undefined;
let f: CrawlFixture | undefined;
let images: http.Server | undefined;
afterEach(async () => {
  await t?.cleanup();
  await f?.close();
  await new Promise((r) => (images ? images.close(r) : r(undefined)));
  t = f = images = undefined;
});

const INJECTED = "injected failure after the page's posts";
/** How the injected failure reads: PostgreSQL passes the message on; Prisma's SQLite adapter names the failed insert. */
const FAILED = /injected failure|Invalid `tx\.\w+\.create/;

/** Make every insert into UnclassifiedPost fail: the store's last write of a page that created or changed posts. */
async function failQueueInserts(db: TestDb["db"], kind: TestDb["kind"]): Promise<void> {
  const message = INJECTED.replace(/'/g, "''");
  if (kind === "postgresql") {
    await db.$executeRawUnsafe(`CREATE FUNCTION cw_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER cw_test_fail BEFORE INSERT ON "UnclassifiedPost" FOR EACH ROW EXECUTE FUNCTION cw_test_fail()`);
  } else {
    await db.$executeRawUnsafe(`CREATE TRIGGER cw_test_fail BEFORE INSERT ON "UnclassifiedPost" BEGIN SELECT RAISE(ABORT, '${message}'); END`);
  }
}
async function allowQueueInserts(db: TestDb["db"], kind: TestDb["kind"]): Promise<void> {
  if (kind === "postgresql") {
    await db.$executeRawUnsafe(`DROP TRIGGER cw_test_fail ON "UnclassifiedPost"`);
    await db.$executeRawUnsafe(`DROP FUNCTION cw_test_fail()`);
  } else {
    await db.$executeRawUnsafe(`DROP TRIGGER cw_test_fail`);
  }
}

const T0 = new Date("2025-03-01T08:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const item = (platformId: string, text: string, extra: Partial<CrawlItem> = {}): CrawlItem => ({
  platformId,
  kind: "post",
  url: `http://127.0.0.1:1/p/${platformId}`,
  title: "",
  author: "x",
  publishedAt: T0,
  html: `<p>${text}</p>`,
  ...extra,
});

describe("a page's posts, OCR text and thread last-reply time are stored in one transaction", () => {
  it("storePage: a failure after the posts leaves neither them, nor the OCR text, nor the thread's time", async () => {
    t = await createTestDb();
    const { db } = t;
    const a = (await db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/", name: "a" } })).id;
    // Stored earlier: a thread head, and a post the page below changes.
    await storePage(db, a, [prepareItem(item("t1", "考试安排")), prepareItem(item("p0", "食堂通知"))], at(0));
    const page = () => [
      prepareItem(item("r1", "第一条回复", { kind: "reply", parentPlatformId: "t1", publishedAt: at(3) })),
      prepareItem(item("p0", "食堂通知（更新）"), { ocrText: "图片里的字：停业" }),
      prepareItem(item("p2", "见下图"), { ocrText: "图片里的字：补考" }),
    ];
    const thread = { platformId: "t1", lastReplyAt: at(3) };

    await failQueueInserts(db, t.kind);
    await expect(storePage(db, a, page(), at(5), { thread })).rejects.toThrow(FAILED);
    const rows = await db.post.findMany({ orderBy: { platformId: "asc" } });
    expect(rows.map((r) => r.platformId)).toEqual(["p0", "t1"]);
    expect(rows.map((r) => [r.platformId, r.text, r.ocrText, r.lastReplyAt, r.version])).toEqual([
      ["p0", "食堂通知", null, null, 1],
      ["t1", "考试安排", null, null, 1],
    ]);
    expect(await db.postVersion.count()).toBe(0);

    await allowQueueInserts(db, t.kind);
    const out = await storePage(db, a, page(), at(5), { thread });
    expect(out.created).toHaveLength(2);
    expect(out.changed).toHaveLength(1);
    const after = new Map((await db.post.findMany()).map((r) => [r.platformId, r]));
    expect(after.get("p0")!.ocrText).toBe("图片里的字：停业");
    expect(after.get("p2")!.ocrText).toBe("图片里的字：补考");
    expect(after.get("r1")!.ocrText).toBeNull();
    expect(after.get("t1")!.lastReplyAt).toEqual(at(3));
    expect(await db.postVersion.count()).toBe(1);
    // What the store returns is what it wrote: the classifier judges it without reading it again.
    const byId = new Map(out.stored.map((p) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual([...out.created, ...out.changed].sort());
    for (const id of byId.keys()) {
      const row = await db.post.findUniqueOrThrow({ where: { id }, select: { id: true, title: true, text: true, ocrText: true, lastSeenAt: true } });
      expect(byId.get(id)).toEqual(row);
    }

    // A thread's time alone (its last page held nothing to store) is written by itself.
    await storePage(db, a, [], at(9), { thread: { platformId: "t1", lastReplyAt: at(8) } });
    expect((await db.post.findFirstOrThrow({ where: { platformId: "t1" } })).lastReplyAt).toEqual(at(8));
  });

  it("a crawl: a page that fails to store keeps no OCR text; the next crawl stores it and classifies the post as stored", async () => {
    images = http.createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47])));
    await new Promise<void>((r) => images!.listen(0, "127.0.0.1", r));
    const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/notice.png`;
    let reads = 0;
    const ocr: Ocr = {
      available: () => Promise.resolve(true),
      read: () => {
        reads++;
        return Promise.resolve("食堂明天全部停业");
      },
    };
    const judged: (readonly StoredPost[] | undefined)[] = [];
    f = await crawlFixture(
      { seed: 51, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, postsPerAccount: 2, blogFeeds: true },
      {
        ocr,
        classify: (db, ids, posts) => {
          judged.push(posts);
          return classifyPosts(db, ids, { posts });
        },
      },
    );
    await f.t.db.topic.create({ data: { name: "后勤", sensitiveWords: JSON.stringify(["停业"]) } });
    const post = f.site.addPost("blog-1", { title: "通知", html: `<p>见下图</p><p><img src="${imageUrl}"></p>` });
    await f.t.db.account.update({ where: { id: f.ids.get("blog-1")! }, data: { ocr: true } });
    const platformId = f.site.platformIdOf(post);

    await failQueueInserts(f.t.db, f.t.kind);
    const failed = await f.crawl("blog-1");
    expect(failed.status).toBe("failed");
    expect(failed.errors.map((e) => e.reason).join("\n")).toMatch(FAILED);
    expect(await f.t.db.post.count()).toBe(0);
    expect(reads).toBe(1);

    await allowQueueInserts(f.t.db, f.t.kind);
    const run = await f.crawl("blog-1");
    expect(run.errors).toEqual([]);
    const row = await f.t.db.post.findFirstOrThrow({ where: { platformId } });
    expect(row.ocrText).toBe("食堂明天全部停业");
    // The classifier got the post as stored, OCR text included, and flagged on it.
    const given = judged.flatMap((posts) => posts ?? []).find((p) => p.id === row.id);
    expect(given).toEqual({ id: row.id, title: row.title, text: row.text, ocrText: row.ocrText, lastSeenAt: row.lastSeenAt });
    expect((await f.t.db.flag.findFirstOrThrow({ where: { postId: row.id } })).reasons).toContain("停业");
    expect(await f.t.db.unclassifiedPost.count()).toBe(0);

    // Nothing changed: no image is read again.
    expect(reads).toBe(2);
    await f.crawl("blog-1");
    expect(reads).toBe(2);
  });

  it("a thread's last-reply time is written with its last page, once it is read to its end", async () => {
    f = await crawlFixture(
      {
        seed: 77,
        accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 },
        postsPerAccount: 1,
        repliesPerPost: [0, 0],
        pinOldest: false,
        pageSizes: { discuzPosts: 2 },
      },
      { threadPageBudget: 3 },
    );
    const thread = f.site.model.visiblePosts(f.site.account("discuz-1"))[0]!;
    const start = f.site.clock.now().getTime() - 86_400_000;
    // Head + 6 replies = 4 pages of 2: a budget of 3 pages reads it over two runs (the second resumes a page back).
    const replies = Array.from({ length: 6 }, (_, i) => f!.site.addReply(thread.id, { text: `第${i + 1}楼`, at: new Date(start + (i + 1) * 60_000) }));
    const threadId = f.site.platformIdOf(thread);
    const head = () => f!.t.db.post.findFirstOrThrow({ where: { platformId: threadId } });

    await failQueueInserts(f.t.db, f.t.kind);
    const failed = await f.crawl("discuz-1");
    expect(failed.errors.map((e) => e.reason).join("\n")).toMatch(FAILED);
    expect(await f.t.db.post.count()).toBe(0);
    await allowQueueInserts(f.t.db, f.t.kind);

    const first = await f.crawl("discuz-1");
    expect(first.unfinishedThreads).toBe(1);
    // Unfinished: replies are still unread, so the thread has no last-reply time yet.
    expect((await head()).lastReplyAt).toBeNull();

    // The last page (the 6th reply alone) fails after its posts and the thread's time are written
    // (the page before it is unchanged, so it queues nothing and stores): neither is kept.
    await failQueueInserts(f.t.db, f.t.kind);
    const lastFailed = await f.crawl("discuz-1");
    expect(lastFailed.status).toBe("partial");
    expect(lastFailed.errors.map((e) => e.reason).join("\n")).toMatch(FAILED);
    expect(await f.t.db.post.count({ where: { platformId: f.site.platformIdOf(replies[5]!) } })).toBe(0);
    expect(await f.t.db.post.count({ where: { parentId: (await head()).id } })).toBe(5);
    expect((await head()).lastReplyAt).toBeNull();
    await allowQueueInserts(f.t.db, f.t.kind);

    const second = await f.crawl("discuz-1");
    expect(second.status).toBe("ok");
    const stored = await f.t.db.post.findMany({ where: { parentId: (await head()).id } });
    expect(stored).toHaveLength(6);
    const newest = Math.max(...stored.map((r) => r.publishedAt.getTime()));
    expect((await head()).lastReplyAt?.getTime()).toBe(newest);
  });
});
