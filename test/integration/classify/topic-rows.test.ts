/**
 * crawler/classify/topic-loader.ts loadTopics reads the topic rows through a prepared statement on
 * SQLite (lib/db.ts rawSqlite) and through Prisma otherwise: both must give the classifier the same
 * topic rows and say alike whether they are all the enabled topics.
 */
import { describe, expect, it } from "vitest";
import { loadTopics } from "../../../crawler/classify/topic-loader";
import { prismaOnly, testDbs } from "../../support/db";

const openDb = testDbs();

describe("loadTopics", () => {
  it("reads the same topics through the raw connection as through Prisma", async () => {
    const t = await openDb();
    const { db } = t;
    const on = await db.topic.create({
      data: {
        name: '宿舍 "quoted" topic',
        keywords: JSON.stringify(["宿舍", "停电"]),
        sensitiveWords: JSON.stringify(["罢课"]),
        relevantLabels: JSON.stringify(["相关"]),
        userDict: JSON.stringify(["一卡通"]),
        nbThreshold: 0.625,
        cosineThreshold: 0.1,
      },
    });
    const off = await db.topic.create({ data: { name: "off", enabled: false, userDict: JSON.stringify(["教务处"]) } });
    await db.topic.create({ data: { name: "empty lists" } });

    const viaRaw = await loadTopics(db);
    const viaPrisma = await loadTopics(prismaOnly(db));
    expect(viaRaw.complete).toBe(true);
    // Rows with every column read, userDict and enabled (a boolean, stored as 0/1) among them.
    expect(viaRaw.topics.map((x) => x.row)).toEqual(viaPrisma.topics.map((x) => x.row));
    expect(viaRaw.topics[0]!.row).toMatchObject({ enabled: true, userDict: JSON.stringify(["一卡通"]) });
    expect(viaRaw.topics.map((x) => x.row.name)).toEqual(['宿舍 "quoted" topic', "empty lists"]);
    expect(viaRaw.topics[0]!.row).toMatchObject({ id: on.id, nbThreshold: 0.625, cosineThreshold: 0.1, modelVersion: 0 });
    expect(viaRaw.topics[0]!.keywords.match("今晚宿舍停电").length).toBeGreaterThan(0);

    // Only some topics: incomplete, the same either way; a disabled one is never loaded.
    const some = await loadTopics(db, [on.id, off.id]);
    expect(some.complete).toBe(false);
    expect(some.topics.map((x) => x.row.id)).toEqual([on.id]);
    expect((await loadTopics(prismaOnly(db), [on.id, off.id])).complete).toBe(false);
  });
});
