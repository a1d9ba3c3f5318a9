"use client";

import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StackedPoint } from "@/lib/charts/series";
import { AXIS, GRID, PLATFORM_COLORS, useFmt, usePlatformLabel } from "./colors";

/** A stacked series per platform over time: areas for posts, bars for flags. */
export function PlatformDailyChart({ data, keys, kind, height = 240 }: { data: StackedPoint[]; keys: string[]; kind: "area" | "bar"; height?: number }) {
  const fmt = useFmt();
  const platformLabel = usePlatformLabel();
  const common = (
    <>
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID }} minTickGap={18} />
      <YAxis tick={AXIS} tickLine={false} axisLine={false} width={48} tickFormatter={fmt} allowDecimals={false} />
      <Tooltip
        formatter={(v, name) => [fmt(v), platformLabel(String(name))]}
        labelFormatter={(l, p) => bucketLabel(p?.[0]?.payload as { bucket?: string } | undefined) ?? l}
      />
      <Legend formatter={(v) => platformLabel(String(v))} iconType="square" wrapperStyle={{ fontSize: 12 }} />
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={height}>
      {kind === "area" ? (
        <AreaChart data={data} margin={{ top: 6, right: 8, left: 0, bottom: 0 }}>
          {common}
          {keys.map((k) => (
            <Area
              key={k}
              type="monotone"
              dataKey={k}
              stackId="1"
              stroke={PLATFORM_COLORS[k]}
              fill={PLATFORM_COLORS[k]}
              fillOpacity={0.35}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      ) : (
        <BarChart data={data} margin={{ top: 6, right: 8, left: 0, bottom: 0 }}>
          {common}
          {keys.map((k) => (
            <Bar key={k} dataKey={k} stackId="1" fill={PLATFORM_COLORS[k]} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}

/** The tooltip's title: the hovered point's bucket (its full date) when it has one. */
function bucketLabel(point: { bucket?: string } | undefined): string | undefined {
  return point?.bucket ? point.bucket : undefined;
}
