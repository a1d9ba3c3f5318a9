/**
 * The rate model (crawler/incidents/bursts.ts), the heat formula (heat.ts), quiet hours
 * (lib/notify/quiet.ts) and the incident message texts (lib/notify/incident.ts), as pure functions.
 */
import { describe, expect, it } from "vitest";
import { burstVerdict, ewmaRate, hourlyCounts, HOUR_MS, mentionWords, rateOf } from "../../../crawler/incidents/bursts";
import { heatOf } from "../../../crawler/incidents/heat";
import { parseQuietHours, quietUntil } from "../../../lib/notify/quiet";
import { incidentEmail, incidentFeishuPost, incidentMarkdown } from "../../../lib/notify/incident";
import type { IncidentAlertPayload } from "../../../lib/notify/types";

const NOW = new Date("2026-12-03T10:00:00Z");
const ago = (h: number) => new Date(NOW.getTime() - h * HOUR_MS);

describe("rate model", () => {
  it("buckets times by hour before now, the last hour apart", () => {
    const { baseline, recent } = hourlyCounts([ago(0.1), ago(0.9), ago(1.5), ago(2.5), ago(2.6), ago(30)], NOW, 3);
    expect(recent).toBe(2);
    // Oldest first: 3–4 h ago, 2–3 h ago (two), 1–2 h ago (one); 30 h ago is outside the window.
    expect(baseline).toEqual([0, 2, 1]);
  });

  it("a steady rate is no burst; six times it is (考试 mentions 6× their usual rate)", () => {
    // Two mentions an hour for a week, then twelve in the last hour.
    const times: Date[] = [];
    for (let h = 1; h <= 168; h++) times.push(ago(h + 0.2), ago(h + 0.7));
    const steady = rateOf([...times, ago(0.3), ago(0.6)], NOW);
    expect(steady.bursting).toBe(false);
    expect(steady.baseline).toBeCloseTo(2, 5);
    const last = Array.from({ length: 12 }, (_, i) => ago(0.05 + i * 0.07));
    const burst = rateOf([...times, ...last], NOW);
    expect(burst).toMatchObject({ recent: 12, bursting: true });
    expect(burst.ratio).toBeCloseTo(6, 5);
    expect(burst.z).toBeCloseTo((12 - 2) / Math.sqrt(2), 5);
  });

  it("small counts do not burst: the floor, the fewest mentions and the smallest ratio hold them", () => {
    expect(burstVerdict(2, 0).bursting).toBe(false); // 2 < minCount, though z is large against the floor
    expect(burstVerdict(5, 0)).toMatchObject({ baseline: 0.2, bursting: true });
    expect(burstVerdict(30, 20).bursting).toBe(false); // z = 2.2 < 3
    expect(burstVerdict(60, 40).bursting).toBe(false); // z = 3.2 but only 1.5×
  });

  it("the EWMA weighs recent hours more", () => {
    expect(ewmaRate([0, 0, 0, 0, 10], 1)).toBeGreaterThan(ewmaRate([10, 0, 0, 0, 0], 1));
    expect(ewmaRate([], 24)).toBe(0);
  });

  it("mention words drop rule syntax", () => {
    expect(mentionWords(JSON.stringify(["考试", "+作弊", "!招生", "/期[中末]/", "", 3, "考试"]))).toEqual(["考试", "作弊"]);
    expect(mentionWords("not json")).toEqual([]);
  });
});

describe("heat", () => {
  const base = { size: 10, authorCount: 8, platformCount: 1, replyCount: 2, negativeCount: 0, growth6h: 0, bursting: false, hoursSinceLast: 0 };
  it("grows with posts, authors, platforms, replies, growth and negative share", () => {
    const h = heatOf(base);
    for (const more of [{ size: 20 }, { authorCount: 16 }, { platformCount: 2 }, { replyCount: 10 }, { growth6h: 5 }, { negativeCount: 5 }, { bursting: true }])
      expect(heatOf({ ...base, ...more })).toBeGreaterThan(h);
  });
  it("halves for each day without a post", () => {
    expect(heatOf({ ...base, hoursSinceLast: 24 })).toBeCloseTo(heatOf(base) / 2, 0);
    expect(heatOf({ ...base, hoursSinceLast: 48 })).toBeCloseTo(heatOf(base) / 4, 0);
  });
  it("is 0 for an empty incident", () => {
    expect(heatOf({ ...base, size: 0, authorCount: 0, replyCount: 0 })).toBe(0);
  });
});

