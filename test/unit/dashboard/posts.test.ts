/**
 * The list query against a brute-force filter: every filter, the search (three-character
 * phrases, two-character words through the vocabulary, one-character LIKE), and keyset paging in
 * both directions must give exactly the rows a full scan would, in order.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findPostIds, listPostsPage, parsePostFilter, type PostFilter } from "@/server/posts";
import { createTestDb, type TestDb } from "../../support/db";

let t: TestDb;
interface Row {
  id: number;
  accountId: number;
  platform: string;
  kind: string;
  publishedAt: Date;
  text: string;
  title: string;
  deleted: boolean;
  flags: { topicId: number; status: string; score: number }[];
  cls: { topicId: number; score: number; relevant: boolean }[];
}
const rows: Row[] = [];
const WORDS = ["期末考试有人作弊", "食堂涨价", "图书馆占座", "作弊", "校园贷诈骗", "Hello World", "100%_done", "考试周加油", "宿舍停水"];

beforeAll(async () => {
  t = await createTestDb();
  const { db } = t;
  const accounts = await Promise.all([
    db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1234567", name: "w" } }),
    db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=a", name: "t" } }),
    db.account.create({ data: { platform: "blog", entryUrl: "https://b.cn/", name: "b" } }),
  ]);
  const topics = await Promise.all([db.topic.create({ data: { name: "考试" } }), db.topic.create({ data: { name: "食堂" } })]);
  const base = Date.parse("2026-10-01T00:00:00Z");
  for (let i = 0; i < 240; i++) {
    const a = accounts[i % 3]!;
    // Several posts share a timestamp so the id tie-break matters.
    const publishedAt = new Date(base + Math.floor(i / 3) * 3_600_000 * 7);
    const text = `${WORDS[i % WORDS.length]} 第${i}条${i % 11 === 0 ? "作弊" : ""}`;
    const title = i % 5 === 0 ? `标题${i}` : "";
    const kind = i % 4 === 3 ? "reply" : "post";
    // A few noticed deleted on the platform (kept, marked): the "deleted" filter.
    const deleted = i % 7 === 2;
    const deletedAt = deleted ? new Date(base + 90 * 86_400_000 + i * 1000) : null;
    const p = await db.post.create({
      data: { accountId: a.id, platformId: String(i), url: `u${i}`, title, publishedAt, text, sha1: String(i), kind, deletedAt },
    });
    const row: Row = { id: p.id, accountId: a.id, platform: a.platform, kind, publishedAt, text, title, deleted, flags: [], cls: [] };
    for (const topic of topics) {
      const score = ((i * 37 + topic.id * 11) % 100) / 100;
      const relevant = score >= 0.6;
      await db.classification.create({ data: { postId: p.id, topicId: topic.id, score, label: relevant ? "on-topic" : "off-topic", relevant } });
      row.cls.push({ topicId: topic.id, score, relevant });
      if (relevant || text.includes("作弊")) {
        const status = ["open", "confirmed", "dismissed"][i % 3]!;
        await db.flag.create({ data: { postId: p.id, topicId: topic.id, reasons: "[]", score, status } });
        row.flags.push({ topicId: topic.id, status, score });
      }
    }
    rows.push(row);
  }
}, 60_000);
afterAll(async () => {
  await t.cleanup();
});

const day = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

function brute(f: PostFilter): number[] {
  const statuses = f.review === "open" ? ["open"] : f.review === "reviewed" ? ["confirmed", "dismissed"] : f.review ? [f.review] : null;
  return rows
    .filter((r) => {
      if (f.accountId && r.accountId !== f.accountId) return false;
      if (f.platform && r.platform !== f.platform) return false;
      if (f.kind && r.kind !== f.kind) return false;
      if (f.deleted && r.deleted !== (f.deleted === "yes")) return false;
      if (f.from && day(r.publishedAt) < f.from) return false;
      if (f.to && day(r.publishedAt) > f.to) return false;
      const flags = r.flags.filter(
        (x) =>
          (!statuses || statuses.includes(x.status)) &&
          (!f.flagged || ((!f.topicId || x.topicId === f.topicId) && (f.minScore === undefined || x.score >= f.minScore))),
      );
      if ((f.flagged || statuses) && flags.length === 0) return false;
      if (!f.flagged && (f.topicId || f.minScore !== undefined)) {
        if (!r.cls.some((c) => c.relevant && (!f.topicId || c.topicId === f.topicId) && (f.minScore === undefined || c.score >= f.minScore))) return false;
      }
      if (f.q) {
        const hay = `${r.title}\n${r.text}`.toLowerCase();
        if (
          !f.q
            .split(/\s+/)
            .filter(Boolean)
            .every((w) => hay.includes(w.toLowerCase()))
        )
          return false;
      }
      return true;
    })
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || b.id - a.id)
    .map((r) => r.id);
}

async function pageThrough(f: PostFilter, take: number): Promise<number[]> {
  const out: number[] = [];
  let after: { publishedAt: Date; id: number } | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const { page, more } = await findPostIds(t.db, f, { after, take });
    out.push(...page.map((p) => p.id));
    if (!more) break;
    after = page.at(-1);
  }
  return out;
}

const cases: [string, Record<string, string>, boolean][] = [
  ["all posts", {}, false],
  ["flagged", {}, true],
  ["flagged unreviewed", { review: "open" }, true],
  ["flagged reviewed, topic 2", { review: "reviewed", topic: "2" }, true],
  ["flagged min score", { minScore: "0.9" }, true],
  ["posts of a platform", { platform: "tieba" }, false],
  ["posts of an account, replies only", { account: "2", kind: "reply" }, false],
  ["posts in a date range", { from: "2026-10-10", to: "2026-10-20" }, false],
  ["posts relevant to topic 1", { topic: "1" }, false],
  ["posts scoring ≥ 0.8 on any topic", { minScore: "0.8" }, false],
  ["posts with a reviewed flag", { review: "confirmed" }, false],
  ["search: three characters", { q: "图书馆" }, false],
  ["search: two characters, expanded", { q: "作弊" }, false],
  ["search: two characters at the end of a text", { q: "涨价" }, false],
  ["search: two words", { q: "考试 作弊" }, false],
  ["search: one character", { q: "水" }, false],
  ["search: ASCII, case-insensitive", { q: "world" }, false],
  ["search: LIKE wildcards are literal", { q: "0%_" }, false],
  ["search: nothing", { q: "鲸鱼" }, false],
  ["search + flagged + platform", { q: "作弊", platform: "weibo" }, true],
  ["search + topic + range", { q: "作弊", topic: "1", from: "2026-10-05" }, false],
  ["deleted only", { deleted: "yes" }, false],
  ["flagged and deleted", { deleted: "yes" }, true],
  ["flagged, unreviewed, deleted", { deleted: "yes", review: "open" }, true],
  ["still online, replies only", { deleted: "no", kind: "reply" }, false],
  ["deleted, one account", { deleted: "yes", account: "2" }, false],
  ["deleted + search", { deleted: "yes", q: "作弊" }, false],
  ["deleted + one-character search", { deleted: "yes", q: "水" }, false],
  ["deleted + topic", { deleted: "yes", topic: "1" }, false],
  ["not deleted + flagged + platform", { deleted: "no", platform: "weibo" }, true],
];

describe("findPostIds", () => {
  test.each(cases)("%s", async (_name, params, flagged) => {
    const { filter } = parsePostFilter(params, flagged);
    const expected = brute(filter);
    expect(await pageThrough(filter, 7)).toEqual(expected);
    const first = await findPostIds(t.db, filter, { take: 1000 });
    expect(first.page.map((p) => p.id)).toEqual(expected);
  });

  test("going back with `before` returns the previous page", async () => {
    const { filter } = parsePostFilter({}, true);
    const p1 = await listPostsPage(t.db, filter, { take: 5 });
    const p2 = await listPostsPage(t.db, filter, { take: 5, after: decode(p1.older!) });
    const back = await listPostsPage(t.db, filter, { take: 5, before: decode(p2.newer!) });
    expect(back.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id));
    expect(back.newer).toBeNull();
    expect(p1.newer).toBeNull();
  });

  test("list rows carry account, flags with topic names and relevant scores", async () => {
    const { filter } = parsePostFilter({ review: "open" }, true);
    const { rows: page } = await listPostsPage(t.db, filter, { take: 3 });
    expect(page[0]).toMatchObject({
      account: { name: expect.any(String), platform: expect.any(String) },
      flags: expect.arrayContaining([expect.objectContaining({ topicName: expect.any(String), status: "open" })]),
    });
  });
});

function decode(s: string) {
  const [ms, id] = s.split(".").map(Number);
  return { publishedAt: new Date(ms!), id: id! };
}
