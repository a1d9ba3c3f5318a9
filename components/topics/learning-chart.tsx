"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useFormatter, useTranslations } from "next-intl";
import { AXIS, GRID, SERIES_COLORS } from "../charts/colors";

/** One full training's figures on the review samples held out of it (null: undefined, e.g. no on-topic one held out). */
export interface LearningPoint {
  version: number;
  heldOut: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

const SERIES = ["f1", "precision", "recall"] as const;

/** F1, precision and recall per model version (oldest first): how reviewing improved the topic. */
export function LearningChart({ points }: { points: LearningPoint[] }) {
  const t = useTranslations("topics.learning");
  const format = useFormatter();
  const pct = (v: unknown) => (typeof v === "number" ? format.number(v, { style: "percent", maximumFractionDigits: 1 }) : "—");
  return (
    <div role="img" aria-label={t("chartLabel")} data-testid="learning-chart">
      <ResponsiveContainer width="100%" height={200}>
        <LineChart data={points} margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="version" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={(v) => t("versionValue", { version: String(v) })} />
          <YAxis domain={[0, 1]} tick={AXIS} tickLine={false} axisLine={false} tickFormatter={pct} width={44} />
          <Tooltip
            formatter={(v, name) => [pct(v), t(String(name) as (typeof SERIES)[number])]}
            labelFormatter={(_l, p) => {
              const d = p?.[0]?.payload as LearningPoint | undefined;
              return d ? t("tooltip", { version: String(d.version), heldOut: d.heldOut }) : "";
            }}
          />
          <Legend formatter={(v) => t(String(v) as (typeof SERIES)[number])} wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((s, i) => (
            <Line key={s} dataKey={s} stroke={SERIES_COLORS[i]} strokeWidth={s === "f1" ? 2.5 : 1.5} dot connectNulls isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
