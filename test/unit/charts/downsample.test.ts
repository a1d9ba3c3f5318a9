import { describe, expect, test } from "vitest";
import { downsampleLine, mergeBuckets } from "@/lib/downsample";

/** A fixed pseudo-random walk (no Math.random: the same points every run). */
function walk(n: number, seed = 7): { x: number; y: number }[] {
  let s = seed;
  let y = 0;
  return Array.from({ length: n }, (_, x) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    y += (s / 2147483648 - 0.5) * 10;
    return { x, y };
  });
}

describe("downsampleLine", () => {
  test("a series already short enough comes back unchanged (a copy)", () => {
    const pts = walk(50);
    const out = downsampleLine(pts, 200, (p) => p.y);
    expect(out).toEqual(pts);
    expect(out).not.toBe(pts);
  });

  test.each([
    [1000, 200],
    [1000, 201],
    [5000, 150],
    [203, 200],
    [10, 4],
  ])("%i points to at most %i: first and last kept, in x order, every point an original", (n, max) => {
    const pts = walk(n);
    const out = downsampleLine(pts, max, (p) => p.y);
    expect(out.length).toBeLessThanOrEqual(max);
    expect(out[0]).toBe(pts[0]);
    expect(out.at(-1)).toBe(pts.at(-1));
    for (let i = 1; i < out.length; i++) expect(out[i]!.x).toBeGreaterThan(out[i - 1]!.x);
    for (const p of out) expect(pts).toContain(p);
  });

  test("1,000 points to 200: nearly all the room is used", () => {
    const out = downsampleLine(walk(1000), 200, (p) => p.y);
    expect(out.length).toBeGreaterThanOrEqual(190);
  });

  test("the series' highest and lowest points survive, also a one-point spike evenly spaced picks would miss", () => {
    const pts = walk(1000).map((p) => ({ ...p, y: Math.abs(p.y) % 5 }));
    pts[501] = { x: 501, y: 99 }; // a spike between two evenly spaced picks
    pts[733] = { x: 733, y: -42 };
    const out = downsampleLine(pts, 200, (p) => p.y);
    const ys = out.map((p) => p.y);
    expect(Math.max(...ys)).toBe(99);
    expect(Math.min(...ys)).toBe(-42);
    expect(out).toContain(pts[501]);
    expect(out).toContain(pts[733]);
  });

  test("every slice's extremes are kept: a slowly varying line keeps its shape within each slice's range", () => {
    const pts = Array.from({ length: 1000 }, (_, x) => ({ x, y: Math.sin(x / 40) }));
    const out = downsampleLine(pts, 100, (p) => p.y);
    expect(Math.max(...out.map((p) => p.y))).toBe(Math.max(...pts.map((p) => p.y)));
    expect(Math.min(...out.map((p) => p.y))).toBe(Math.min(...pts.map((p) => p.y)));
  });

  test("a tiny budget keeps the two ends", () => {
    const pts = walk(30);
    expect(downsampleLine(pts, 2, (p) => p.y)).toEqual([pts[0], pts[29]]);
    expect(downsampleLine(pts, 0, (p) => p.y)).toEqual([pts[0], pts[29]]);
    expect(downsampleLine([pts[0]!], 0, (p) => p.y)).toEqual([pts[0]]);
    expect(downsampleLine([], 10, (p: { y: number }) => p.y)).toEqual([]);
  });
});

describe("mergeBuckets", () => {
  const days = (n: number) => Array.from({ length: n }, (_, i) => ({ bucket: `d${i}`, label: `L${i}`, weibo: i % 7, tieba: (i * 3) % 5, blog: i % 2 ? 1 : 0 }));
  const KEYS = ["weibo", "tieba", "blog"] as const;
  const totals = (xs: readonly Record<string, unknown>[]) => KEYS.map((k) => xs.reduce((s, p) => s + Number(p[k]), 0));

  test("few enough bars come back as they are", () => {
    const pts = days(90);
    expect(mergeBuckets(pts, 200, [...KEYS])).toEqual(pts);
  });

  test.each([
    [365, 200],
    [1000, 200],
    [401, 200],
    [201, 200],
    [7, 3],
  ])("%i bars to at most %i: every platform's total unchanged, the first bucket and label of each run kept", (n, max) => {
    const pts = days(n);
    const out = mergeBuckets(pts, max, [...KEYS]);
    expect(out.length).toBeLessThanOrEqual(max);
    expect(totals(out)).toEqual(totals(pts));
    expect(out[0]!.bucket).toBe("d0");
    expect(out[0]!.label).toBe("L0");
    const size = Math.ceil(n / max);
    out.forEach((p, i) => expect(p.bucket).toBe(`d${i * size}`));
  });

  test("runs of adjacent bars are summed per key", () => {
    const pts = [
      { bucket: "a", weibo: 1, tieba: 2 },
      { bucket: "b", weibo: 3, tieba: 4 },
      { bucket: "c", weibo: 5, tieba: 6 },
    ];
    expect(mergeBuckets(pts, 2, ["weibo", "tieba"])).toEqual([
      { bucket: "a", weibo: 4, tieba: 6 },
      { bucket: "c", weibo: 5, tieba: 6 },
    ]);
  });
});
