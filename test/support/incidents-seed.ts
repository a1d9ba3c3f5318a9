/**
 * Incidents written straight into a test database, as the online clustering (crawler/incidents)
 * would leave them: posts on three platforms with flags and sentiments, incidents with their
 * members (reason, score, matched post) and figures from recomputeIncidentFigures. Used by the
 * integration tests of the incident queries and reviewer actions and by the browser tests' server
 * (test/e2e/server.ts), which seeds one set per locale so that the two specs do not meet.
 *
 * Heat is set by hand (the heat model is not part of what these tests check): the sets sort above
 * anything a crawl produces, so a spec finds them on the first page.
 */
import type { Db } from "../../lib/db";
import { recomputeIncidentFigures } from "../../crawler/incidents/figures";

export interface SeededIncidents {
  topicId: number;
  /** Account ids per platform. */
  accounts: { weibo: number; tieba: number; discuz: number };
  /** "食堂" incident: 6 posts on three platforms (a Weibo post and its repost, a Tieba thread with two replies, a forum post), 2 flagged, bursting. */
  canteen: { id: number; title: string; posts: number[] };
  /** A second canteen incident (2 posts) that a reviewer merges into the first. */
  canteen2: { id: number; title: string; posts: number[] };
  /** A handled exam incident seen three days ago (3 posts). */
  exam: { id: number; title: string; posts: number[] };
  /** A candidate (one post): hidden from the default list. */
  candidate: { id: number; title: string; posts: number[] };
  /** An incident whose title and texts are hostile HTML. */
  hostile: { id: number; title: string; posts: number[] };
}

/**
 * Seed one set of incidents. `tag` keeps sets apart (account URLs, platform ids, titles and the
 * topic name carry it); `now` fixes every date (the latest post is an hour before it).
 */