describe("quiet hours", () => {
  // Asia/Shanghai is UTC+8: 22:00 there is 14:00Z.
  it("parses HH:MM-HH:MM and refuses the rest", () => {
    expect(parseQuietHours("22:00-07:30")).toEqual({ from: 1320, to: 450 });
    expect(parseQuietHours(" 12:00 - 13:00 ")).toEqual({ from: 720, to: 780 });
    for (const bad of ["", null, "25:00-07:00", "22-07", "07:00-07:00"]) expect(parseQuietHours(bad)).toBeNull();
  });
  it("says when they end, across midnight", () => {
    expect(quietUntil("22:00-07:30", new Date("2026-12-03T15:00:00Z"))?.toISOString()).toBe("2026-12-03T23:30:00.000Z"); // 23:00 → 07:30 next day
    expect(quietUntil("22:00-07:30", new Date("2026-12-03T20:00:00Z"))?.toISOString()).toBe("2026-12-03T23:30:00.000Z"); // 04:00 → 07:30
    expect(quietUntil("22:00-07:30", new Date("2026-12-03T02:00:00Z"))).toBeNull(); // 10:00
    expect(quietUntil("12:00-13:00", new Date("2026-12-03T04:30:00Z"))?.toISOString()).toBe("2026-12-03T05:00:00.000Z");
    expect(quietUntil(null, NOW)).toBeNull();
  });
});

describe("incident messages", () => {
  const payload: IncidentAlertPayload = {
    event: "campuswatch.incident",
    kind: "update",
    locale: "zh-CN",
    topic: { id: 1, name: "食品安全", urgent: true },
    incident: {
      id: 7,
      title: '[点我](http://evil.example) 食堂饭菜变质 <at user_id="all">',
      keywords: ["食堂"],
      heat: 42.35,
      bursting: true,
      size: 35,
      platforms: ["weibo", "tieba", "discuz"],
      authorCount: 20,
      flaggedCount: 3,
      negativeCount: 10,
      firstSeenAt: "2026-12-03T01:00:00Z",
      lastSeenAt: "2026-12-03T02:30:00Z",
    },
    reasons: [{ rule: "spread", platformCount: 3, size: 35 }],
    incidentUrl: "https://cw.example.edu.cn/incidents/7",
    crawlRunId: 3,
    at: "2026-12-03T02:31:00Z",
  };
  it("every text carries the title (escaped), heat, platforms, the spread and the link", () => {
    const md = incidentMarkdown(payload, { lineBreak: "\n" });
    expect(md.title).toContain("【紧急】");
    expect(md.text).toContain("已扩散至 3 个平台，共 35 条");
    expect(md.text).toContain("热度 42.4");
    expect(md.text).toContain("微博、贴吧、论坛");
    expect(md.text).toContain("(https://cw.example.edu.cn/incidents/7)");
    expect(md.text).not.toMatch(/\[点我\]|<at|http:\/\/evil/);
    const feishu = JSON.stringify(incidentFeishuPost(payload));
    expect(feishu).toContain("已扩散至 3 个平台，共 35 条");
    expect(feishu).toContain('"href":"https://cw.example.edu.cn/incidents/7"');
    const mail = incidentEmail(payload);
    expect(mail.subject).toContain("食堂饭菜变质");
    expect(mail.text).toContain("事件页面：https://cw.example.edu.cn/incidents/7");
  });
  it("in English with the English locale", () => {
    const md = incidentMarkdown({ ...payload, locale: "en", kind: "alert" }, { lineBreak: "\n" });
    expect(md.title).toContain("[URGENT]");
    expect(md.text).toContain("spread to 3 platforms, 35 posts in all");
    expect(md.text).toContain("Heat 42.4");
  });
});
