/**
 * The UnclassifiedPost queue against a real database: the store queues created and changed posts
 * in its transaction, the classifier removes them only when every enabled topic judged the stored
 * text, and classifyPending works through what is left, oldest first.
 */
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts, rescoreTopic } from "../../../crawler/classify";
import { classifyPending } from "../../../crawler/classify/pending";
import { dequeueJudged } from "../../../crawler/classify/unclassified";
import { prepareItem, storePage } from "../../../crawler/store";
import { createTestDb, type TestDb } from "../../support/db";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const T0 = new Date("2025-03-01T08:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

async function setUp() {
  t = await createTestDb();
  const a = await t.db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/a/", name: "a" } });
  const b = await t.db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/b/", name: "b" } });
  return { db: t.db, a: a.id, b: b.id };
}

function item(id: string, text: string) {
  return prepareItem({ platformId: id, kind: "post", url: `http://127.0.0.1:1/p/${id}`, title: "", author: "x", publishedAt: T0, html: `<p>${text}</p>` });
}

const queued = async (db: TestDb["db"]) => (await db.unclassifiedPost.findMany({ orderBy: { postId: "asc" } })).map((r) => r.postId);

describe("the unclassified-post queue", () => {
  it("holds created and changed posts, not unchanged ones, stamped with the store's time", async () => {
    const { db, a } = await setUp();
    const first = await storePage(db, a, [item("1", "考试安排"), item("2", "食堂涨价")], at(0));
    expect(await queued(db)).toEqual(first.created);
    await db.unclassifiedPost.deleteMany();
    const second = await storePage(db, a, [item("1", "考试安排改了"), item("2", "食堂涨价")], at(5));
    expect(second.changed).toHaveLength(1);
    expect(second.unchanged).toBe(1);
    expect(await db.unclassifiedPost.findMany()).toEqual([{ postId: second.changed[0], queuedAt: at(5) }]);
  });

  it("is cleared by classifying against every enabled topic, also when there is none", async () => {
    const { db, a } = await setUp();
    const out = await storePage(db, a, [item("1", "考试安排"), item("2", "食堂涨价")], at(0));
    await classifyPosts(db, out.created);
    expect(await queued(db)).toEqual([]);

    const exam = await db.topic.create({ data: { name: "考试", keywords: '["考试"]' } });
    await db.topic.create({ data: { name: "食堂", keywords: '["食堂"]' } });
    const more = await storePage(db, a, [item("3", "考试作弊"), item("4", "食堂排队")], at(1));
    // A re-score of one topic among two judged the posts only partly: they stay queued.
    await rescoreTopic(db, exam.id);
    expect(await queued(db)).toEqual(more.created);
    await classifyPosts(db, more.created);
    expect(await queued(db)).toEqual([]);
    expect(await db.classification.count({ where: { postId: { in: more.created } } })).toBe(4);
  });

  it("keeps a post that was stored again as changed after the classifier read it", async () => {
    const { db, a } = await setUp();
    const out = await storePage(db, a, [item("1", "考试安排")], at(0));
    const read = await db.post.findMany({ where: { id: { in: out.created } }, select: { id: true, lastSeenAt: true } });
    // Between the classifier's read and its transaction, the crawl stores a new version.
    await storePage(db, a, [item("1", "考试安排改到周五")], at(1));
    await dequeueJudged(db, read);
    expect(await queued(db)).toEqual(out.created);
    // Judging the text as now stored removes it.
    await dequeueJudged(db, await db.post.findMany({ select: { id: true, lastSeenAt: true } }));
    expect(await queued(db)).toEqual([]);
  });

  it("classifyPending works oldest first, per account, up to a limit, and always ends", async () => {
    const { db, a, b } = await setUp();
    await db.topic.create({ data: { name: "考试", keywords: '["考试"]' } });
    const late = await storePage(db, a, [item("1", "考试一"), item("2", "考试二")], at(10));
    const early = await storePage(db, a, [item("3", "考试三")], at(0));
    const other = await storePage(db, b, [item("4", "考试四")], at(5));

    const seen: number[][] = [];
    const spy = async (d: TestDb["db"], ids: number[]) => {
      seen.push(ids);
      return classifyPosts(d, ids);
    };
    expect(await classifyPending(db, { accountId: a, limit: 2, batch: 1, classify: spy })).toBe(2);
    expect(seen).toEqual([early.created, [late.created[0]]]);
    expect(await queued(db)).toEqual([late.created[1], ...other.created]);
    expect(await classifyPending(db, { accountId: a })).toBe(1);
    expect(await queued(db)).toEqual(other.created);
    // Nothing left of a's, while b's post waits: a's crawl classifies nothing.
    const never = async () => {
      throw new Error("called with nothing of the account's queued");
    };
    expect(await classifyPending(db, { accountId: a, classify: never })).toBe(0);
    // Once a reaches b's post too (a source of it), a's crawl finds it.
    await db.postSource.create({ data: { postId: other.created[0]!, accountId: a } });
    expect(await classifyPending(db, { accountId: a, classify: async () => undefined })).toBe(1);

    // A classifier that leaves the rows (it failed silently) cannot make the walk go round forever.
    const stubborn = async () => undefined;
    expect(await classifyPending(db, { batch: 1, classify: stubborn })).toBe(1);
    expect(await classifyPending(db)).toBe(1);
    expect(await queued(db)).toEqual([]);
    expect(await db.classification.count()).toBe(4);
  });
});
