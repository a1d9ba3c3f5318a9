/**
 * Chinese text for the generated platforms: short sentences about campus life, written for this
 * project (not taken from any corpus). Each topic has titles and sentences, so a generated post
 * is on one topic and tests or the demo can check what a classifier makes of it.
 * Everything here is GBK-encodable (no emoji), because Discuz! boards may be served as GBK.
 */

/** Topics of generated posts (the `topic` of every post and reply). */
export const TOPICS = ["canteen", "exam", "sports", "library", "dorm", "club", "career", "campus"] as const;
export type Topic = (typeof TOPICS)[number];

export const TITLES: Record<Topic, readonly string[]> = {
  canteen: ["食堂又涨价了", "求推荐好吃的窗口", "二食堂新菜品测评", "早餐吃什么好", "食堂排队太久了", "夜宵去哪里吃"],
  exam: ["期末复习资料分享", "四级报名提醒", "考试周大家加油", "求线代往年真题", "成绩查询的问题", "补考安排出来了"],
  sports: ["院系篮球联赛开赛", "校运会报名开始", "体测一千米攻略", "周末一起踢球", "游泳馆开放时间", "夜跑小分队招人"],
  library: ["图书馆占座问题", "新书推荐", "续借怎么操作", "自习室开放时间", "图书馆空调修好了"],
  dorm: ["宿舍停水通知", "热水器又坏了", "查寝提醒", "室友作息问题求助", "快递柜太挤了"],
  club: ["社团招新啦", "周末采风活动", "辩论赛通知", "迎新志愿者招募", "话剧社首演"],
  career: ["校园招聘会信息", "考研还是工作", "面试经验分享", "简历怎么写", "实习证明盖章"],
  campus: ["校车时刻表更新", "南门又积水了", "单车乱停问题", "桂花开了", "快递点搬家了"],
};

export const SENTENCES: Record<Topic, readonly string[]> = {
  canteen: [
    "二食堂的麻辣香锅今天又涨了两块钱。",
    "中午十二点去食堂根本排不上队。",
    "三楼新开的面馆味道还不错，就是分量有点少。",
    "早餐的豆浆越来越淡了，希望后勤管一管。",
    "晚上九点以后食堂只剩下泡面和包子。",
    "听说下学期食堂要换承包商，不知道价格会不会变。",
    "清真窗口的牛肉拉面是全校最好吃的。",
    "食堂的餐盘回收处总是堆得满满的。",
  ],
  exam: [
    "高数期末考试安排在下周三上午。",
    "图书馆通宵自习室已经坐满了复习的人。",
    "英语四级报名明天截止，别忘了交费。",
    "老师说这次考试不划重点，全靠平时积累。",
    "有没有人有去年线性代数的真题？",
    "考完试终于可以好好睡一觉了。",
    "补考名单已经贴在教学楼一楼公告栏。",
    "期中成绩出来了，比预想的要好一些。",
  ],
  sports: [
    "今晚七点篮球场有院系联赛，欢迎来加油。",
    "操场的跑道刚刚翻新，晚上跑步的人特别多。",
    "羽毛球馆的场地需要提前一天在公众号预约。",
    "校运会报名开始了，每人最多报三个项目。",
    "足球队这周末和隔壁学校打友谊赛。",
    "体测的一千米实在太难了，求跑步技巧。",
    "游泳馆冬天也开放，学生卡可以打折。",
    "健身房新添了几台跑步机。",
  ],
  library: [
    "图书馆四楼的座位早上七点就被占完了。",
    "借的书到期了记得在网上续借。",
    "新到了一批计算机方面的外文书。",
    "自习室太安静了，咳嗽一声都不好意思。",
    "图书馆的空调终于修好了。",
    "电子阅览室周末开放到晚上十点。",
  ],
  dorm: [
    "宿舍楼今晚十点到十二点停水检修。",
    "楼下的快递柜总是塞满，取件要排队。",
    "室友每天晚上打游戏到两点，怎么办？",
    "宿舍的热水器又坏了，报修三天还没人来。",
    "下周开始查寝，违规电器要收起来。",
    "宿舍楼道的灯换成了声控的。",
  ],
  club: [
    "摄影社周六组织去植物园采风。",
    "吉他社招新，零基础也欢迎。",
    "辩论队本周五晚上在报告厅比赛。",
    "志愿者协会需要人手帮忙迎新。",
    "动漫社的展览在学生活动中心二楼。",
    "话剧社新排的戏下个月首演。",
  ],
  career: [
    "下周有大型校园招聘会，记得带简历。",
    "实习证明要找学院盖章才有效。",
    "考研还是找工作，真的很纠结。",
    "学长分享了面试时被问到的问题。",
    "就业指导中心可以免费修改简历。",
    "秋招的网申已经开始了。",
  ],
  campus: [
    "校车早上七点四十从东门发车。",
    "今天下大雨，南门那段路又积水了。",
    "共享单车在教学楼门口停得乱七八糟。",
    "新校区到老校区的班车加了晚班。",
    "校园里的桂花开了，特别香。",
    "快递点搬到了西门旁边。",
  ],
};

/** Replies that fit any thread. */
export const REPLY_OPENERS: readonly string[] = [
  "同意楼主。",
  "顶一下。",
  "我也遇到过这种情况。",
  "感谢分享！",
  "有没有后续？",
  "哈哈哈真实。",
  "已收藏。",
  "楼主说得对。",
  "蹲一个结果。",
  "这个问题反映过好几次了。",
  "求私信详细说说。",
  "路过支持一下。",
  "明天我去看看。",
  "我觉得还好吧。",
  "学到了。",
];

/** User names (nicknames as they look on campus forums). */
export const NICKNAMES: readonly string[] = [
  "小明",
  "阿青",
  "南风",
  "北辰同学",
  "晚睡星人",
  "图书馆钉子户",
  "食堂常客",
  "跑步的猫",
  "考研小白",
  "三号楼住户",
  "路过的学长",
  "摄影社阿杰",
  "夜跑少年",
  "柚子茶",
  "橘子汽水",
  "林间小鹿",
  "晴天",
  "周同学",
  "半夏",
  "学渣一枚",
];

/** Account names per platform; the k-th account of a platform takes the k-th name (then numbered). */
export const ACCOUNT_NAMES = {
  weibo: ["南苑大学学生会", "北湖理工校园新闻", "东山学院图书馆", "西岭师大青年", "江城职院后勤"],
  tieba: ["南苑大学", "北湖理工", "东山学院", "西岭师大", "江城职院"],
  discuz: ["校园生活", "学习交流", "二手市场", "社团活动", "求职就业"],
  blog: ["阿青的校园日记", "南风的笔记", "晴天小站", "半夏杂记", "周同学的博客"],
  wechat: ["南苑大学微言", "北湖理工青年", "东山学院招生办", "西岭师大学工", "江城职院团委"],
} as const;

/** URL slugs of generated blogs, in the same order as their names. */
export const BLOG_SLUGS: readonly string[] = ["aqing", "nanfeng", "qingtian", "banxia", "zhou"];
