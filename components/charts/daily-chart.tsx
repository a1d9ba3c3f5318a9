"use client";

import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StackedPoint } from "@/lib/charts/series";
import { usePlatformName } from "../platform-badge";
import { AXIS, GRID, PLATFORM_COLORS, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

/**
 * Beyond this many buckets bars are drawn as stacked steps: at 90 days a bar is a few pixels wide
 * and looks the same as a step, but each bar is an SVG element React builds (4 platforms × 90
 * days = 360 of them per chart, which held the first screenful of charts back by most of a
 * second), where a step area is one path per platform.
 */
const MAX_BARS = 31;

/** One stacked series of a {@link DailyChart}: its data key, its name in the legend and tooltip, its colour. */
export interface DailySeries {
  key: string;
  name: string;
  color: string;
}

/** A stacked series per platform over time: areas, or bars (steps when there are many buckets). */
export function PlatformDailyChart({ data, keys, kind, height = 240 }: { data: StackedPoint[]; keys: string[]; kind: "area" | "bar"; height?: number }) {
  const platformLabel = usePlatformName();
  const series = keys.map((k) => ({ key: k, name: platformLabel(k), color: PLATFORM_COLORS[k] ?? AXIS.fill }));
  return <DailyChart data={data} series={series} kind={kind} height={height} />;
}

/**
 * Stacked series over time (platforms on the charts page; review statuses, decisions and the like
 * on an account's or a topic's page): areas, or bars (steps when there are many buckets).
 */
export function DailyChart({ data, series, kind, height = 240 }: { data: StackedPoint[]; series: DailySeries[]; kind: "area" | "bar"; height?: number }) {
  const fmt = useFmt();
  const steps = kind === "bar" && data.length > MAX_BARS;
  const names = new Map(series.map((s) => [s.key, s.name]));
  const label = (key: unknown) => names.get(String(key)) ?? String(key);
  const common = (
    <>
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID }} minTickGap={18} />
      <YAxis tick={AXIS} tickLine={false} axisLine={false} width={48} tickFormatter={fmt} allowDecimals={false} />
      <Tooltip formatter={(v, name) => [fmt(v), label(name)]} labelFormatter={(l, p) => bucketLabel(p?.[0]?.payload as { bucket?: string } | undefined) ?? l} />
      <Legend formatter={(v) => label(v)} iconType="square" wrapperStyle={{ fontSize: 12 }} />
    </>
  );
  return (
    <LazyVisible height={height}>
      <ResponsiveContainer width="100%" height={height}>
        {kind === "area" || steps ? (
          <AreaChart data={data} margin={{ top: 6, right: 8, left: 0, bottom: 0 }}>
            {common}
            {series.map(({ key, color }) => (
              <Area
                key={key}
                type={steps ? "step" : "monotone"}
                dataKey={key}
                stackId="1"
                stroke={color}
                strokeWidth={steps ? 0.5 : 1}
                fill={color}
                fillOpacity={steps ? 0.85 : 0.35}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        ) : (
          <BarChart data={data} margin={{ top: 6, right: 8, left: 0, bottom: 0 }}>
            {common}
            {series.map(({ key, color }) => (
              <Bar key={key} dataKey={key} stackId="1" fill={color} isAnimationActive={false} />
            ))}
          </BarChart>
        )}
      </ResponsiveContainer>
    </LazyVisible>
  );
}

/** The tooltip's title: the hovered point's bucket (its full date) when it has one. */
function bucketLabel(point: { bucket?: string } | undefined): string | undefined {
  return point?.bucket ? point.bucket : undefined;
}
