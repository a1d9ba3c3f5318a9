/**
 * The campus the large seed invents: 24 accounts on the four platforms, three watched topics with
 * their words and sentences, and the everyday titles, sentences, replies and authors around them.
 * Plain data: scripts/seed-large/posts.ts draws from it.
 */

import type { Platform } from "../../lib/platforms";

/** A seeded account. */
export interface AccountSeed {
  platform: Platform;
  name: string;
  entryUrl: string;
  cron: string;
  /** Relative posting volume. */
  weight: number;
}
/** The accounts, weighted by how much they post. */
export const ACCOUNTS: AccountSeed[] = [
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

/** A seeded topic and the words and sentences of posts about it. */
export interface TopicSeed {
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
/** The watched topics. */
export const TOPICS: TopicSeed[] = [
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

/** Titles of posts about campus life (no topic). */
export const PLAIN_TITLES = [
  "图书馆占座问题",
  "周末一起去爬山",
  "求推荐选修课",
  "校车时刻表更新",
  "社团招新啦",
  "考研还是工作",
  "快递点搬家了",
  "南门又积水了",
  "校运会报名开始",
  "宿舍停水通知",
  "新学期选课攻略",
  "桂花开了",
  "毕业照拍摄安排",
  "二手自行车出售",
  "实习证明盖章",
  "吉他社周五演出",
  "校园网又断了",
  "失物招领：黑色钱包",
  "羽毛球约球",
  "寒假留校登记",
];
/** Sentences of posts about campus life; a topic's post mixes one of its own in. */
export const PLAIN_SENTENCES = [
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
/** Short replies. */
export const REPLIES = [
  "顶一下。",
  "同问。",
  "谢谢楼主分享！",
  "我也遇到过这种情况。",
  "已经反映给后勤了。",
  "楼主说得对。",
  "求私信详细情况。",
  "这个消息可靠吗？",
  "学校应该管一管。",
  "哈哈哈哈。",
  "路过看看。",
  "支持！",
  "请问具体在哪里？",
  "昨天我也看到了。",
  "别传谣，等官方通知。",
  "mark 一下。",
];
/** Author names, of posts and replies alike. */
export const AUTHORS = [
  "小明同学",
  "北江一学生",
  "南湖夜跑人",
  "匿名用户",
  "计算机学院",
  "图书馆小助手",
  "学生会宣传部",
  "考研党",
  "吃货小王",
  "路人甲",
  "教务处",
  "保卫处",
  "后勤集团",
  "自行车爱好者",
  "大四学姐",
];
