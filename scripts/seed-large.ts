/**
 * Fill a database with a year of campus monitoring data for the dashboard benchmark:
 * 1,000,000 posts and replies (by default) across 24 accounts on the four platforms, every post
 * classified against three topics, flags (most older ones reviewed), earlier versions, crawl runs
 * every two hours per account, notifications and three discovery runs with harvest curves.
 *
 *   npm run seed:large -- [--db file:./data/large.db] [--posts 1000000] [--days 365] [--force]
 *   npm run seed:large -- --db postgresql://…/large      # an empty PostgreSQL database
 *
 * Rows are written straight through better-sqlite3 in the exact formats the Prisma driver
 * adapter uses (ISO-8601 text dates, 0/1 booleans), so the triggers of the post_search migration
 * (full-text index, daily roll-up) run exactly as they do for crawled posts.
 */
import fs from "node:fs";
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { migrateDatabase } from "../lib/migrate";
import os from "node:os";
import path from "node:path";
import { databaseKind, redactUrl, sqlitePath } from "../lib/config";
import { copySqliteToPostgres } from "../lib/db-copy";
import { hashPassword } from "../lib/auth/password";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "file:./data/large.db" },
    posts: { type: "string", default: "1000000" },
    days: { type: "string", default: "365" },
    seed: { type: "string", default: "20261130" },
    force: { type: "boolean", default: false },
  },
});

const TOTAL = Number(args.posts);
const DAYS = Number(args.days);
if (!Number.isInteger(TOTAL) || TOTAL < 1000) throw new Error("--posts must be an integer >= 1000");
if (!Number.isInteger(DAYS) || DAYS < 1) throw new Error("--days must be a positive integer");

