/**
 * Fewer points for a chart than the data has, chosen so that what the chart shows stays true:
 * a chart about 500 pixels wide cannot show more than a few hundred points per series, and every
 * point sent is JSON in the page and SVG the browser has to build.
 *
 * - Lines ({@link downsampleLine}): per slice of the x axis the lowest and the highest point, so
 *   peaks and dips survive (evenly spaced picks can step over a spike), first and last kept.
 * - Bars ({@link mergeBuckets}): adjacent buckets merged by summing, so every total stays exact.
 */

/**
 * At most `max` points of a line, in their order: the first and the last, and for each of
 * `(max - 2) / 2` equal slices of the points in between their lowest and highest `value`.
 * The series' overall minimum and maximum are always among them. `max` below 4 keeps the first
 * and the last only (or everything when there are that few).
 */
export function downsampleLine<T>(points: readonly T[], max: number, value: (p: T) => number): T[] {
  if (points.length <= Math.max(max, 2)) return [...points];
  if (max < 4) return [points[0]!, points.at(-1)!];
  const inner = points.length - 2;
  const slices = Math.floor((max - 2) / 2);
  const out: T[] = [points[0]!];
  for (let s = 0; s < slices; s++) {
    const from = 1 + Math.floor((s * inner) / slices);
    const to = 1 + Math.floor(((s + 1) * inner) / slices); // exclusive
    if (from >= to) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      const v = value(points[i]!);
      if (v < value(points[lo]!)) lo = i;
      if (v > value(points[hi]!)) hi = i;
    }
    // In x order, so the line is drawn through them left to right.
    if (lo === hi) out.push(points[lo]!);
    else out.push(points[Math.min(lo, hi)]!, points[Math.max(lo, hi)]!);
  }
  out.push(points.at(-1)!);
  return out;
}

/**
 * At most `max` bars: runs of adjacent points merged into one whose `keys` are the runs' sums
 * (every total unchanged) and whose other fields (its bucket, its label) are the run's first
 * point's. Points already few enough come back as they are.
 */
export function mergeBuckets<T extends Record<string, unknown>>(points: readonly T[], max: number, keys: readonly (keyof T & string)[]): T[] {
  if (points.length <= max || max < 1) return [...points];
  const size = Math.ceil(points.length / max);
  const out: T[] = [];
  for (let i = 0; i < points.length; i += size) {
    const run = points.slice(i, i + size);
    const merged: Record<string, unknown> = { ...run[0]! };
    for (const k of keys) merged[k] = run.reduce((s, p) => s + (Number(p[k]) || 0), 0);
    out.push(merged as T);
  }
  return out;
}
