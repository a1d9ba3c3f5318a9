"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TopicRate } from "@/lib/charts/series";
import { AXIS, GRID, STATUS_COLORS, fmt } from "./colors";

const LABEL: Record<string, string> = { open: "unreviewed", confirmed: "confirmed", dismissed: "dismissed" };

/** Flags per topic, stacked by review status; the rate per 1,000 posts in the tooltip and labels. */
export function TopicRateChart({ data }: { data: TopicRate[] }) {
  const rows = data.map((d) => ({ ...d, label: `${d.topic} · ${d.perThousand}‰` }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(140, 46 * rows.length + 50)}>
      <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }}>
        <CartesianGrid stroke={GRID} horizontal={false} />
        <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={fmt} allowDecimals={false} />
        <YAxis type="category" dataKey="label" tick={{ ...AXIS, fill: "#1c2430" }} width={120} tickLine={false} axisLine={false} />
        <Tooltip
          formatter={(v, name) => [fmt(v), LABEL[String(name)] ?? name]}
          labelFormatter={(_l, p) => {
            const d = p?.[0]?.payload as TopicRate | undefined;
            return d ? `${d.topic}: ${fmt(d.total)} flags, ${d.perThousand} per 1,000 posts${d.precision !== null ? `, ${Math.round(d.precision * 100)}% of reviewed confirmed` : ""}` : "";
          }}
        />
        <Legend formatter={(v) => LABEL[v] ?? v} iconType="square" wrapperStyle={{ fontSize: 12 }} />
        {(["open", "confirmed", "dismissed"] as const).map((s) => (
          <Bar key={s} dataKey={s} stackId="1" fill={STATUS_COLORS[s]} isAnimationActive={false} barSize={22} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
