"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AccountActivity } from "@/lib/charts/series";
import { useTranslations } from "next-intl";
import { AXIS, GRID, useFmt } from "./colors";
import { LazyVisible } from "@/components/lazy-visible";

const SERIES = ["posts", "replies", "flags"] as const;

/** Posts and replies per account (busiest first), with flags beside them. */
export function ActivityChart({ data }: { data: AccountActivity[] }) {
  const t = useTranslations("charts.activity");
  const fmt = useFmt();
  const label = (name: unknown) => (SERIES.includes(String(name) as (typeof SERIES)[number]) ? t(String(name) as (typeof SERIES)[number]) : String(name));
  const height = Math.max(160, 26 * data.length + 50);
  return (
    <LazyVisible height={height}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid stroke={GRID} horizontal={false} />
          <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={fmt} allowDecimals={false} />
          <YAxis type="category" dataKey="name" tick={{ ...AXIS, fill: "#1c2430" }} width={170} tickLine={false} axisLine={false} interval={0} />
          <Tooltip formatter={(v, name) => [fmt(v), label(name)]} />
          <Legend formatter={(v) => label(v)} iconType="square" wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="posts" stackId="p" fill="#2f6fd6" isAnimationActive={false} barSize={12} />
          <Bar dataKey="replies" stackId="p" fill="#9fbce8" isAnimationActive={false} barSize={12} />
          <Bar dataKey="flags" fill="#e5484d" isAnimationActive={false} barSize={12} />
        </BarChart>
      </ResponsiveContainer>
    </LazyVisible>
  );
}
