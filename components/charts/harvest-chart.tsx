"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { HarvestCurve } from "@/lib/charts/series";
import { AXIS, GRID, SERIES_COLORS, fmt } from "./colors";

/** Harvest rate against pages crawled: one line per discovery run. */
export function HarvestChart({ curves }: { curves: HarvestCurve[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart margin={{ top: 6, right: 12, left: 0, bottom: 0 }}>
        <CartesianGrid stroke={GRID} />
        <XAxis type="number" dataKey="crawled" tick={AXIS} tickLine={false} domain={[0, "dataMax"]} tickFormatter={fmt} allowDuplicatedCategory={false} />
        <YAxis tick={AXIS} tickLine={false} axisLine={false} width={44} domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
        <Tooltip formatter={(v) => [`${Math.round(Number(v) * 1000) / 10}%`, "harvest rate"]} labelFormatter={(l) => `${fmt(l)} pages crawled`} />
        <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
        {curves.map((c, i) => (
          <Line key={c.runId} data={c.points} dataKey="rate" name={c.name} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} dot={false} strokeWidth={1.8} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
