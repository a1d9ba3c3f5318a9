"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useFormatter, useTranslations } from "next-intl";
import { AXIS, GRID, SERIES_COLORS } from "../charts/colors";

/** One point of the curve as the chart draws it (plain numbers: it crosses the server/client boundary). */
export interface ThresholdChartPoint {
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
}

const SERIES = ["precision", "recall", "f1"] as const;

/** Precision, recall and F1 over thresholds of P(on-topic), the chosen threshold marked. */
export function ThresholdChart({ points, chosen }: { points: ThresholdChartPoint[]; chosen: number | null }) {
  const t = useTranslations("topics.threshold");
  const format = useFormatter();
  const pct = (v: unknown) => (typeof v === "number" ? format.number(v, { style: "percent", maximumFractionDigits: 1 }) : "");
  const num = (v: unknown) => (typeof v === "number" ? format.number(v, { maximumFractionDigits: 3 }) : "");
  return (
    <div role="img" aria-label={t("chartLabel")}>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={points} margin={{ top: 8, right: 16, left: 0, bottom: 8 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis
            type="number"
            dataKey="threshold"
            domain={[0, 1]}
            tick={AXIS}
            tickFormatter={num}
            label={{ value: t("axisThreshold"), position: "insideBottom", offset: -4, fontSize: 11 }}
          />
          <YAxis domain={[0, 1]} tick={AXIS} tickFormatter={pct} width={48} />
          <Tooltip formatter={(v, name) => [pct(v), t(name as (typeof SERIES)[number])]} labelFormatter={(l) => `${t("axisThreshold")} ${num(l)}`} />
          <Legend formatter={(v) => t(v as (typeof SERIES)[number])} wrapperStyle={{ fontSize: 12 }} />
          {chosen !== null && <ReferenceLine x={chosen} stroke="#1c2430" strokeDasharray="4 3" label={{ value: t("chosen"), fontSize: 11, position: "top" }} />}
          {SERIES.map((s, i) => (
            <Line key={s} type="stepAfter" dataKey={s} stroke={SERIES_COLORS[i]} dot={false} strokeWidth={s === "f1" ? 2 : 1.5} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
