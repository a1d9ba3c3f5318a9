/**
 * A small synthetic web for the discovery tests, from short texts written for these tests (never
 * corpus text), and a topic model trained on the same sentences. Labels: 体育 (the topic), 娱乐, 财经.
 */
import { train, type TopicModel } from "../../../crawler/classify";
import type { Db } from "../../../lib/db";
import {
  generateSyntheticWeb,
  seededShuffle,
  startSyntheticWeb,
  type LabelTexts,
  type SyntheticServerOptions,
  type SyntheticWeb,
  type SyntheticWebOptions,
} from "../../support/synthetic-web";

const SENTENCES: Record<string, string[]> = {
  体育: [
    "主队在下半场连进两球，最终以三比一战胜客队。",
    "这名前锋本赛季已经打入二十个进球，排名射手榜第一。",
    "主教练赛后表示，球队的防守还需要加强。",
    "篮球联赛季后赛首轮，卫冕冠军主场轻松取胜。",
    "中国女排在世界杯比赛中连续击败强敌。",
    "国家队公布了新一期集训名单，多名年轻球员入选。",
    "马拉松比赛吸引了三万名跑者参加，冠军打破赛会纪录。",
    "网球公开赛男单决赛，头号种子苦战五盘夺冠。",
    "这场比赛的门票早已售罄，球迷们热情高涨。",
    "乒乓球队在团体赛中发挥稳定，顺利晋级半决赛。",
    "受伤的中锋经过三周康复训练，将在下一轮联赛复出。",
    "游泳运动员在一百米自由泳决赛中刷新亚洲纪录。",
    "足球俱乐部宣布与这名后卫续约三年。",
    "裁判在补时阶段判罚点球，引发双方球员争执。",
    "奥运会田径项目的选拔赛将于下月举行。",
  ],
  娱乐: [
    "这部电影上映首周票房突破五亿元，观众口碑很好。",
    "著名导演宣布新片开机，多位明星加盟演出。",
    "歌手在演唱会上演唱了多首经典歌曲，现场粉丝齐声合唱。",
    "电视剧大结局收视率创下新高，网友热议剧情。",
    "女演员凭借这部影片获得最佳女主角奖。",
    "综艺节目第二季即将播出，嘉宾阵容公布。",
    "电影节红毯仪式上，众多明星盛装亮相。",
    "这位男明星的新专辑发行后登上音乐排行榜榜首。",
    "剧组在横店拍摄古装戏，演员们每天工作十多个小时。",
    "娱乐圈传出两位艺人恋爱的消息，经纪公司予以否认。",
    "动画电影的配音演员阵容曝光，引发影迷期待。",
    "话剧在国家大剧院首演，票房火爆一票难求。",
    "颁奖典礼上，老艺术家获得终身成就奖。",
    "偶像团体宣布举办全国巡回演唱会。",
    "纪录片讲述了演员的成长故事，感动了许多观众。",
  ],
  财经: [
    "央行宣布下调存款准备金率零点五个百分点。",
    "股市今日震荡走高，沪指收涨百分之一。",
    "多家银行上调了房贷利率，购房者压力增加。",
    "这家上市公司发布年报，净利润同比增长三成。",
    "国际油价大幅下跌，能源板块股票普遍走低。",
    "基金经理认为下半年市场流动性依然充裕。",
    "人民币对美元汇率小幅升值，外汇储备保持稳定。",
    "统计局公布数据显示，居民消费价格指数同比上涨。",
    "保险公司推出新的理财产品，年化收益率约为四厘。",
    "债券市场收益率下行，投资者避险情绪升温。",
    "企业家论坛讨论了民营经济发展面临的融资难题。",
    "证监会加强对上市公司信息披露的监管。",
    "黄金价格连续三天上涨，创下近期新高。",
    "商务部表示外贸进出口总额保持增长。",
    "分析师预计明年经济增速将保持平稳。",
  ],
};

