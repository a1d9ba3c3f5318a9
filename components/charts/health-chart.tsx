"use client";

import { Area, Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { HealthPoint } from "@/lib/charts/series";
import { useTranslations } from "next-intl";
import { AXIS, GRID, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

const SERIES = ["runs", "failed", "errors", "blocks", "pagesPerMinute"] as const;
type Series = (typeof SERIES)[number];

/**
 * Two aligned panels: runs with crawl speed (pages per minute of crawling) above, and the things
 * that go wrong — failed runs, errors, blocks — below, on a scale of their own so they stay visible.
 */
export function HealthChart({ data }: { data: HealthPoint[] }) {
  const t = useTranslations("charts.health");
  const fmt = useFmt();
  const label = (name: unknown) => (SERIES.includes(String(name) as Series) ? t(String(name) as Series) : String(name));
  const tooltip = {
    formatter: (v: unknown, name: unknown) => [v === null || v === undefined ? "—" : fmt(v), label(name)] as [string, string],
    labelFormatter: (_l: unknown, p: readonly { payload?: { bucket?: string } }[]) => String(p?.[0]?.payload?.bucket ?? ""),
  };
  return (
    <LazyVisible height={150 + 130}>
      <ResponsiveContainer width="100%" height={150}>
        <ComposedChart data={data} margin={{ top: 6, right: 4, left: 0, bottom: 0 }} syncId="health">
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" hide />
          <YAxis yAxisId="n" tick={AXIS} tickLine={false} axisLine={false} width={48} tickFormatter={fmt} allowDecimals={false} />
          <YAxis yAxisId="speed" orientation="right" tick={AXIS} tickLine={false} axisLine={false} width={36} />
          <Tooltip {...tooltip} />
          <Legend formatter={(v) => label(v)} iconType="square" wrapperStyle={{ fontSize: 12 }} verticalAlign="top" height={22} />
          <Area yAxisId="n" dataKey="runs" stroke="#7fa6e0" fill="#cddcf5" isAnimationActive={false} />
          <Line yAxisId="speed" dataKey="pagesPerMinute" stroke="#14213d" dot={false} strokeWidth={1.6} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
      <ResponsiveContainer width="100%" height={130}>
        <BarChart data={data} margin={{ top: 4, right: 40, left: 0, bottom: 0 }} syncId="health">
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID }} minTickGap={18} />
          <YAxis tick={AXIS} tickLine={false} axisLine={false} width={48} tickFormatter={fmt} allowDecimals={false} />
          <Tooltip {...tooltip} />
          <Legend formatter={(v) => label(v)} iconType="square" wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="failed" stackId="e" fill="#8a1c1c" isAnimationActive={false} />
          <Bar dataKey="blocks" stackId="e" fill="#d9363e" isAnimationActive={false} />
          <Bar dataKey="errors" stackId="e" fill="#f0a92e" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </LazyVisible>
  );
}
