"use client";

import { useFormatter, useTranslations } from "next-intl";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
// A type-only import: erased from this client component's bundle, so the module's index is safe here.
import type { HarvestChartRow } from "@/crawler/discover";
import { AXIS, GRID, SERIES_COLORS } from "@/components/charts/colors";

/** One colour per strategy on every chart ("#12 focused" is always green), others by position. */
const STRATEGY_COLORS: Record<string, string> = {
  bfs: SERIES_COLORS[0] as string,
  "best-first": SERIES_COLORS[1] as string,
  focused: SERIES_COLORS[2] as string,
};

function colorOf(key: string, index: number): string {
  return STRATEGY_COLORS[key.split(" ").at(-1) ?? ""] ?? (SERIES_COLORS[(index + 3) % SERIES_COLORS.length] as string);
}

/**
 * Harvest rate against pages crawled, one line per run (strategies side by side). The rows come
 * from `toHarvestChart` on the server, so every run is drawn on the same grid of page counts.
 */
export function DiscoveryHarvestChart({ rows, keys, height = 260 }: { rows: HarvestChartRow[]; keys: string[]; height?: number }) {
  const t = useTranslations("discovery.chart");
  const format = useFormatter();
  const fmt = (n: unknown) => (typeof n === "number" ? format.number(n) : typeof n === "string" ? n : Array.isArray(n) ? n.join(",") : "");
  if (rows.length === 0) return <div className="chart-empty muted small">{t("empty")}</div>;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart data={rows} margin={{ top: 6, right: 12, left: 0, bottom: 0 }}>
        <CartesianGrid stroke={GRID} />
        <XAxis type="number" dataKey="crawled" tick={AXIS} tickLine={false} domain={[0, "dataMax"]} tickFormatter={fmt} />
        <YAxis tick={AXIS} tickLine={false} axisLine={false} width={44} domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
        <Tooltip
          formatter={(v, name) => [`${Math.round(Number(v) * 1000) / 10}%`, String(name)]}
          labelFormatter={(l) => t("pagesCrawled", { pages: fmt(l) })}
        />
        <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
        {keys.map((k, i) => (
          <Line key={k} dataKey={k} name={k} stroke={colorOf(k, i)} dot={false} strokeWidth={1.8} isAnimationActive={false} connectNulls />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
