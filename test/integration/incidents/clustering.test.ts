/**
 * Incident clustering on a real database (SQLite file, or PostgreSQL with CAMPUSWATCH_TEST_DB):
 * posts queued as the store queues them, clustered by clusterPending, with figures, promotion,
 * a run stopped half-way, the database index deciding as the memory index does, and a rebuild
 * that keeps reviewers' decisions.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../lib/db";
import { IncidentClusterer } from "../../../crawler/incidents/clusterer";
import { clusterPending, refreshIncidentsOf } from "../../../crawler/incidents/cluster";
import { MemoryIndex } from "../../../crawler/incidents/memory-index";
import { queueForClustering } from "../../../crawler/incidents/queue";
import { rebuildIncidents } from "../../../crawler/incidents/rebuild";
import { testDbs } from "../../support/db";

const openDb = testDbs();
const T0 = Date.UTC(2026, 2, 1, 8, 0, 0);
const min = 60_000;

interface Seed {
  platform: "weibo" | "tieba" | "discuz";
  text: string;
  at: number;
  author?: string;
  title?: string;
  parent?: number;
}

async function accounts(db: Db) {
  const weibo = await db.account.create({ data: { platform: "weibo", entryUrl: "http://127.0.0.1:9/u/1", name: "校园微博" } });
  const tieba = await db.account.create({ data: { platform: "tieba", entryUrl: "http://127.0.0.1:9/f?kw=x", name: "x吧" } });
  const discuz = await db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:9/forum-2-1.html", name: "校园论坛" } });
  return { weibo: weibo.id, tieba: tieba.id, discuz: discuz.id };
}

let serial = 0;
/** Store posts (parents refer to earlier indexes of `seeds`) and queue them as the store does. */
async function store(db: Db, acc: Record<string, number>, seeds: Seed[]): Promise<number[]> {
  const ids: number[] = [];
  for (const s of seeds) {
    const n = ++serial;
    const p = await db.post.create({
      data: {
        accountId: acc[s.platform]!,
        platformId: `p${n}`,
        url: `http://127.0.0.1:9/${s.platform}/${n}`,
        title: s.title ?? "",
        text: s.text,
        author: s.author ?? `user${n}`,
        publishedAt: new Date(s.at),
        sha1: `h${n}`,
        kind: s.parent === undefined ? "post" : "reply",
        parentId: s.parent === undefined ? null : ids[s.parent]!,
      },
    });
    await db.postSource.create({ data: { postId: p.id, accountId: acc[s.platform]! } }).catch(() => undefined);
    ids.push(p.id);
  }
  await db.$transaction((tx) => queueForClustering(tx, ids, [], new Date(T0)));
  return ids;
}

const canteen = "【三食堂饭菜吃出虫子】今天中午在三食堂二楼买的青菜里吃出了一条虫子，找窗口阿姨理论，对方态度很差，学校后勤什么时候管一管食堂卫生？";
const fire = "【宿舍楼起火】今晚十点左右，西区七号宿舍楼三楼一间寝室冒出浓烟，消防车已经赶到，同学们都疏散到楼下操场，听说是违规使用大功率电器引起的。";

