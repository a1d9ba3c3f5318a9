"use client";

import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TermCount } from "@/lib/charts/series";
import { useTranslations } from "next-intl";
import { AXIS, GRID, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

/** The top terms of this week's flagged posts, by how many posts they appear in. */
export function TermsChart({ data }: { data: TermCount[] }) {
  const t = useTranslations("charts.terms");
  const fmt = useFmt();
  const height = Math.max(140, 24 * data.length + 30);
  return (
    <LazyVisible height={height}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 36, left: 8, bottom: 0 }}>
          <CartesianGrid stroke={GRID} horizontal={false} />
          <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} allowDecimals={false} tickFormatter={fmt} />
          <YAxis type="category" dataKey="term" tick={{ ...AXIS, fontSize: 12.5, fill: "#1c2430" }} width={86} tickLine={false} axisLine={false} interval={0} />
          <Tooltip formatter={(v) => [fmt(v), t("series")]} />
          <Bar dataKey="posts" fill="#e5484d" fillOpacity={0.8} isAnimationActive={false} barSize={14}>
            <LabelList dataKey="posts" position="right" style={{ fontSize: 11, fill: "#5d6b7a" }} formatter={fmt} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </LazyVisible>
  );
}
