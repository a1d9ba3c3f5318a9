/**
 * A small campus week written straight into a test database, for the report and incident CLI
 * tests: three accounts on three platforms, two topics, posts with flags (some reviewed), and
 * incidents in each state with their member posts. The clustering that normally fills Incident
 * and IncidentPost is not run: the rows are written as it would leave them, with figures that
 * agree with their members, so that what reads them is tested on known numbers.
 *
 * Times are fixed (Asia/Shanghai = UTC+8): the busy day is 2026-12-02.
 */
import type { Db } from "../../lib/db";

/** An instant given in Beijing time, "2026-12-02 09:15". */
export const bj = (s: string): Date => new Date(`${s.replace(" ", "T")}:00+08:00`);

/** What {@link seedReportWeek} wrote, for the assertions. */
export interface ReportSeed {
  topics: { exam: number; canteen: number };
  accounts: { weibo: number; tieba: number; discuz: number };
  accountUrls: { weibo: string; tieba: string; discuz: string };
  incidents: { canteen: number; exam: number; dismissed: number; candidate: number; old: number; lastWeek: number };
  /** Post ids by incident (members), and one post in none. */
  members: { canteen: number[]; exam: number[]; old: number[]; lastWeek: number[] };
  loosePostId: number;
}

/** Seed the week (see the module comment). Figures the tests check are in the comments below. */
export async function seedReportWeek(db: Db): Promise<ReportSeed> {
  const exam = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试", "泄题"]) } });
  const canteen = await db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["食堂"]), notifyEmail: "canteen@example.edu.cn" } });
  const accountUrls = {
    weibo: "https://weibo.com/u/1000001",
    tieba: "https://tieba.baidu.com/f?kw=%E5%8D%97%E8%8B%91",
    discuz: "https://bbs.example.edu.cn/forum-2-1.html",
  };
  const weibo = await db.account.create({ data: { platform: "weibo", entryUrl: accountUrls.weibo, name: "校园微博" } });
  const tieba = await db.account.create({ data: { platform: "tieba", entryUrl: accountUrls.tieba, name: "南苑吧" } });
  const discuz = await db.account.create({ data: { platform: "discuz", entryUrl: accountUrls.discuz, name: "校园BBS" } });

  let seq = 0;
  const post = async (accountId: number, at: string, text: string, parentId?: number) => {
    seq += 1;
    const p = await db.post.create({
      data: {
        accountId,
        platformId: `p${seq}`,
        url: `https://example.edu.cn/p/${seq}`,
        title: parentId ? "" : text.slice(0, 12),
        author: `user${seq % 4}`,
        publishedAt: bj(at),
        firstSeenAt: bj(at),
        lastSeenAt: bj(at),
        text,
        sha1: `v2:${String(seq).padStart(40, "0")}`,
        kind: parentId ? "reply" : "post",
        parentId: parentId ?? null,
      },
    });
    return p.id;
  };
  const flag = (postId: number, topicId: number, at: string, status = "open", reviewedAt?: string) =>
    db.flag.create({
      data: {
        postId,
        topicId,
        reasons: JSON.stringify([{ kind: "keyword", detail: "食堂" }]),
        score: 0.9,
        status,
        createdAt: bj(at),
        reviewedAt: reviewedAt ? bj(reviewedAt) : null,
      },
    });

  // Incident "canteen" (open, heat 42.5): 6 posts on weibo and tieba, 2026-12-02 09:10–14:40, 3 flagged.
  const c1 = await post(weibo.id, "2026-12-02 09:10", "二食堂的饭菜里吃出了虫子，大家注意");
  const c2 = await post(weibo.id, "2026-12-02 09:40", "转发：二食堂饭菜里有虫子", undefined);
  const c3 = await post(tieba.id, "2026-12-02 10:05", "南苑二食堂又出问题了，饭菜里有虫");
  const c4 = await post(tieba.id, "2026-12-02 10:20", "我也吃到了", c3);
  const c5 = await post(tieba.id, "2026-12-02 11:30", "食堂的回应呢？", c3);
  const c6 = await post(weibo.id, "2026-12-02 14:40", "后勤处回应二食堂异物事件");
  await flag(c1, canteen.id, "2026-12-02 09:15", "confirmed", "2026-12-02 10:00");
  await flag(c3, canteen.id, "2026-12-02 10:10", "confirmed", "2026-12-02 11:00");
  await flag(c6, canteen.id, "2026-12-02 14:45");
  // Incident "exam" (handled on 12-02 22:00, heat 18): 4 posts on tieba and discuz, 20:05–21:30, 2 flagged.
  const e1 = await post(discuz.id, "2026-12-02 20:05", "期末高数考试题目泄露了？有人在群里卖答案");
  const e2 = await post(discuz.id, "2026-12-02 20:30", "真的假的", e1);
  const e3 = await post(tieba.id, "2026-12-02 21:00", "高数期末考试泄题，教务处在查");
  const e4 = await post(tieba.id, "2026-12-02 21:30", "教务处通知考试照常进行");
  await flag(e1, exam.id, "2026-12-02 20:10");
  await flag(e3, exam.id, "2026-12-02 21:05", "dismissed", "2026-12-02 21:40");
  // A post in no incident, and one the day before (the weekly report counts it, the daily not).
  const loose = await post(weibo.id, "2026-12-02 16:00", "今天天气不错");
  const before = await post(tieba.id, "2026-12-01 08:00", "图书馆占座问题");
  await flag(before, exam.id, "2026-12-01 08:30");
  // Old incident (2026-11-20, not active on 12-02 nor in the week to 12-02), dismissed and candidate ones.
  const o1 = await post(weibo.id, "2026-11-20 12:00", "宿舍楼停水通知");
  const o2 = await post(tieba.id, "2026-11-20 13:00", "宿舍停水到几点");
  const d1 = await post(weibo.id, "2026-12-02 12:00", "抽奖转发");

  const incident = (data: {
    status: string;
    title: string;
    topicId: number | null;
    heat: number;
    platforms: string[];
    members: number[];
    firstSeenAt: string;
    lastSeenAt: string;
    flaggedCount: number;
    bursting?: boolean;
    handledAt?: string;
    createdAt: string;
    keywords: string[];
  }) =>
    db.incident.create({
      data: {
        status: data.status,
        title: data.title,
        topicId: data.topicId,
        heat: data.heat,
        bursting: data.bursting ?? false,
        keywords: JSON.stringify(data.keywords),
        platforms: JSON.stringify(data.platforms),
        platformCount: data.platforms.length,
        size: data.members.length,
        flaggedCount: data.flaggedCount,
        firstSeenAt: bj(data.firstSeenAt),
        lastSeenAt: bj(data.lastSeenAt),
        handledAt: data.handledAt ? bj(data.handledAt) : null,
        createdAt: bj(data.createdAt),
        representativePostId: data.members[0] ?? null,
        posts: { create: data.members.map((postId, i) => ({ postId, reason: i === 0 ? "seed" : "similar", matchedPostId: i === 0 ? null : data.members[0] })) },
      },
    });
  const canteenIncident = await incident({
    status: "open",
    title: "二食堂饭菜异物",
    topicId: canteen.id,
    heat: 42.5,
    bursting: true,
    platforms: ["weibo", "tieba"],
    members: [c1, c2, c3, c4, c5, c6],
    firstSeenAt: "2026-12-02 09:10",
    lastSeenAt: "2026-12-02 14:40",
    flaggedCount: 3,
    createdAt: "2026-12-02 09:40",
    keywords: ["食堂", "虫子", "饭菜"],
  });
  const examIncident = await incident({
    status: "handled",
    title: "高数期末考试泄题传言",
    topicId: exam.id,
    heat: 18,
    platforms: ["discuz", "tieba"],
    members: [e1, e2, e3, e4],
    firstSeenAt: "2026-12-02 20:05",
    lastSeenAt: "2026-12-02 21:30",
    flaggedCount: 2,
    handledAt: "2026-12-02 22:00",
    createdAt: "2026-12-02 20:30",
    keywords: ["考试", "泄题"],
  });
  const oldIncident = await incident({
    status: "open",
    title: "宿舍停水",
    topicId: null,
    heat: 99,
    platforms: ["weibo", "tieba"],
    members: [o1, o2],
    firstSeenAt: "2026-11-20 12:00",
    lastSeenAt: "2026-11-20 13:00",
    flaggedCount: 0,
    createdAt: "2026-11-20 13:00",
    keywords: ["停水"],
  });
  const lastWeek = await incident({
    status: "open",
    title: "图书馆占座",
    topicId: exam.id,
    heat: 5,
    platforms: ["tieba"],
    members: [before],
    firstSeenAt: "2026-12-01 08:00",
    lastSeenAt: "2026-12-01 08:00",
    flaggedCount: 1,
    createdAt: "2026-12-01 08:30",
    keywords: ["图书馆"],
  });
  const dismissed = await incident({
    status: "dismissed",
    title: "抽奖转发",
    topicId: null,
    heat: 80,
    platforms: ["weibo"],
    members: [d1],
    firstSeenAt: "2026-12-02 12:00",
    lastSeenAt: "2026-12-02 12:00",
    flaggedCount: 0,
    createdAt: "2026-12-02 12:00",
    keywords: [],
  });
  const candidate = await db.incident.create({
    data: {
      status: "candidate",
      title: "候选",
      heat: 70,
      firstSeenAt: bj("2026-12-02 15:00"),
      lastSeenAt: bj("2026-12-02 15:00"),
      createdAt: bj("2026-12-02 15:00"),
    },
  });
  return {
    topics: { exam: exam.id, canteen: canteen.id },
    accounts: { weibo: weibo.id, tieba: tieba.id, discuz: discuz.id },
    accountUrls,
    incidents: {
      canteen: canteenIncident.id,
      exam: examIncident.id,
      dismissed: dismissed.id,
      candidate: candidate.id,
      old: oldIncident.id,
      lastWeek: lastWeek.id,
    },
    members: { canteen: [c1, c2, c3, c4, c5, c6], exam: [e1, e2, e3, e4], old: [o1, o2], lastWeek: [before] },
    loosePostId: loose,
  };
}