export async function seedIncidents(
  db: Db,
  { tag = "t", now = new Date(), heatBase = 1000 }: { tag?: string; now?: Date; heatBase?: number } = {},
): Promise<SeededIncidents> {
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * hour);
  const topic = await db.topic.create({ data: { name: `事件测试-${tag}` } });
  const account = (platform: "weibo" | "tieba" | "discuz", name: string) =>
    db.account.create({ data: { platform, entryUrl: `https://${platform}.example.edu.cn/incidents/${tag}`, name: `${name}-${tag}`, enabled: false } });
  const accounts = {
    weibo: (await account("weibo", "校园微博")).id,
    tieba: (await account("tieba", "某大学吧")).id,
    discuz: (await account("discuz", "校园论坛")).id,
  };
  let n = 0;
  const post = async (p: {
    account: keyof typeof accounts;
    title?: string;
    text: string;
    hoursAgo: number;
    parentId?: number;
    author: string;
    sentiment?: "negative" | "neutral" | "positive";
    flag?: "open" | "confirmed" | "dismissed";
    replyCount?: number;
  }) => {
    const id = `${tag}-${n++}`;
    const row = await db.post.create({
      data: {
        accountId: accounts[p.account],
        platformId: id,
        kind: p.parentId ? "reply" : "post",
        parentId: p.parentId ?? null,
        url: `https://${p.account}.example.edu.cn/p/${id}`,
        title: p.title ?? "",
        author: p.author,
        publishedAt: at(p.hoursAgo),
        text: p.text,
        sha1: `seed-${id}`,
        sentiment: p.sentiment ?? null,
        sentimentScore: p.sentiment === "negative" ? 0.9 : p.sentiment ? 0.2 : null,
        replyCount: p.replyCount ?? null,
      },
    });
    if (p.flag) {
      await db.flag.create({
        data: { postId: row.id, topicId: topic.id, reasons: JSON.stringify([{ kind: "keyword", term: "食堂" }]), score: 0.8, status: p.flag },
      });
    }
    return row.id;
  };
  const incident = async (
    d: { title: string; status: string; heat: number; bursting?: boolean; keywords: string[] },
    members: { postId: number; reason: string; score?: number; matchedPostId?: number }[],
  ) => {
    const row = await db.incident.create({
      data: {
        status: d.status,
        title: d.title,
        keywords: JSON.stringify(d.keywords),
        heat: d.heat,
        bursting: d.bursting ?? false,
        handledAt: d.status === "handled" ? at(24) : null,
        firstSeenAt: now,
        lastSeenAt: now,
      },
    });
    for (const m of members)
      await db.incidentPost.create({
        data: { incidentId: row.id, postId: m.postId, reason: m.reason, score: m.score ?? null, matchedPostId: m.matchedPostId ?? null },
      });
    await recomputeIncidentFigures(db, row.id);
    // The seeded title stands for the one clustering chose (figures would take it from the representative post).
    await db.incident.update({ where: { id: row.id }, data: { title: d.title } });
    return { id: row.id, title: d.title, posts: members.map((m) => m.postId) };
  };

  // 食堂: a Weibo post reposted, a Tieba thread with two replies, a forum post hours later.
  const w1 = await post({
    account: "weibo",
    text: `${tag} 二食堂的饭菜吃完拉肚子，好几个同学都进了校医院`,
    hoursAgo: 10,
    author: "小王",
    sentiment: "negative",
    flag: "open",
    replyCount: 5,
  });
  const w2 = await post({
    account: "weibo",
    text: `${tag} 转发：二食堂食品安全问题，拉肚子的同学越来越多`,
    hoursAgo: 9,
    author: "小李",
    sentiment: "negative",
  });
  const t1 = await post({
    account: "tieba",
    title: `${tag} 二食堂食物中毒？`,
    text: "今天中午在二食堂吃饭，下午全寝室拉肚子",
    hoursAgo: 6,
    author: "吧友甲",
    sentiment: "negative",
    flag: "confirmed",
    replyCount: 1,
  });
  const t2 = await post({ account: "tieba", text: "我也是，二食堂的凉菜有问题", hoursAgo: 5, parentId: t1, author: "吧友乙", sentiment: "negative" });
  const t3 = await post({ account: "tieba", text: "学校什么时候回应", hoursAgo: 4, parentId: t1, author: "吧友丙", sentiment: "neutral" });
  const d1 = await post({
    account: "discuz",
    title: `${tag} 关于二食堂食品安全的讨论`,
    text: "后勤处说正在调查二食堂的食品安全问题",
    hoursAgo: 1,
    author: "版主",
    sentiment: "neutral",
  });
  const canteen = await incident(
    { title: `${tag} 二食堂食品安全`, status: "open", heat: heatBase + 90, bursting: true, keywords: ["二食堂", "拉肚子", "食品安全"] },
    [
      { postId: w1, reason: "seed" },
      { postId: w2, reason: "link", score: 1, matchedPostId: w1 },
      { postId: t1, reason: "similar", score: 0.62, matchedPostId: w1 },
      { postId: t2, reason: "reply", matchedPostId: t1 },
      { postId: t3, reason: "reply", matchedPostId: t1 },
      { postId: d1, reason: "similar", score: 0.55, matchedPostId: t1 },
    ],
  );

  const c1 = await post({ account: "tieba", title: `${tag} 食堂卫生太差`, text: "二食堂的餐具没洗干净", hoursAgo: 3, author: "吧友丁", sentiment: "negative" });
  const c2 = await post({ account: "discuz", text: "食堂卫生检查什么时候公布结果", hoursAgo: 2, author: "路人", sentiment: "neutral" });
  const canteen2 = await incident({ title: `${tag} 食堂卫生`, status: "open", heat: heatBase + 40, keywords: ["食堂", "卫生"] }, [
    { postId: c1, reason: "seed" },
    { postId: c2, reason: "similar", score: 0.48, matchedPostId: c1 },
  ]);

  const e1 = await post({ account: "weibo", text: `${tag} 期末考试高数试卷疑似泄露`, hoursAgo: 80, author: "考生A", sentiment: "negative" });
  const e2 = await post({ account: "tieba", text: "高数试卷泄露是真的吗", hoursAgo: 78, author: "考生B", sentiment: "neutral" });
  const e3 = await post({ account: "tieba", text: "教务处辟谣了，试卷没有泄露", hoursAgo: 72, author: "考生C", sentiment: "positive" });
  const exam = await incident({ title: `${tag} 期末考试泄题`, status: "handled", heat: heatBase + 60, keywords: ["期末考试", "泄露"] }, [
    { postId: e1, reason: "seed" },
    { postId: e2, reason: "near-duplicate", score: 0.81, matchedPostId: e1 },
    { postId: e3, reason: "similar", score: 0.44, matchedPostId: e2 },
  ]);

  const s1 = await post({ account: "discuz", text: `${tag} 宿舍楼今晚停电`, hoursAgo: 2, author: "舍长" });
  const candidate = await incident({ title: `${tag} 宿舍停电`, status: "candidate", heat: heatBase + 80, keywords: ["停电"] }, [
    { postId: s1, reason: "seed" },
  ]);

  const h1 = await post({
    account: "weibo",
    title: `<script>alert("incident-xss")</script>`,
    text: `${tag} <img src=x onerror="alert('incident-img')"> 实验楼火警`,
    hoursAgo: 7,
    author: "<b>作者</b>",
    sentiment: "negative",
  });
  const h2 = await post({
    account: "discuz",
    text: `${tag} 实验楼火警 <a href="javascript:alert(1)">看这里</a>`,
    hoursAgo: 6.5,
    author: "路人乙",
    sentiment: "neutral",
  });
  const hostile = await incident(
    { title: `<img src=x onerror="alert('incident-title')"> ${tag} 实验楼火警`, status: "open", heat: heatBase + 10, keywords: ["<b>火警</b>"] },
    [
      { postId: h1, reason: "seed" },
      { postId: h2, reason: "similar", score: 0.5, matchedPostId: h1 },
    ],
  );
  return { topicId: topic.id, accounts, canteen, canteen2, exam, candidate, hostile };
}
