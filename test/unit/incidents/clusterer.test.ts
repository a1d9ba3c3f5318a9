import { describe, expect, it } from "vitest";
import { IncidentClusterer, type ClusterPost } from "../../../crawler/incidents/clusterer";
import { MemoryIndex } from "../../../crawler/incidents/memory-index";

const T0 = Date.UTC(2026, 2, 1, 8, 0, 0);
const min = 60_000;

/** Cluster posts in order on a fresh memory index; returns each key's incident (null: alone). */
async function clusterAll(posts: ClusterPost[], setup?: (index: MemoryIndex) => void) {
  const index = new MemoryIndex();
  setup?.(index);
  const c = new IncidentClusterer(index);
  const out = new Map<number, number | null>();
  const reasons = new Map<number, string | null>();
  for (const p of posts) {
    const d = await c.cluster(p);
    out.set(p.key, d.incidentId);
    reasons.set(p.key, d.reason);
  }
  return { out, reasons, index, c };
}

const canteen = "【三食堂饭菜吃出虫子】今天中午在三食堂二楼买的青菜里吃出了一条虫子，找窗口阿姨理论，对方态度很差，学校后勤什么时候管一管食堂卫生？";
const fire = "【宿舍楼起火】今晚十点左右，西区七号宿舍楼三楼一间寝室冒出浓烟，消防车已经赶到，同学们都疏散到楼下操场，听说是违规使用大功率电器引起的。";

describe("IncidentClusterer on the memory index", () => {
  it("reposts and near-duplicates join the original; an unrelated story stays apart", async () => {
    const { out, reasons } = await clusterAll([
      { key: 1, time: T0, text: canteen },
      { key: 2, time: T0 + 5 * min, text: fire },
      { key: 3, time: T0 + 10 * min, text: `转发微博 ${canteen}` },
      { key: 4, time: T0 + 12 * min, text: canteen.replace("今天中午", "今天") },
    ]);
    expect(out.get(3)).toBe(out.get(1));
    expect(out.get(4)).toBe(out.get(1));
    expect(reasons.get(3)).toBe("near-duplicate");
    expect(out.get(2)).not.toBe(out.get(1));
  });

  it("independent posts about the same event join by their words; other events and background posts stay apart", async () => {
    const { out } = await clusterAll([
      { key: 1, time: T0, text: canteen },
      { key: 2, time: T0 + 1 * min, text: fire },
      { key: 3, time: T0 + 2 * min, text: "图书馆四楼自习室的空调又坏了，热得根本坐不住，希望尽快修好" },
      { key: 4, time: T0 + 20 * min, text: "三食堂青菜里有虫子这事是真的吗？后勤处回应了没有" },
      { key: 5, time: T0 + 25 * min, text: "七号宿舍楼起火，浓烟好大，消防车来了好几辆" },
      { key: 6, time: T0 + 30 * min, text: "明天的高数期中考试改到下周三了，大家互相转告一下" },
    ]);
    expect(out.get(4)).toBe(out.get(1));
    expect(out.get(5)).toBe(out.get(2));
    expect(new Set([out.get(1), out.get(2), out.get(3), out.get(6)]).size).toBe(4);
  });

  it("replies follow their parent whatever their text; generic replies never pull other posts together", async () => {
    const { out, reasons } = await clusterAll([
      { key: 1, time: T0, text: canteen },
      { key: 2, time: T0 + 1 * min, text: fire },
      { key: 3, time: T0 + 2 * min, text: "顶", parentKey: 1, linkKind: "reply" },
      { key: 4, time: T0 + 3 * min, text: "同意", parentKey: 2, linkKind: "reply" },
      { key: 5, time: T0 + 4 * min, text: "哈哈哈哈" },
      { key: 6, time: T0 + 5 * min, text: "顶" },
      { key: 7, time: T0 + 6 * min, text: "同意楼上" },
    ]);
    expect(out.get(3)).toBe(out.get(1));
    expect(reasons.get(3)).toBe("reply");
    expect(out.get(4)).toBe(out.get(2));
    expect(out.get(1)).not.toBe(out.get(2));
    // Generic texts without a link are left alone.
    for (const k of [5, 6, 7]) expect(out.get(k)).toBeNull();
  });

  it("a post is clustered once; a dismissed incident takes no new posts", async () => {
    const index = new MemoryIndex();
    const c = new IncidentClusterer(index);
    const first = await c.cluster({ key: 1, time: T0, text: canteen });
    const again = await c.cluster({ key: 1, time: T0, text: canteen });
    expect(again.already).toBe(true);
    expect(again.incidentId).toBe(first.incidentId);
    index.dismiss(first.incidentId!);
    const dup = await c.cluster({ key: 2, time: T0 + min, text: canteen });
    expect(dup.incidentId).not.toBe(first.incidentId);
    const reply = await c.cluster({ key: 3, time: T0 + 2 * min, text: "顶", parentKey: 1, linkKind: "reply" });
    expect(reply.incidentId).toBeNull();
  });

  it("outside the time window, a similar post starts its own incident", async () => {
    const { out } = await clusterAll([
      { key: 1, time: T0, text: canteen },
      { key: 2, time: T0 + 30 * 24 * 60 * min, text: "三食堂青菜里有虫子这事是真的吗？后勤处回应了没有" },
    ]);
    expect(out.get(2)).not.toBe(out.get(1));
  });

  it("a story spreading right now takes a borderline comment that a story quiet for a day does not", async () => {
    // "学校后勤" is all it shares with the canteen story: too little on its own (score about 0.31),
    // enough five minutes after the story's last post, when the recency factor is near 3.
    const comment = "学校后勤效率真低";
    const after = async (minutes: number) => {
      const { out, reasons } = await clusterAll([
        { key: 1, time: T0, text: canteen },
        { key: 2, time: T0 + min, text: fire },
        { key: 3, time: T0 + minutes * min, text: comment },
      ]);
      return { joined: out.get(3) === out.get(1), reason: reasons.get(3) };
    };
    expect(await after(5)).toEqual({ joined: true, reason: "similar" });
    expect(await after(24 * 60)).toEqual({ joined: false, reason: "seed" });

    // The factor is 1 + 2·e^(−Δ/30 min): the score five minutes on is that of a day on, times it.
    const score = async (minutes: number, recencyBoost?: number) => {
      const c = new IncidentClusterer(new MemoryIndex(), { similarThreshold: 0, ...(recencyBoost ? { recencyBoost } : {}) });
      await c.cluster({ key: 1, time: T0, text: canteen });
      return (await c.cluster({ key: 3, time: T0 + minutes * min, text: comment })).score!;
    };
    const quiet = await score(5, 1);
    expect(await score(5)).toBeCloseTo(quiet * (1 + 2 * Math.exp(-5 / 30)), 6);
    expect(await score(3 * 24 * 60 - 1)).toBeCloseTo(quiet, 6);
  });
});
