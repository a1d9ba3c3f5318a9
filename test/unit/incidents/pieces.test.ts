import { describe, expect, it } from "vitest";
import { bcubed } from "../../../crawler/incidents/bcubed";
import { titleFromPost, promotes } from "../../../crawler/incidents/figures";
import { quotedUrls } from "../../../crawler/incidents/links";
import { fnv1a, hamming, parseSimhashHex, simhash, simhashBands, simhashHex } from "../../../crawler/incidents/simhash";
import { informative, textFeatures } from "../../../crawler/incidents/text-features";

const weights = (words: string[]) => new Map(words.map((w) => [w, 1] as [string, number]));

describe("SimHash and its LSH bands", () => {
  const base = "食堂 饭菜 发霉 学生 腹泻 校医院 就诊 学校 回应 调查 供应商 停业 整顿 家长 担心 卫生 检查 通报 处理 结果".split(" ");

  it("near-identical feature sets are within 3 bits and share a band; unrelated ones are far apart", () => {
    const a = simhash(weights(base));
    const b = simhash(weights([...base.slice(0, -1), "结论"]));
    const c = simhash(weights("图书馆 座位 预约 系统 故障 考研 复习 排队 抢座 管理 规定 开放 时间 延长 自习室 空调 噪音 投诉 反馈 改进".split(" ")));
    expect(hamming(a, a)).toBe(0);
    expect(hamming(a, b)).toBeLessThanOrEqual(8);
    expect(hamming(a, c)).toBeGreaterThan(16);
    // Pigeonhole: within 3 bits, at least one of the 4 16-bit bands is identical.
    const flipped = { hi: a.hi ^ 0x1, lo: (a.lo ^ 0x10001) >>> 0 };
    expect(hamming(a, flipped)).toBe(3);
    const shared = simhashBands(a).filter((x) => simhashBands(flipped).includes(x));
    expect(shared.length).toBeGreaterThanOrEqual(1);
  });

  it("is deterministic and round-trips through hex", () => {
    const h = simhash(weights(base));
    expect(simhash(weights(base))).toEqual(h);
    expect(parseSimhashHex(simhashHex(h))).toEqual(h);
    expect(() => parseSimhashHex("xyz")).toThrow(/64-bit hex/);
    expect(simhash(new Map())).toEqual({ hi: 0, lo: 0 });
    expect(fnv1a("a")).not.toBe(fnv1a("b"));
  });
});

describe("B-cubed", () => {
  it("scores a hand-made table", () => {
    // Items: a1 a2 a3 (event A), b1 b2 (event B), c1 (a background post).
    const labels = ["A", "A", "A", "B", "B", "C"];
    // Clusters: {a1, a2}, {a3, b1, b2}, c1 alone.
    const clusters = [1, 1, 2, 2, 2, null];
    // Precision per item: a1 1, a2 1, a3 1/3, b1 2/3, b2 2/3, c1 1 → 14/3 / 6 = 7/9.
    // Recall per item: a1 2/3, a2 2/3, a3 1/3, b1 1, b2 1, c1 1 → 14/3 / 6 = 7/9.
    const s = bcubed(labels, clusters);
    expect(s.precision).toBeCloseTo(7 / 9, 12);
    expect(s.recall).toBeCloseTo(7 / 9, 12);
    expect(s.f1).toBeCloseTo(7 / 9, 12);
  });

  it("counts every post left alone as its own cluster", () => {
    const s = bcubed(["A", "A", "B"], [null, null, null]);
    expect(s.precision).toBe(1);
    expect(s.recall).toBeCloseTo((0.5 + 0.5 + 1) / 3, 12);
    // Two nulls are not one cluster.
    expect(bcubed(["A", "B"], [null, null]).precision).toBe(1);
    expect(() => bcubed(["A"], [])).toThrow(/1 labels but 0 clusters/);
  });
});

describe("text features", () => {
  it("generic replies are not informative, a real sentence is", () => {
    for (const t of ["顶", "同意", "哈哈哈哈", "转发微博", "[哈哈][哈哈]", "沙发！"]) expect(informative(textFeatures(t)), t).toBe(false);
    expect(informative(textFeatures("三食堂饭菜里吃出虫子，学校至今没有回应"))).toBe(true);
  });

  it("keeps hashtags and headlines as whole terms beside words and bigrams", () => {
    const f = textFeatures("【#三食堂吃出虫子#】学生反映饭菜卫生问题");
    expect([...f.terms.keys()].some((t) => t.endsWith("三食堂吃出虫子"))).toBe(true);
    expect(f.terms.has("饭菜")).toBe(true);
    expect([...f.terms.keys()].some((t) => t === "\u0001卫生")).toBe(true);
  });
});

describe("figures", () => {
  it("promotion: two threads or two authors, or one flag", () => {
    expect(promotes({ size: 1, threadCount: 1, authorCount: 1, flaggedCount: 0 })).toBe(false);
    expect(promotes({ size: 3, threadCount: 1, authorCount: 1, flaggedCount: 0 })).toBe(false);
    expect(promotes({ size: 2, threadCount: 1, authorCount: 2, flaggedCount: 0 })).toBe(true);
    expect(promotes({ size: 2, threadCount: 2, authorCount: 1, flaggedCount: 0 })).toBe(true);
    expect(promotes({ size: 1, threadCount: 1, authorCount: 1, flaggedCount: 1 })).toBe(true);
  });

  it("titles: the post's title, else its headline or first sentence", () => {
    expect(titleFromPost("食堂问题", "正文")).toBe("食堂问题");
    expect(titleFromPost("", "【宿舍楼起火】今晚十点，三号楼冒烟。")).toBe("宿舍楼起火");
    expect(titleFromPost("", "今晚十点，三号楼冒烟。消防车已到")).toBe("今晚十点，三号楼冒烟。");
    expect(titleFromPost("", "很".repeat(100)).length).toBe(41);
    // Cut by characters, never inside an emoji (half a surrogate pair made the incident's update fail on Prisma).
    const emoji = titleFromPost("", `${"很".repeat(39)}😡😡😡`);
    expect(emoji).toBe(`${"很".repeat(39)}😡…`);
  });

  it("quoted URLs are found in HTML and text, capped", () => {
    expect(quotedUrls('<a href="https://weibo.com/1/abc">x</a> 转自 https://bbs.x.edu.cn/t-1.html。')).toEqual([
      "https://weibo.com/1/abc",
      "https://bbs.x.edu.cn/t-1.html",
    ]);
    expect(quotedUrls("http://a/" + " http://b/".repeat(0), Array.from({ length: 50 }, (_, i) => `http://h/${i}`).join(" ")).length).toBe(20);
  });
});