describe("incident clustering on the database", () => {
  it("joins one event across Weibo, Tieba and Discuz, keeps others apart, and keeps its figures", async () => {
    const { db } = await openDb();
    const acc = await accounts(db);
    const ids = await store(db, acc, [
      { platform: "weibo", text: canteen, at: T0, author: "小明" },
      { platform: "discuz", text: fire, at: T0 + min, author: "阿强" },
      { platform: "tieba", title: "三食堂青菜里有虫子？", text: "三食堂二楼青菜里吃出虫子是真的吗？后勤处回应了没有", at: T0 + 10 * min, author: "路人甲" },
      { platform: "discuz", text: `转自微博：${canteen}`, at: T0 + 20 * min, author: "搬运工" },
      { platform: "tieba", text: "顶", at: T0 + 21 * min, author: "路人乙", parent: 2 },
      { platform: "weibo", text: "哈哈哈", at: T0 + 22 * min, author: "路人丙" },
    ]);
    expect(await clusterPending(db)).toBe(6);
    expect(await db.incidentQueue.count()).toBe(0);
    const of = new Map((await db.incidentPost.findMany()).map((m) => [m.postId, m]));
    const canteenId = of.get(ids[0]!)!.incidentId;
    expect(of.get(ids[2]!)!.incidentId).toBe(canteenId);
    expect(of.get(ids[3]!)!.incidentId).toBe(canteenId);
    // The copy with its own prefix is within SimHash reach or, failing that, similar by its words.
    expect(["near-duplicate", "similar"]).toContain(of.get(ids[3]!)!.reason);
    expect(of.get(ids[4]!)!).toMatchObject({ incidentId: canteenId, reason: "reply", matchedPostId: ids[2] });
    expect(of.get(ids[1]!)!.incidentId).not.toBe(canteenId);
    expect(of.has(ids[5]!)).toBe(false);
    const inc = await db.incident.findUniqueOrThrow({ where: { id: canteenId } });
    expect(inc).toMatchObject({
      status: "open",
      size: 4,
      threadCount: 3,
      authorCount: 4,
      accountCount: 3,
      platformCount: 3,
      replyCount: 1,
      flaggedCount: 0,
      // The largest thread (the Tieba post and its reply) stands for it; its title names it.
      title: "三食堂青菜里有虫子？",
      representativePostId: ids[2],
    });
    expect(JSON.parse(inc.platforms)).toEqual(["weibo", "tieba", "discuz"]);
    expect(inc.firstSeenAt.getTime()).toBe(T0);
    expect(inc.lastSeenAt.getTime()).toBe(T0 + 21 * min);
    expect(JSON.parse(inc.keywords)).toEqual(expect.arrayContaining(["食堂", "虫子", "青菜"]));
    const other = await db.incident.findUniqueOrThrow({ where: { id: of.get(ids[1]!)!.incidentId } });
    expect(other).toMatchObject({ status: "candidate", size: 1 });
  });

  it("a candidate opens at two authors, or at one flagged post", async () => {
    const { db } = await openDb();
    const acc = await accounts(db);
    const [a, b] = await store(db, acc, [
      { platform: "tieba", title: "宿舍楼起火", text: fire, at: T0, author: "楼主" },
      { platform: "tieba", text: "补充一下，七号楼三楼的那间寝室已经烧黑了，消防说是大功率电器", at: T0 + min, author: "楼主", parent: 0 },
    ]);
    await clusterPending(db);
    const id = (await db.incidentPost.findUniqueOrThrow({ where: { postId: a! } })).incidentId;
    expect((await db.incident.findUniqueOrThrow({ where: { id } })).status).toBe("candidate");
    // A flag on a member (the classifier writes it after storing) promotes the candidate.
    const topic = await db.topic.create({ data: { name: "安全" } });
    await db.flag.create({ data: { postId: b!, topicId: topic.id, reasons: "[]", score: 0.9 } });
    expect(await refreshIncidentsOf(db, [b!])).toBe(1);
    expect(await db.incident.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "open", flaggedCount: 1, topicId: topic.id });

    const [c] = await store(db, acc, [{ platform: "weibo", text: canteen, at: T0 + 60 * min, author: "甲" }]);
    await store(db, acc, [{ platform: "weibo", text: "三食堂青菜里吃出虫子，后勤处到现在都没回应", at: T0 + 61 * min, author: "乙" }]);
    await clusterPending(db);
    const id2 = (await db.incidentPost.findUniqueOrThrow({ where: { postId: c! } })).incidentId;
    expect(await db.incident.findUniqueOrThrow({ where: { id: id2 } })).toMatchObject({ status: "open", size: 2, authorCount: 2 });
  });

  it("a run stopped half-way loses nothing and clusters nothing twice", async () => {
    const { db } = await openDb();
    const acc = await accounts(db);
    const seeds: Seed[] = [];
    for (let i = 0; i < 12; i++) {
      seeds.push({
        platform: i % 2 ? "weibo" : "tieba",
        text: i % 3 === 0 ? canteen : i % 3 === 1 ? fire : `第${i}条：图书馆空调坏了${i}天，自习室热得坐不住`,
        at: T0 + i * min,
      });
    }
    const ids = await store(db, acc, seeds);
    // Stop after 5 posts: like a process killed between two posts' transactions.
    expect(await clusterPending(db, { limit: 5, batch: 2 })).toBe(5);
    expect(await db.incidentQueue.count()).toBe(7);
    const firstRun = await db.incidentPost.count();
    expect(firstRun).toBe(5);
    expect(await clusterPending(db)).toBe(7);
    expect(await db.incidentQueue.count()).toBe(0);
    const members = await db.incidentPost.findMany();
    expect(members.length).toBe(12);
    expect(new Set(members.map((m) => m.postId))).toEqual(new Set(ids));
    // Sizes add up: nobody counted twice.
    const sizes = await db.incident.findMany({ select: { size: true } });
    expect(sizes.reduce((s, r) => s + r.size, 0)).toBe(12);
    // Nothing left: a third run does nothing.
    expect(await clusterPending(db)).toBe(0);
  });

  it("the database index decides exactly as the memory index", async () => {
    const { db } = await openDb();
    const acc = await accounts(db);
    const texts = [
      canteen,
      fire,
      "三食堂二楼青菜里吃出虫子是真的吗？后勤处回应了没有",
      "七号宿舍楼起火，浓烟好大，消防车来了好几辆",
      "图书馆四楼自习室的空调又坏了，热得根本坐不住，希望尽快修好",
      "明天的高数期中考试改到下周三了，大家互相转告一下",
      `转发微博 ${canteen}`,
      "顶",
      "期中考试延期的通知出来了吗？高数改到下周三",
      "图书馆空调什么时候修好，自习室太热了",
      "宿舍违规电器引发火灾，学校要开始查寝了",
      "食堂卫生问题不是第一次了，三食堂必须整改",
    ];
    const seeds: Seed[] = texts.map((text, i) => ({
      platform: (["weibo", "tieba", "discuz"] as const)[i % 3]!,
      text,
      at: T0 + i * 7 * min,
      ...(i === 7 ? { parent: 0 } : {}),
    }));
    const ids = await store(db, acc, seeds);
    await clusterPending(db);
    const dbOf = new Map((await db.incidentPost.findMany()).map((m) => [m.postId, m.incidentId]));
    const mem = new IncidentClusterer(new MemoryIndex());
    const memOf = new Map<number, number | null>();
    for (let i = 0; i < ids.length; i++) {
      const d = await mem.cluster({
        key: ids[i]!,
        time: seeds[i]!.at,
        title: "",
        text: texts[i]!,
        ocrText: null,
        ...(i === 7 ? { parentKey: ids[0]!, linkKind: "reply" as const } : {}),
      });
      memOf.set(ids[i]!, d.incidentId);
    }
    // Same partition (incident ids differ between the two).
    const partition = (of: (id: number) => number | null | undefined) => ids.map((a) => ids.map((b) => of(a) != null && of(a) === of(b)).join(",")).join(";");
    expect(partition((id) => dbOf.get(id))).toBe(partition((id) => memOf.get(id)));
    expect(new Set(dbOf.values()).size).toBeGreaterThan(3);
  });

  it("a rebuild keeps pinned posts, renamed titles and dismissed incidents' posts apart", async () => {
    const { db } = await openDb();
    const acc = await accounts(db);
    const ids = await store(db, acc, [
      { platform: "weibo", text: canteen, at: T0 },
      { platform: "tieba", text: "三食堂二楼青菜里吃出虫子是真的吗？后勤处回应了没有", at: T0 + min },
      { platform: "discuz", text: fire, at: T0 + 2 * min },
      { platform: "weibo", text: "七号宿舍楼起火，浓烟好大，消防车来了好几辆", at: T0 + 3 * min },
      { platform: "tieba", text: "图书馆四楼自习室的空调又坏了，热得根本坐不住，希望尽快修好", at: T0 + 4 * min },
    ]);
    await clusterPending(db);
    const of = async (postId: number) => (await db.incidentPost.findUniqueOrThrow({ where: { postId } })).incidentId;
    const canteenInc = await of(ids[0]!);
    const fireInc = await of(ids[2]!);
    const libraryInc = await of(ids[4]!);
    expect(await of(ids[1]!)).toBe(canteenInc);
    expect(await of(ids[3]!)).toBe(fireInc);
    // Reviewers: rename the canteen incident; dismiss the fire incident; pin the library post
    // into the canteen incident (a reviewer's merge).
    await db.incident.update({ where: { id: canteenInc }, data: { title: "三食堂卫生事件", titleLocked: true } });
    await db.incident.update({ where: { id: fireInc }, data: { status: "dismissed" } });
    await db.incidentPost.update({ where: { postId: ids[4]! }, data: { incidentId: canteenInc, pinned: true, reason: "reviewer" } });
    await db.incident.delete({ where: { id: libraryInc } });

    const r = await rebuildIncidents(db);
    expect(r.posts).toBe(5);
    expect(await of(ids[0]!)).toBe(canteenInc);
    expect(await of(ids[1]!)).toBe(canteenInc);
    expect(await of(ids[4]!)).toBe(canteenInc);
    expect((await db.incidentPost.findUniqueOrThrow({ where: { postId: ids[4]! } })).pinned).toBe(true);
    expect(await db.incident.findUniqueOrThrow({ where: { id: canteenInc } })).toMatchObject({ title: "三食堂卫生事件", size: 3 });
    // The dismissed incident keeps its posts apart, and takes no new one.
    expect(await of(ids[2]!)).toBe(fireInc);
    expect(await of(ids[3]!)).toBe(fireInc);
    await store(db, acc, [{ platform: "discuz", text: "西区七号宿舍楼起火了，消防车已经到了", at: T0 + 10 * min }]);
    await clusterPending(db);
    const last = (await db.post.findFirstOrThrow({ orderBy: { id: "desc" } })).id;
    expect(await of(last)).not.toBe(fireInc);
    // The index was rebuilt: a near-duplicate of the canteen post still joins the kept incident.
    await store(db, acc, [{ platform: "tieba", text: `转发微博 ${canteen}`, at: T0 + 11 * min }]);
    await clusterPending(db);
    expect(await of((await db.post.findFirstOrThrow({ orderBy: { id: "desc" } })).id)).toBe(canteenInc);
  });
});
