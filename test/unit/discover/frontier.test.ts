/**
 * URL normalization, sites, and the frontier: one state per URL, priority order with stable
 * ties, raises and revivals, and a frontier rebuilt from its stored entries popping exactly as
 * the original.
 */
import { describe, expect, test } from "vitest";
import { Frontier, normalizeUrl, siteOf, type FrontierEntry, type LinkVerdict } from "../../../crawler/discover";
import { quantizePriority } from "../../../crawler/discover/frontier";

describe("normalizeUrl", () => {
  test.each([
    ["HTTP://News.Example.COM:80/a/../b/./c.html#top", "http://news.example.com/b/c.html"],
    ["https://example.com:443", "https://example.com/"],
    ["http://example.com/list.php?page=2&cat=3", "http://example.com/list.php?cat=3&page=2"],
    ["http://example.com/a?utm_source=weibo&id=7&spm=a1.b2", "http://example.com/a?id=7"],
    ["http://example.com/a?", "http://example.com/a"],
    ["http://example.com//a//b.html", "http://example.com/a/b.html"],
    ["http://user:pw@example.com/x", "http://example.com/x"],
    ["http://例子.中国/", "http://xn--fsqu00a.xn--fiqs8s/"],
  ])("%s → %s", (raw, normalized) => {
    expect(normalizeUrl(raw)).toBe(normalized);
  });

  test.each(["javascript:void(0)", "mailto:a@b.cn", "ftp://example.com/x", "tel:110", "", "   ", "http://"])("%j is not crawlable", (raw) => {
    expect(normalizeUrl(raw, "http://example.com/")).toBeNull();
  });

  test("relative links resolve against the page", () => {
    expect(normalizeUrl("../b.html?x=1#f", "http://example.com/a/c/d.html")).toBe("http://example.com/a/b.html?x=1");
  });
});

describe("siteOf", () => {
  test.each([
    ["http://www.nju.edu.cn/news/1.html", "nju.edu.cn"],
    ["http://bbs.nju.edu.cn/", "nju.edu.cn"],
    ["https://weibo.com/u/123", "weibo.com"],
    ["https://m.weibo.cn/u/123", "weibo.cn"],
    ["http://sports.sina.com.cn/", "sina.com.cn"],
    ["http://127.0.0.2:8080/a", "127.0.0.2:8080"],
    ["http://127.0.0.2:8081/a", "127.0.0.2:8081"],
    ["http://localhost:3000/", "localhost:3000"],
  ])("%s is on %s", (url, site) => {
    expect(siteOf(url)).toBe(site);
  });
});

const v = (url: string, priority: number, accepted = true, reason = ""): LinkVerdict => ({ url, anchor: url, order: 0, accepted, priority, reason });

function drain(f: Frontier): string[] {
  const out: string[] = [];
  for (let e = f.pop(); e; e = f.pop()) {
    out.push(e.url);
    f.update(e, { state: "done", fetchedAt: new Date(0), relevant: true });
  }
  return out;
}

describe("Frontier", () => {
  test("pops by priority, ties in discovery order; seeds first", () => {
    const f = new Frontier();
    f.addSeeds(["s1", "s2"]);
    for (const [u, p] of [
      ["a", 0.5],
      ["b", 0.9],
      ["c", 0.5],
      ["d", 0.9],
      ["e", 0],
    ] as const)
      f.offer(v(u, p), 0);
    expect(drain(f)).toEqual(["s1", "s2", "b", "d", "a", "c", "e"]);
  });

  test("every URL has one state: rejected links are irrelevant, known URLs are not added twice", () => {
    const f = new Frontier();
    expect(f.offer(v("a", 0.5), 0)).toBe("added");
    expect(f.offer(v("b", 0, false, "block rule"), 0)).toBe("rejected");
    expect(f.offer(v("a", 0.3), 0)).toBe("known");
    expect(f.offer(v("a", 0, false, "budget"), 0)).toBe("known");
    expect(f.size).toBe(2);
    expect(f.counts()).toEqual({ todo: 1, irrelevant: 1, done: 0 });
    expect(f.get("b")).toMatchObject({ state: "irrelevant", reason: "block rule", layer: 1 });
  });

  test("a better link raises a queued URL and shortens its layer", () => {
    const f = new Frontier();
    f.offer(v("x", 0.2), 3);
    f.offer(v("y", 0.5), 0);
    expect(f.offer(v("x", 0.8), 1)).toBe("raised");
    expect(f.get("x")).toMatchObject({ priority: 0.8, layer: 2 });
    expect(drain(f)).toEqual(["x", "y"]);
  });

  test("a link dropped on one page is revived by a better one; a fetched page never comes back", () => {
    const f = new Frontier();
    f.offer(v("x", 0, false, "off-topic page"), 0);
    expect(f.offer(v("x", 0.7), 0)).toBe("revived");
    expect(f.get("x")).toMatchObject({ state: "todo", reason: null });
    expect(drain(f)).toEqual(["x"]);
    expect(f.offer(v("x", 0.9), 0)).toBe("known");
    const g = new Frontier();
    g.offer(v("dead", 0.5), 0);
    const e = g.pop() as FrontierEntry;
    g.update(e, { state: "irrelevant", reason: "unreachable", fetchedAt: new Date(0) });
    expect(g.offer(v("dead", 0.9), 0)).toBe("known");
    expect(g.pop()).toBeUndefined();
  });

  test("a frontier rebuilt from its entries pops exactly like the original", () => {
    const make = () => {
      const f = new Frontier();
      f.addSeeds(["seed"]);
      for (let i = 0; i < 200; i++) f.offer(v(`u${i}`, ((i * 37) % 11) / 10 + 1e-12 * i, i % 7 !== 0), i % 5);
      for (let i = 0; i < 200; i += 3) f.offer(v(`u${i}`, ((i * 13) % 17) / 16), 1);
      return f;
    };
    const original = make();
    // Take some out, as a paused run would have.
    for (let k = 0; k < 50; k++) {
      const e = original.pop() as FrontierEntry;
      original.update(e, { state: "done", fetchedAt: new Date(0) });
    }
    const stored = original.entries().map((e) => ({ ...e }));
    const rebuilt = new Frontier(stored);
    expect(drain(rebuilt)).toEqual(drain(original));
  });

  test("changes are handed out once for writing: new entries, then changed ones", () => {
    const f = new Frontier();
    f.offer(v("a", 0.5), 0);
    f.offer(v("b", 0.4), 0);
    expect(f.takeChanges()).toMatchObject({ created: [{ url: "a" }, { url: "b" }], updated: [] });
    expect(f.clean).toBe(true);
    f.offer(v("b", 0.6), 0);
    f.offer(v("c", 0.1), 0);
    expect(f.takeChanges()).toMatchObject({ created: [{ url: "c" }], updated: [{ url: "b", priority: 0.6 }] });
  });

  test.each([0.1 + 0.2, 1 / 3, 0.4820960311835583, 1, 0])("priority %d is kept on a grid that survives storage", (p) => {
    const q = quantizePriority(p);
    expect(Math.abs(q - p)).toBeLessThanOrEqual(5e-10);
    expect(Number(q.toPrecision(15))).toBe(q);
  });
});
