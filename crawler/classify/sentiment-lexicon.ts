/**
 * The built-in sentiment lexicon: the fallback of ./sentiment.ts while no model trained on the
 * shared Weibo sentiment corpus is installed. The word lists were written for CampusWatch (campus
 * complaints, praise and Weibo sticker names), not taken from any corpus or published lexicon.
 *
 * Scoring: the cleaned text (stickers kept as words) is matched once for every word; overlapping
 * hits keep the leftmost, then longest (不满意 before 满意). A hit is negated when a negator (不,
 * 没, 别, 未, 无, 非, 莫, 勿) occurs in the three characters before it within the same clause
 * (不太满意, 并不差劲, 没有很开心), which flips its polarity; not in words like 非常 or 特别, nor in
 * an A-not-A question (是不是中毒了 asks, it does not deny). P(negative) is then
 * (negative + 1) / (negative + positive + 2): 0.5 without a hit, 0.67 for one negative word.
 */
import { WordMatcher, type WordHit } from "./aho-corasick";

/** Words that make a post read as negative (complaints, accidents, anger, sadness). */
export const NEGATIVE_WORDS: readonly string[] = [
  // complaints and bad service
  "投诉",
  "举报",
  "不满",
  "不满意",
  "失望",
  "差劲",
  "太差",
  "很差",
  "真差",
  "糟糕",
  "垃圾",
  "恶心",
  "难吃",
  "难受",
  "难过",
  "坑人",
  "被坑",
  "欺骗",
  "骗子",
  "诈骗",
  "忽悠",
  "敷衍",
  "推诿",
  "拖欠",
  "克扣",
  "乱收费",
  "黑幕",
  "不公平",
  "不公",
  "歧视",
  "霸凌",
  "欺负",
  "威胁",
  "强迫",
  "逼迫",
  "压榨",
  "腐败",
  "造假",
  "作弊",
  "泄题",
  "泄露",
  "抄袭",
  "违规",
  "违法",
  // harm and accidents
  "中毒",
  "食物中毒",
  "拉肚子",
  "腹泻",
  "呕吐",
  "受伤",
  "伤亡",
  "死亡",
  "去世",
  "自杀",
  "跳楼",
  "火灾",
  "着火",
  "起火",
  "爆炸",
  "事故",
  "坍塌",
  "漏水",
  "停水",
  "停电",
  "断网",
  "发霉",
  "变质",
  "蟑螂",
  "老鼠",
  "虫子",
  "异物",
  // feelings
  "愤怒",
  "生气",
  "气死",
  "怒了",
  "发怒",
  "抓狂",
  "崩溃",
  "绝望",
  "痛苦",
  "伤心",
  "心酸",
  "心寒",
  "寒心",
  "委屈",
  "焦虑",
  "害怕",
  "恐惧",
  "担心",
  "郁闷",
  "烦死",
  "讨厌",
  "可恶",
  "无语",
  "无奈",
  "悲剧",
  "惨",
  "哭了",
  "流泪",
  "可怜",
  "吐槽",
  "抗议",
  "维权",
  "曝光",
  "丢人",
  "丢脸",
  "耻辱",
  "过分",
  "离谱",
  "荒唐",
  "太坑",
  "不靠谱",
  "没良心",
  // Weibo sticker names (kept as words by stickersAsWords)
  "怒",
  "泪",
  "衰",
  "抓狂",
  "生病",
  "鄙视",
  "委屈",
  "晕",
  "吐",
  "悲伤",
  "失望",
  "伤心",
  "怒骂",
  "哼",
];

