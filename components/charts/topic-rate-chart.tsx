"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TopicRate } from "@/lib/charts/series";
import { useFormatter, useTranslations } from "next-intl";
import { AXIS, GRID, STATUS_COLORS, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

const SERIES_KEY = { open: "seriesOpen", confirmed: "seriesConfirmed", dismissed: "seriesDismissed" } as const;

/** Flags per topic, stacked by review status; the rate per 1,000 posts in the tooltip and labels. */
export function TopicRateChart({ data }: { data: TopicRate[] }) {
  const t = useTranslations("charts.rate");
  const fmt = useFmt();
  const format = useFormatter();
  const label = (name: unknown) => (String(name) in SERIES_KEY ? t(SERIES_KEY[String(name) as keyof typeof SERIES_KEY]) : String(name));
  const rows = data.map((d) => ({ ...d, label: `${d.topic} · ${d.perThousand}‰` }));
  const height = Math.max(140, 46 * rows.length + 50);
  return (
    <LazyVisible height={height}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid stroke={GRID} horizontal={false} />
          <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={fmt} allowDecimals={false} />
          <YAxis type="category" dataKey="label" tick={{ ...AXIS, fill: "#1c2430" }} width={120} tickLine={false} axisLine={false} />
          <Tooltip
            formatter={(v, name) => [fmt(v), label(name)]}
            labelFormatter={(_l, p) => {
              const d = p?.[0]?.payload as TopicRate | undefined;
              return d
                ? t("tooltip", { topic: d.topic, total: fmt(d.total), perThousand: String(d.perThousand) }) +
                    (d.precision !== null ? t("tooltipPrecision", { percent: format.number(Math.round(d.precision * 100) / 100, { style: "percent" }) }) : "")
                : "";
            }}
          />
          <Legend formatter={(v) => label(v)} iconType="square" wrapperStyle={{ fontSize: 12 }} />
          {(["open", "confirmed", "dismissed"] as const).map((s) => (
            <Bar key={s} dataKey={s} stackId="1" fill={STATUS_COLORS[s]} isAnimationActive={false} barSize={22} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </LazyVisible>
  );
}
