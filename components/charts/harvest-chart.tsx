"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { HarvestCurve } from "@/lib/charts/series";
import { useFormatter, useTranslations } from "next-intl";
import { AXIS, GRID, SERIES_COLORS, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

/** Harvest rate against pages crawled: one line per discovery run. */
export function HarvestChart({ curves }: { curves: HarvestCurve[] }) {
  const t = useTranslations("charts.harvest");
  const fmt = useFmt();
  const format = useFormatter();
  return (
    <LazyVisible height={260}>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart margin={{ top: 6, right: 12, left: 0, bottom: 0 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis type="number" dataKey="crawled" tick={AXIS} tickLine={false} domain={[0, "dataMax"]} tickFormatter={fmt} allowDuplicatedCategory={false} />
          <YAxis
            tick={AXIS}
            tickLine={false}
            axisLine={false}
            width={44}
            domain={[0, 1]}
            tickFormatter={(v: number) => format.number(Math.round(v * 100) / 100, { style: "percent" })}
          />
          <Tooltip
            formatter={(v) => [format.number(Math.round(Number(v) * 1000) / 1000, { style: "percent", maximumFractionDigits: 1 }), t("series")]}
            labelFormatter={(l) => t("crawled", { count: fmt(l) })}
          />
          <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
          {curves.map((c, i) => (
            <Line
              key={c.runId}
              data={c.points}
              dataKey="rate"
              name={c.name}
              stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
              dot={false}
              strokeWidth={1.8}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </LazyVisible>
  );
}
