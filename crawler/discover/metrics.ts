/**
 * Harvest rate (method.md §3): relevant pages crawled / all pages crawled, as a function of the
 * number of pages crawled. Pure functions over HarvestPoint rows, shared by `discover --report`,
 * the benchmark and the dashboard's chart.
 */

/** After `crawled` pages, `relevant` of them were relevant. */
export interface HarvestSample {
  crawled: number;
  relevant: number;
}

/** The page counts `discover --report` prints (those a run reached). */
export const REPORT_PAGE_COUNTS: readonly number[] = [100, 200, 300, 500, 1000, 1500, 2000, 3000, 5000, 10000];

/** Harvest rate after exactly `pages` pages, or null when the run did not get that far. */
export function harvestAt(points: readonly HarvestSample[], pages: number): number | null {
  const p = points.find((x) => x.crawled === pages);
  return p && p.crawled > 0 ? p.relevant / p.crawled : null;
}

/** One line of a harvest report. */
export interface HarvestRow {
  pages: number;
  relevant: number;
  rate: number;
}

/**
 * The report at fixed page counts: the counts in `at` the run reached, plus its last point
 * (so a run that stopped early still shows where it ended).
 */
export function harvestReport(points: readonly HarvestSample[], at: readonly number[] = REPORT_PAGE_COUNTS): HarvestRow[] {
  const sorted = [...points].sort((a, b) => a.crawled - b.crawled);
  const last = sorted.at(-1);
  const rows: HarvestRow[] = [];
  for (const n of at) {
    const p = sorted.find((x) => x.crawled === n);
    if (p) rows.push({ pages: n, relevant: p.relevant, rate: p.relevant / p.crawled });
  }
  if (last && last.crawled > 0 && rows.at(-1)?.pages !== last.crawled) {
    rows.push({ pages: last.crawled, relevant: last.relevant, rate: last.relevant / last.crawled });
  }
  return rows;
}

/** A run's curve for the chart. */
export interface HarvestCurve {
  /** Series key, e.g. "#12 focused". */
  key: string;
  points: readonly HarvestSample[];
}

/** A row of the chart's data: pages crawled, and each curve's harvest rate there (absent when not reached). */
export type HarvestChartRow = { crawled: number } & Record<string, number>;

/**
 * Merge curves into chart rows on a common x grid of at most `maxPoints` page counts (every
 * curve's own points would make thousands of rows). Each curve gets a value at every grid count
 * it reached; curves are compared at the same page counts, as the harvest-rate plots of the
 * papers do.
 */
export function toHarvestChart(curves: readonly HarvestCurve[], maxPoints = 100): HarvestChartRow[] {
  const longest = Math.max(0, ...curves.map((c) => c.points.reduce((m, p) => Math.max(m, p.crawled), 0)));
  if (longest === 0) return [];
  const step = Math.max(1, Math.ceil(longest / maxPoints));
  const grid: number[] = [];
  for (let x = step; x <= longest; x += step) grid.push(x);
  if (grid.at(-1) !== longest) grid.push(longest);
  const byCurve = curves.map((c) => new Map(c.points.map((p) => [p.crawled, p.relevant])));
  return grid.map((x) => {
    const row: HarvestChartRow = { crawled: x };
    curves.forEach((c, i) => {
      const relevant = (byCurve[i] as Map<number, number>).get(x);
      if (relevant !== undefined) row[c.key] = Math.round((relevant / x) * 1000) / 1000;
    });
    return row;
  });
}