/** Words that make a post read as positive (praise, thanks, joy, good news). */
export const POSITIVE_WORDS: readonly string[] = [
  "满意",
  "不错",
  "感谢",
  "谢谢",
  "感恩",
  "点赞",
  "称赞",
  "赞美",
  "表扬",
  "好评",
  "优秀",
  "出色",
  "精彩",
  "厉害",
  "真棒",
  "很棒",
  "太棒",
  "完美",
  "漂亮",
  "美好",
  "美丽",
  "幸福",
  "快乐",
  "开心",
  "高兴",
  "愉快",
  "喜欢",
  "喜爱",
  "热爱",
  "爱你",
  "温暖",
  "贴心",
  "暖心",
  "感动",
  "欣慰",
  "骄傲",
  "自豪",
  "荣幸",
  "祝贺",
  "恭喜",
  "祝福",
  "加油",
  "支持",
  "顺利",
  "成功",
  "获奖",
  "夺冠",
  "冠军",
  "好吃",
  "美味",
  "干净",
  "整洁",
  "方便",
  "靠谱",
  "给力",
  "负责",
  "认真",
  "耐心",
  "热情",
  "友善",
  "和谐",
  "期待",
  "享受",
  "舒服",
  "放心",
  "安心",
  "进步",
  "提升",
  "改善",
  "好消息",
  "喜讯",
  "圆满",
  // Weibo sticker names
  "哈哈",
  "嘻嘻",
  "爱你",
  "鼓掌",
  "太开心",
  "偷笑",
  "可爱",
  "好棒",
  "威武",
  "给力",
];

const NEGATORS = new Set(["不", "没", "别", "未", "无", "非", "莫", "勿"]);
// Words with a negator's character that negate nothing: 非常满意 is very satisfied, not unsatisfied.
const NOT_NEGATING = ["非常", "特别", "分别", "区别", "无比", "无论", "不仅", "不但", "不禁", "别人"];
// A negator reaches back this many characters, and not across a clause boundary.
const NEGATION_REACH = 3;
const CLAUSE_END = /[,.!?;:，。！？；：\n、~…]/;

/** One lexicon word found in a text, after negation. */
export interface LexiconHit extends WordHit {
  /** Its polarity after negation. */
  polarity: "negative" | "positive";
  negated: boolean;
}

/** The lexicon's reading of one cleaned text. */
export interface LexiconScore {
  /** P(negative) as (negative + 1) / (negative + positive + 2). */
  pNegative: number;
  hits: LexiconHit[];
}

/** The compiled built-in lexicon. */
export class SentimentLexicon {
  private readonly matcher: WordMatcher;
  private readonly negative: Set<string>;

  constructor(negative: readonly string[] = NEGATIVE_WORDS, positive: readonly string[] = POSITIVE_WORDS) {
    // A word on both lists counts as negative: in a monitoring tool a missed complaint costs more.
    this.negative = new Set(new WordMatcher(negative).words);
    this.matcher = new WordMatcher([...negative, ...positive]);
  }

  /** Score a text cleaned by cleanText (after stickersAsWords). */
  score(cleaned: string): LexiconScore {
    const all = this.matcher.findAll(cleaned).sort((a, b) => a.start - b.start || b.end - a.end);
    const hits: LexiconHit[] = [];
    let until = 0;
    for (const h of all) {
      if (h.start < until) continue;
      until = h.end;
      const negated = negatedAt(cleaned, h.start);
      const base = this.negative.has(h.word) ? "negative" : "positive";
      const polarity = negated ? (base === "negative" ? "positive" : "negative") : base;
      hits.push({ ...h, polarity, negated });
    }
    const neg = hits.filter((h) => h.polarity === "negative").length;
    const pos = hits.length - neg;
    return { pNegative: (neg + 1) / (neg + pos + 2), hits };
  }
}

/** The negator at `i` is part of a word that negates nothing, or of an A-not-A question (是不是, 有没有). */
function notNegating(text: string, i: number): boolean {
  if (i > 0 && text[i - 1] === text[i + 1]) return true;
  return NOT_NEGATING.some((w) => text.startsWith(w, i) || (i > 0 && text.startsWith(w, i - 1)));
}

/** Whether a negator stands within reach before `start`, in the same clause. */
function negatedAt(text: string, start: number): boolean {
  for (let i = start - 1; i >= 0 && i >= start - NEGATION_REACH; i--) {
    const c = text[i] as string;
    if (CLAUSE_END.test(c)) return false;
    if (NEGATORS.has(c) && !notNegating(text, i)) return true;
  }
  return false;
}
