/**
 * A batch of verdicts is written through Prisma (PostgreSQL) or as prepared statements on SQLite
 * (crawler/classify/write-batch.ts, issue 17). The same classifications on two SQLite files, one
 * through each driver, must leave the same rows: classifications, flags opened, updated and closed
 * (a reviewed flag left alone), the queue emptied of what was judged and kept for what changed
 * since, and the flag statistics the charts read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { classifyPosts } from "../../../crawler/classify";
import { createTestDb, prismaOnly, type TestDb } from "../../support/db";
import { seedCampusPosts } from "../../support/topics";

const dbs: TestDb[] = [];
afterEach(async () => {
  for (const t of dbs.splice(0)) await t.cleanup();
});

const TEXTS = [
  "期末考试下周开始，大家加油", // keyword: flagged
  "二食堂的麻辣烫涨价了", // nothing
  "听说有人在四六级考试作弊", // keyword + sensitive
  "有人在群里卖答案，说能代考", // sensitive
  "补考名单出来了", // keyword, reviewed before the second pass
];

async function run(driver: "prisma" | "sqlite") {
  const t = await createTestDb();
  dbs.push(t);
  const db = driver === "prisma" ? prismaOnly(t.db) : t.db;
  const { ids } = await seedCampusPosts(t.db, TEXTS);
  await t.db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "补考"]), sensitiveWords: JSON.stringify(["考试作弊", "作弊", "代考"]) } });
  await t.db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["食堂", "麻辣烫"]) } });
  const queue = async (postIds: number[]) => {
    for (const p of await t.db.post.findMany({ where: { id: { in: postIds } } }))
      await t.db.unclassifiedPost.create({ data: { postId: p.id, queuedAt: p.lastSeenAt } });
  };
  await queue(ids);
  const first = await classifyPosts(db, ids, { batchSize: 3 });

  // Edits: the first post loses its keyword (its flag closes), the second gains one (a new flag),
  // the third loses its sensitive word (its flag's reasons change), the fifth was reviewed (its
  // flag stays as the reviewer left it) and changes too.
  const later = new Date("2025-07-01T00:00:00.000Z");
  const edit = async (i: number, text: string) => t.db.post.update({ where: { id: ids[i]! }, data: { text, lastSeenAt: later } });
  await edit(0, "下周开始放假，大家加油");
  await edit(1, "二食堂的麻辣烫又涨价了，考试周也不便宜");
  await edit(2, "听说四六级考试改时间了");
  await edit(4, "补考名单改了");
  await t.db.flag.updateMany({ where: { postId: ids[4]! }, data: { status: "confirmed", reviewedAt: later } });
  await queue([ids[0]!, ids[1]!, ids[2]!, ids[4]!]);
  // A post judged with an older text than the one now stored stays queued.
  const second = await classifyPosts(db, ids, {
    batchSize: 2,
    posts: [{ id: ids[3]!, title: "", text: TEXTS[3]!, ocrText: null, lastSeenAt: new Date("2025-01-01T00:00:00.000Z") }],
  });
  await t.db.unclassifiedPost.upsert({ where: { postId: ids[3]! }, create: { postId: ids[3]!, queuedAt: later }, update: {} });
  const third = await classifyPosts(db, [ids[3]!], {
    posts: [{ id: ids[3]!, title: "", text: TEXTS[3]!, ocrText: null, lastSeenAt: new Date("2025-01-01T00:00:00.000Z") }],
  });

  const omitCreated = <T extends { createdAt: Date }>(rows: T[]) => rows.map(({ createdAt: _c, ...r }) => r);
  return {
    results: [first, second, third],
    classifications: omitCreated(await t.db.classification.findMany({ orderBy: [{ postId: "asc" }, { topicId: "asc" }] })),
    flags: omitCreated(await t.db.flag.findMany({ orderBy: [{ postId: "asc" }, { topicId: "asc" }] })),
    queue: await t.db.unclassifiedPost.findMany({ orderBy: { postId: "asc" } }),
    stats: await t.db.$queryRawUnsafe<unknown[]>(`SELECT "day", "accountId", "topicId", "status", "n" FROM "flag_day_stats" ORDER BY 1, 2, 3, 4`),
  };
}

describe("a batch of verdicts written by either driver", () => {
  it("leaves the same classifications, flags, queue and statistics", async (ctx) => {
    const probe = await createTestDb();
    dbs.push(probe);
    if (probe.kind !== "sqlite") {
      console.log("skipped: the prepared-statement driver is SQLite's; on PostgreSQL every batch goes through Prisma");
      ctx.skip();
    }
    const viaPrisma = await run("prisma");
    const viaSqlite = await run("sqlite");
    expect(viaSqlite).toEqual(viaPrisma);

    // The script reached what it names.
    const { flags, queue, results } = viaSqlite;
    expect(results[0]).toMatchObject({ flagsOpened: 5 });
    expect(results[1]!.flagsClosed).toBeGreaterThanOrEqual(1);
    expect(results[1]!.flagsUpdated).toBeGreaterThanOrEqual(1);
    expect(flags.some((f) => f.status === "confirmed")).toBe(true);
    expect(queue).toHaveLength(1);
  });
});