const url = args.db!;
// PostgreSQL: seed a temporary SQLite file the same way, then copy it over (`campuswatch db copy`),
// so both databases get exactly the same data for the same seed.
const pgTarget = databaseKind(url) === "postgresql" ? url : undefined;
const file = pgTarget ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-seed-")), "large.db") : sqlitePath(url);
if (!pgTarget && fs.existsSync(file)) {
  if (!args.force) {
    console.error(`${file} exists; pass --force to replace it`);
    process.exit(1);
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(file + suffix, { force: true });
}

// ---- deterministic randomness -------------------------------------------------------------------
let state = Number(args.seed) >>> 0;
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const chance = (p: number) => rand() < p;
const between = (a: number, b: number) => a + rand() * (b - a);

// ---- the campus ---------------------------------------------------------------------------------
type Platform = "weibo" | "tieba" | "discuz" | "blog";
interface AccountSeed {
  platform: Platform;
  name: string;
  entryUrl: string;
  cron: string;
  /** Relative posting volume. */
  weight: number;
}
const ACCOUNTS: AccountSeed[] = [
  ...["北江大学", "北江大学学生会", "北江大学图书馆", "南湖师范大学", "南湖师大青年", "东岭理工大学"].map((name, i) => ({
    platform: "weibo" as const,
    name,
    entryUrl: `https://weibo.com/u/58${String(31000000 + i * 7919).padStart(8, "0")}`,
    cron: "*/10 * * * *",
    weight: 3,
  })),
  ...["北江大学", "南湖师范大学", "东岭理工", "西山医学院", "北江大学考研", "南湖师大食堂"].map((kw) => ({
    platform: "tieba" as const,
    name: `${kw}吧`,
    entryUrl: `https://tieba.baidu.com/f?kw=${encodeURIComponent(kw)}`,
    cron: "*/15 * * * *",
    weight: 2,
  })),
  ...[
    ["bbs.bjdx.edu.cn", 2, "北江大学BBS · 校园热点"],
    ["bbs.bjdx.edu.cn", 7, "北江大学BBS · 学习交流"],
    ["bbs.bjdx.edu.cn", 12, "北江大学BBS · 二手市场"],
    ["bbs.nhsd.edu.cn", 3, "南湖师大论坛 · 综合讨论"],
    ["bbs.nhsd.edu.cn", 9, "南湖师大论坛 · 考试考研"],
    ["bbs.dllg.edu.cn", 5, "东岭理工论坛 · 生活服务"],
  ].map(([host, fid, name]) => ({
    platform: "discuz" as const,
    name: name as string,
    entryUrl: `https://${host}/forum.php?mod=forumdisplay&fid=${fid}`,
    cron: "*/30 * * * *",
    weight: 2,
  })),
  ...["zhanglaoshi", "campus-notes", "xiaoyuan-ji", "library-diary", "jiaowu-blog", "hx-lab"].map((slug, i) => ({
    platform: "blog" as const,
    name: ["张老师的教学随笔", "校园笔记", "校园记", "图书馆日记", "教务小博客", "化学实验室博客"][i]!,
    entryUrl: `https://blog.bjdx.edu.cn/${slug}/`,
    cron: "0 * * * *",
    weight: 0.5,
  })),
];

interface TopicSeed {
  name: string;
  description: string;
  keywords: string[];
  sensitive: string[];
  sentences: string[];
  titles: string[];
  terms: string[];
  /** Share of posts about this topic. */
  rate: number;
}
const TOPICS: TopicSeed[] = [
  {
    name: "考试",
    description: "考试纪律：作弊、替考、泄题和补考安排",
    keywords: ["考试", "作弊", "补考", "挂科", "替考"],
    sensitive: ["作弊", "替考", "泄题"],
    titles: ["期末考试有人作弊？", "求补考安排", "四六级替考广告又来了", "高数挂科率太高了", "考场纪律通知", "听说这次期中泄题了"],
    sentences: [
      "听说昨天的高数期末考试有人用手机作弊，被监考老师当场抓住。",
      "补考名单已经贴在教学楼一楼公告栏，大家记得去看。",
      "贴吧里又有人发四六级替考的广告，千万不要相信。",
      "这学期线性代数挂科的人特别多，补考安排什么时候出来？",
      "教务处通知：考场上携带手机按作弊处理，记过处分。",
      "有人说期中考试的题目提前泄题了，学院正在调查。",
    ],
    terms: ["考试", "作弊", "补考", "挂科", "监考", "替考", "泄题", "教务处"],
    rate: 0.03,
  },
  {
    name: "校园安全",
    description: "诈骗、校园贷、盗窃和消防安全",
    keywords: ["诈骗", "校园贷", "盗窃", "失火", "安全"],
    sensitive: ["诈骗", "校园贷"],
    titles: ["警惕冒充辅导员的诈骗电话", "宿舍楼发生盗窃", "校园贷的坑千万别踩", "实验楼消防演练通知", "快递诈骗新套路"],
    sentences: [
      "有人冒充辅导员打电话要求转账交学费，这是诈骗，请大家注意。",
      "三号宿舍楼昨晚发生盗窃，丢了两台笔记本电脑，请锁好门窗。",
      "朋友借了校园贷，现在利息滚到了好几万，大家千万别碰。",
      "实验楼今天下午进行消防演练，听到警报请有序撤离。",
      "最近有快递诈骗，对方说包裹丢失要退款，让你扫码。",
    ],
    terms: ["诈骗", "校园贷", "盗窃", "宿舍", "辅导员", "转账", "消防", "安全"],
    rate: 0.02,
  },
  {
    name: "食堂",
    description: "食堂价格、卫生和食品安全",
    keywords: ["食堂", "饭菜", "涨价", "卫生"],
    sensitive: ["食物中毒"],
    titles: ["二食堂又涨价了", "食堂卫生问题", "有人吃坏肚子了吗", "食堂承包商要换了"],
    sentences: [
      "二食堂的麻辣香锅今天又涨了两块钱，学生吃不起了。",
      "在三食堂吃饭吃出了头发，卫生实在太差了。",
      "好几个同学吃完晚饭上吐下泻，怀疑是食物中毒。",
      "听说下学期食堂要换承包商，价格会不会再涨？",
    ],
    terms: ["食堂", "涨价", "卫生", "饭菜", "价格", "承包商", "食物中毒"],
    rate: 0.02,
  },
];

const PLAIN_TITLES = [
  "图书馆占座问题", "周末一起去爬山", "求推荐选修课", "校车时刻表更新", "社团招新啦", "考研还是工作", "快递点搬家了",
  "南门又积水了", "校运会报名开始", "宿舍停水通知", "新学期选课攻略", "桂花开了", "毕业照拍摄安排", "二手自行车出售",
  "实习证明盖章", "吉他社周五演出", "校园网又断了", "失物招领：黑色钱包", "羽毛球约球", "寒假留校登记",
];
const PLAIN_SENTENCES = [
  "图书馆四楼的座位早上七点就被占完了。",
  "今晚七点篮球场有院系联赛，欢迎来加油。",
  "宿舍楼今晚十点到十二点停水检修。",
  "校车时刻表更新了，周末加开了两班。",
  "吉他社招新，零基础也欢迎，周五晚上在学生活动中心。",
  "下周有大型校园招聘会，记得带简历。",
  "南门口的路一下雨就积水，希望学校修一修。",
  "有没有人一起组队参加数学建模比赛？",
  "校园网晚上十一点以后特别卡，打游戏根本没法玩。",
  "在二教捡到一个黑色钱包，失主请联系我。",
  "新开的咖啡店在图书馆一楼，学生卡打九折。",
  "明天降温，大家出门记得多穿点。",
  "选课系统明天上午九点开放，提前把课表排好。",
  "毕业照拍摄安排已经发到各班群里了。",
  "操场的跑道刚刚翻新，晚上跑步的人特别多。",
  "摄影社周六组织去植物园采风，欢迎报名。",
  "出一辆九成新的自行车，价格可议。",
  "寒假留校的同学需要在月底前登记。",
  "实验报告下周一之前交到学院办公室。",
  "今天的讲座请到了一位校友，讲得很精彩。",
];
const REPLIES = [
  "顶一下。", "同问。", "谢谢楼主分享！", "我也遇到过这种情况。", "已经反映给后勤了。", "楼主说得对。",
  "求私信详细情况。", "这个消息可靠吗？", "学校应该管一管。", "哈哈哈哈。", "路过看看。", "支持！", "请问具体在哪里？",
  "昨天我也看到了。", "别传谣，等官方通知。", "mark 一下。",
];
const AUTHORS = ["小明同学", "北江一学生", "南湖夜跑人", "匿名用户", "计算机学院", "图书馆小助手", "学生会宣传部", "考研党", "吃货小王", "路人甲", "教务处", "保卫处", "后勤集团", "自行车爱好者", "大四学姐"];

// ---- database -------------------------------------------------------------------------------------
console.log(`migrating ${file} …`);
await migrateDatabase(`file:${file}`);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = OFF");
db.pragma("cache_size = -400000");
db.pragma("temp_store = MEMORY");

const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
const now = Date.now();
// Day boundaries at Asia/Shanghai midnight; the last day is today.
const start = Math.floor((now + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000 - (DAYS - 1) * 86_400_000;
const sha1 = (s: string) => crypto.createHash("sha1").update(s).digest("hex");

// Users: an admin and a reviewer whose reviews appear on old flags.
const password = crypto.randomBytes(9).toString("base64url");
const hash = await hashPassword(password);
const insUser = db.prepare(`INSERT INTO "User"(username, passwordHash, role, createdAt) VALUES (?, ?, ?, ?)`);
insUser.run("admin", hash, "admin", iso(start));
const reviewerId = Number(insUser.run("reviewer", hash, "reviewer", iso(start)).lastInsertRowid);

const insAccount = db.prepare(
  `INSERT INTO "Account"(platform, entryUrl, name, cron, enabled, status, lastRunAt, nextRunAt, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, 'idle', ?, ?, ?, ?)`,
);
const accountIds = ACCOUNTS.map((a) => Number(insAccount.run(a.platform, a.entryUrl, a.name, a.cron, iso(now - 3_600_000), iso(now + 600_000), iso(start), iso(now)).lastInsertRowid));

const insTopic = db.prepare(
  `INSERT INTO "Topic"(name, description, enabled, keywords, userDict, sensitiveWords, relevantLabels, nbThreshold, cosineThreshold, modelVersion, trainedAt, evaluation, webhookUrl, createdAt, updatedAt)
   VALUES (?, ?, 1, ?, '[]', ?, '["on-topic"]', 0.5, 0.35, 1, ?, ?, ?, ?, ?)`,
);
const topicIds = TOPICS.map((t, i) =>
  Number(
    insTopic.run(
      t.name,
      t.description,
      JSON.stringify(t.keywords),
      JSON.stringify(t.sensitive),
      iso(start + 86_400_000),
      JSON.stringify({ accuracy: 0.93 - i * 0.02, precision: 0.9 - i * 0.03, recall: 0.88, f1: 0.89 - i * 0.02, samples: 1200, testSamples: 240 }),
      i === 0 ? "https://hooks.example.edu.cn/campuswatch/exam" : null,
      iso(start),
      iso(now),
    ).lastInsertRowid,
  ),
);

const insPost = db.prepare(
  `INSERT INTO "Post"(accountId, platformId, parentId, kind, url, title, author, publishedAt, text, html, sha1, version, replyCount, firstSeenAt, lastSeenAt)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insVersion = db.prepare(`INSERT INTO "PostVersion"(postId, version, title, text, html, sha1, seenAt, replacedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
const insClass = db.prepare(
  `INSERT INTO "Classification"(postId, topicId, score, cosine, label, relevant, topTerms, sensitiveHits, modelVersion, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
);
const insFlag = db.prepare(`INSERT INTO "Flag"(postId, topicId, reasons, score, status, createdAt, reviewedAt) VALUES (?, ?, ?, ?, ?, ?, ?)`);
const insReview = db.prepare(`INSERT INTO "Review"(flagId, reviewerId, decision, note, createdAt) VALUES (?, ?, ?, ?, ?)`);
const insSample = db.prepare(`INSERT INTO "TopicSample"(topicId, text, label, source, postId, createdAt) VALUES (?, ?, ?, 'review', ?, ?)`);

/** Posting volume over the year: weekly rhythm, quiet summer and winter breaks, busy exam weeks. */
function dayWeight(ms: number): number {
  const d = new Date(ms + 8 * 3_600_000);
  const month = d.getUTCMonth() + 1;
  const dow = d.getUTCDay();
  let w = dow === 0 || dow === 6 ? 0.75 : 1;
  if (month === 7 || month === 8) w *= 0.45;
  if (month === 2) w *= 0.5;
  if (month === 1 || month === 6 || month === 12) w *= 1.25;
  return w;
}
// Spread TOTAL rows over the days in proportion to the weights.
const weights: number[] = [];
for (let d = 0; d < DAYS; d++) weights.push(dayWeight(start + d * 86_400_000));
const weightSum = weights.reduce((a, b) => a + b, 0);
const accountWeightSum = ACCOUNTS.reduce((a, b) => a + b.weight, 0);
const pickAccount = () => {
  let r = rand() * accountWeightSum;
  for (let i = 0; i < ACCOUNTS.length; i++) {
    r -= ACCOUNTS[i]!.weight;
    if (r <= 0) return i;
  }
  return ACCOUNTS.length - 1;
};

interface Recent {
  id: number;
  platformId: string;
  at: number;
  replies: number;
}
const recent: Recent[][] = ACCOUNTS.map(() => []);
const postUrl = (a: AccountSeed, pid: string, parent?: string) => {
  const origin = new URL(a.entryUrl).origin;
  switch (a.platform) {
    case "weibo":
      return `${origin}/${a.entryUrl.split("/").at(-1)}/${parent ?? pid}${parent ? `#comment-${pid}` : ""}`;
    case "tieba":
      return `${origin}/p/${parent ?? pid}${parent ? `?pid=${pid}#${pid}` : ""}`;
    case "discuz":
      return `${origin}/forum.php?mod=viewthread&tid=${parent ?? pid}${parent ? `#pid${pid}` : ""}`;
    default:
      return `${a.entryUrl}${parent ?? pid}.html${parent ? `#comment-${pid}` : ""}`;
  }
};
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

let counts = { posts: 0, replies: 0, flags: 0, reviews: 0, versions: 0 };
let nextPid = 4_000_000_000;
const tStart = Date.now();

const writeDay = db.transaction((day: number, n: number) => {
  const dayStart = start + day * 86_400_000;
  // Times within the day, sorted, with the campus rhythm (few posts at night).
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    let h = between(0, 24);
    if (h < 7 && chance(0.7)) h = between(7, 24);
    else if (chance(0.25)) h = between(19, 24);
    let t = dayStart + Math.floor(h * 3_600_000);
    if (t >= now) t = dayStart + Math.floor(rand() * (now - dayStart));
    times.push(t);
  }
  times.sort((a, b) => a - b);
  for (const at of times) {
    const ai = pickAccount();
    const account = ACCOUNTS[ai]!;
    const accountId = accountIds[ai]!;
    const pool = recent[ai]!;
    const isReply = pool.length > 0 && chance(0.4);
    const pid = String(nextPid++);
    if (isReply) {
      const parent = pool[Math.floor(rand() * pool.length)]!;
      const text = chance(0.15) ? `${pick(REPLIES)}${pick(PLAIN_SENTENCES)}` : pick(REPLIES);
      const html = `<p>${escapeHtml(text)}</p>`;
      const r = insPost.run(accountId, pid, parent.id, "reply", postUrl(account, pid, parent.platformId), "", pick(AUTHORS), iso(at), text, html, sha1(text), 1, null, iso(at + 300_000), iso(at + 300_000));
      parent.replies++;
      counts.replies++;
      classify(Number(r.lastInsertRowid), text, at, account, true);
      continue;
    }
    // A post: mostly campus life, sometimes on one of the topics.
    let topic: TopicSeed | null = null;
    const r0 = rand();
    let acc = 0;
    for (const t of TOPICS) {
      acc += t.rate * (account.name.includes("食堂") && t.name === "食堂" ? 6 : 1);
      if (r0 < acc) {
        topic = t;
        break;
      }
    }
    const sentences = [pick(PLAIN_SENTENCES), pick(PLAIN_SENTENCES)];
    if (chance(0.5)) sentences.push(pick(PLAIN_SENTENCES));
    if (topic) sentences.splice(Math.floor(rand() * sentences.length), 0, pick(topic.sentences));
    const title = account.platform === "weibo" ? "" : topic && chance(0.6) ? pick(topic.titles) : pick(PLAIN_TITLES);
    const text = sentences.join("\n");
    const image = chance(0.08) ? `<p><img src="https://img.example-cdn.cn/${pid}.jpg" alt="图片"></p>` : "";
    const html = sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join("") + image;
    const edited = chance(0.005);
    const r = insPost.run(accountId, pid, null, "post", postUrl(account, pid), title, pick(AUTHORS), iso(at), text, html, sha1(title + "\n" + text), edited ? 2 : 1, 0, iso(at + 300_000), iso(at + 300_000));
    const id = Number(r.lastInsertRowid);
    if (edited) {
      const oldText = sentences.slice(0, -1).join("\n") + "\n（原帖内容已修改）";
      insVersion.run(id, 1, title, oldText, `<p>${escapeHtml(oldText)}</p>`, sha1(title + "\n" + oldText), iso(at + 300_000), iso(at + 7_200_000));
      counts.versions++;
    }
    pool.push({ id, platformId: pid, at, replies: 0 });
    if (pool.length > 40) pool.shift();
    counts.posts++;
    classify(id, title + "\n" + text, at, account, false);
  }
});

function classify(postId: number, text: string, at: number, _account: AccountSeed, reply: boolean) {
  for (let ti = 0; ti < TOPICS.length; ti++) {
    const t = TOPICS[ti]!;
    const hits = t.sensitive.filter((w) => text.includes(w));
    const about = t.sentences.some((s) => text.includes(s)) || t.keywords.some((k) => text.includes(k));
    const score = about ? between(0.55, 0.99) : reply ? between(0.01, 0.2) : between(0.01, 0.45);
    const cosine = about ? between(0.35, 0.8) : between(0, 0.3);
    const terms = about ? t.terms.filter((w) => text.includes(w)) : [];
    const topTerms = JSON.stringify(terms.slice(0, 5).map((term, i) => ({ term, weight: Number((0.5 - i * 0.07).toFixed(3)) })));
    const relevant = score >= 0.5;
    insClass.run(postId, topicIds[ti], score, cosine, relevant ? "on-topic" : "off-topic", relevant ? 1 : 0, topTerms, JSON.stringify(hits), iso(at + 300_000));
    if (!relevant && hits.length === 0) continue;
    const reasons = [
      ...(relevant ? [{ kind: "classifier", detail: `P(on-topic) = ${score.toFixed(2)}` }] : []),
      ...(cosine >= 0.35 ? [{ kind: "cosine", detail: `r = ${cosine.toFixed(2)}` }] : []),
      ...hits.map((w) => ({ kind: "sensitive", detail: w })),
    ];
    const ageDays = (now - at) / 86_400_000;
    const reviewed = chance(ageDays > 14 ? 0.75 : ageDays > 2 ? 0.3 : 0.05);
    const confirmed = reviewed && chance(hits.length ? 0.8 : 0.55);
    const status = reviewed ? (confirmed ? "confirmed" : "dismissed") : "open";
    const reviewedAt = reviewed ? at + between(0.5, 48) * 3_600_000 : null;
    const f = insFlag.run(postId, topicIds[ti], JSON.stringify(reasons), Math.max(score, hits.length ? 1 : 0), status, iso(at + 300_000), reviewedAt ? iso(Math.min(reviewedAt, now)) : null);
    counts.flags++;
    if (reviewed) {
      const flagId = Number(f.lastInsertRowid);
      insReview.run(flagId, reviewerId, confirmed ? "confirm" : "dismiss", chance(0.2) ? (confirmed ? "已转交学院处理" : "误报：正常讨论") : "", iso(Math.min(reviewedAt!, now)));
      insSample.run(topicIds[ti], text, confirmed ? "on-topic" : "off-topic", postId, iso(Math.min(reviewedAt!, now)));
      counts.reviews++;
    }
  }
}

for (let d = 0; d < DAYS; d++) {
  const n = Math.round((TOTAL * weights[d]!) / weightSum);
  writeDay(d, d === DAYS - 1 ? Math.max(0, TOTAL - counts.posts - counts.replies) : n);
  if (d % 30 === 0 || d === DAYS - 1) {
    const done = counts.posts + counts.replies;
    console.log(`day ${d + 1}/${DAYS}: ${done.toLocaleString("en")} rows, ${counts.flags.toLocaleString("en")} flags (${((Date.now() - tStart) / 1000).toFixed(0)} s)`);
  }
}
// Reply counts on posts, as the platforms show them.
db.exec(`UPDATE "Post" SET replyCount = (SELECT count(*) FROM "Post" r WHERE r.parentId = "Post".id) WHERE kind = 'post'`);

// Crawl runs: every two hours per account, a few with errors and blocks.
console.log("crawl runs …");
const insRun = db.prepare(
  `INSERT INTO "CrawlRun"(accountId, trigger, status, startedAt, finishedAt, pagesList, pagesItem, pagesOther, browserPages, bytes, newPosts, changedPosts, unchangedPosts, blocks, errorCount, errors, note)
   VALUES (?, 'schedule', ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, '')`,
);
let runs = 0;
db.transaction(() => {
  for (let t = start; t < now; t += 2 * 3_600_000) {
    for (let ai = 0; ai < ACCOUNTS.length; ai++) {
      const at = t + Math.floor(rand() * 600_000);
      if (at > now) continue;
      const blocked = chance(ACCOUNTS[ai]!.platform === "weibo" ? 0.02 : 0.004);
      const errors = blocked ? 1 + Math.floor(rand() * 3) : chance(0.03) ? 1 : 0;
      const status = blocked ? (chance(0.5) ? "failed" : "partial") : errors ? "partial" : "ok";
      const pagesList = blocked ? 1 : 1 + Math.floor(rand() * 3);
      const pagesItem = Math.floor(rand() * 25);
      const duration = (pagesList + pagesItem) * between(1200, 2500);
      const errs = errors
        ? JSON.stringify(
            Array.from({ length: errors }, () => ({
              at: iso(at + duration / 2),
              url: ACCOUNTS[ai]!.entryUrl,
              kind: blocked ? "BlockedError" : "RetryableError",
              reason: blocked ? "HTTP 418: rate limited" : "timeout after 20000 ms",
            })),
          )
        : "[]";
      insRun.run(accountIds[ai], status, iso(at), iso(at + duration), pagesList, pagesItem, Math.floor(rand() * 2), (pagesList + pagesItem) * 42_000, Math.floor(rand() * 12), chance(0.1) ? 1 : 0, Math.floor(rand() * 30), blocked ? 1 : 0, errors, errs);
      runs++;
    }
  }
})();

// Notifications for the topic with a webhook, and discovery runs with harvest curves.
db.exec(`INSERT INTO "Notification"(topicId, crawlRunId, channel, target, payload, status, attempts, lastError, createdAt, sentAt)
  SELECT ${topicIds[0]}, id, 'webhook', 'https://hooks.example.edu.cn/campuswatch/exam', '{"flags":[]}',
         CASE WHEN id % 17 = 0 THEN 'failed' ELSE 'sent' END, CASE WHEN id % 17 = 0 THEN 3 ELSE 1 END,
         CASE WHEN id % 17 = 0 THEN 'HTTP 502 Bad Gateway' ELSE NULL END, finishedAt,
         CASE WHEN id % 17 = 0 THEN NULL ELSE finishedAt END
  FROM "CrawlRun" WHERE id % 97 = 0`);
const seedSet = Number(db.prepare(`INSERT INTO "SeedSet"(name, createdAt) VALUES ('高校论坛入口', ?)`).run(iso(start)).lastInsertRowid);
const insSeed = db.prepare(`INSERT INTO "SeedUrl"(seedSetId, url) VALUES (?, ?)`);
for (const origin of new Set(ACCOUNTS.map((a) => new URL(a.entryUrl).origin))) insSeed.run(seedSet, origin + "/");
const insDisc = db.prepare(
  `INSERT INTO "DiscoveryRun"(topicId, seedSetId, strategy, status, maxPages, crawled, relevant, createdAt, updatedAt, finishedAt) VALUES (?, ?, ?, 'done', 1000, 1000, ?, ?, ?, ?)`,
);
const insHarvest = db.prepare(`INSERT INTO "HarvestPoint"(runId, crawled, relevant) VALUES (?, ?, ?)`);
db.transaction(() => {
  for (const [strategy, quality] of [["focused", 0.62], ["best-first", 0.45], ["bfs", 0.18]] as const) {
    let rel = 0;
    const at = now - 20 * 86_400_000;
    const run = Number(insDisc.run(topicIds[0], seedSet, strategy, 0, iso(at), iso(at + 3_600_000), iso(at + 3_600_000)).lastInsertRowid);
    for (let c = 1; c <= 1000; c++) {
      const p = quality * (strategy === "bfs" ? 1 : 0.6 + 0.4 * Math.exp(-c / 400));
      if (chance(p)) rel++;
      insHarvest.run(run, c, rel);
    }
    db.prepare(`UPDATE "DiscoveryRun" SET relevant = ? WHERE id = ?`).run(rel, run);
  }
})();

db.pragma("wal_checkpoint(TRUNCATE)");
db.close();
const size = fs.statSync(file).size;
console.log(
  `done in ${((Date.now() - tStart) / 1000).toFixed(0)} s: ${counts.posts.toLocaleString("en")} posts, ${counts.replies.toLocaleString("en")} replies, ` +
    `${counts.flags.toLocaleString("en")} flags (${counts.reviews.toLocaleString("en")} reviewed), ${counts.versions.toLocaleString("en")} edited, ` +
    `${runs.toLocaleString("en")} crawl runs; ${(size / 1e9).toFixed(2)} GB at ${file}`,
);
if (pgTarget) {
  // The target must be empty (the copy refuses otherwise); --force does not drop PostgreSQL data.
  console.log(`copying into ${redactUrl(pgTarget)} …`);
  const t = Date.now();
  await copySqliteToPostgres(`file:${file}`, pgTarget, { log: (l) => console.log(`  ${l}`) });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  console.log(`copied in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}
console.log(`users: admin / reviewer, password ${password}`);