/** Title parts: a subject and an event, combined into distinct titles. */
const TITLE_PARTS: Record<string, [string[], string[]]> = {
  体育: [
    ["国足", "女排", "湖人队", "中超联赛", "网球名将", "马拉松赛", "乒乓球队", "游泳队"],
    ["主场大胜晋级决赛", "客场逆转取胜", "公布集训名单", "主力前锋伤愈复出", "刷新赛会纪录", "卫冕冠军", "主教练赛后发布会", "季后赛首轮告捷"],
  ],
  娱乐: [
    ["新片", "电视剧", "演唱会", "综艺节目", "电影节", "偶像团体", "话剧", "颁奖典礼"],
    ["票房突破五亿", "收视率创新高", "门票秒光", "嘉宾阵容曝光", "红毯星光熠熠", "宣布全国巡演", "首演一票难求", "揭晓最佳影片"],
  ],
  财经: [
    ["央行", "股市", "银行业", "上市公司", "国际油价", "人民币汇率", "黄金价格", "债券市场"],
    ["下调准备金率", "震荡走高", "上调房贷利率", "年报净利增长", "大幅下跌", "小幅升值", "创近期新高", "收益率下行"],
  ],
};

/** Keywords of the test topic: words of its titles and sentences, as a user would list them. */
export const KEYWORDS = ["比赛", "冠军", "联赛", "决赛", "国足", "女排", "主教练", "前锋"];

/** The topic of the tests. */
export const TARGET = "体育";

/**
 * Texts for `articlesPerLabel` articles per label: titles from the title parts, bodies of ten
 * of the label's sentences (distinct combinations, seeded order).
 */
export function testTexts(articlesPerLabel: number, seed = 5): Record<string, LabelTexts> {
  const out: Record<string, LabelTexts> = {};
  for (const [label, sentences] of Object.entries(SENTENCES)) {
    // Ten of the fifteen sentences per body (3,003 distinct bodies): long enough to read as an
    // article next to its menus and link boxes, as a real news page does.
    const combos: string[] = [];
    const pick = (from: number, chosen: string[]): void => {
      if (chosen.length === 10) {
        combos.push(chosen.join(""));
        return;
      }
      for (let i = from; i <= sentences.length - (10 - chosen.length); i++) pick(i + 1, [...chosen, sentences[i] as string]);
    };
    pick(0, []);
    const [subjects, events] = TITLE_PARTS[label] as [string[], string[]];
    const titles = subjects.flatMap((s) => events.map((e) => `${s}${e}`));
    out[label] = { titles: seededShuffle(titles, seed), bodies: seededShuffle(combos, seed).slice(0, articlesPerLabel) };
  }
  return out;
}

/** A topic model for 体育 trained on the test sentences and titles. */
export function testModel(): TopicModel {
  const samples = Object.entries(SENTENCES).flatMap(([label, sentences]) => {
    const [subjects, events] = TITLE_PARTS[label] as [string[], string[]];
    return [...sentences, ...subjects.flatMap((s) => events.map((e) => `${s}${e}`))].map((text) => ({ label, text }));
  });
  return train(samples, { relevantLabels: [TARGET] });
}

/** Generate and serve the test web. */
export async function startTestWeb(
  options: Partial<SyntheticWebOptions> & { articlesPerLabel?: number } = {},
  server: SyntheticServerOptions = {},
): Promise<SyntheticWeb> {
  const { articlesPerLabel = 120, ...rest } = options;
  const model = generateSyntheticWeb({
    seed: 11,
    sites: 4,
    farmPages: 40,
    farmLinks: 15,
    sitemapLinks: 40,
    listPageSize: 20,
    ...rest,
    texts: testTexts(articlesPerLabel),
  });
  return startSyntheticWeb(model, server);
}

/** Store the 体育 topic with the test model (as `topics train` would). */
export async function createTestTopic(db: Db, model: TopicModel | null = testModel()) {
  return db.topic.create({
    data: {
      name: TARGET,
      keywords: JSON.stringify(KEYWORDS),
      relevantLabels: JSON.stringify([TARGET]),
      model: model ? JSON.stringify(model.toJSON()) : null,
      modelVersion: model ? 1 : 0,
      trainedAt: model ? new Date() : null,
    },
  });
}
