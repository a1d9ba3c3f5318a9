import { useTranslations } from "next-intl";

/**
 * An incident's trend: posts per bucket as a small line (inline SVG, no chart library: a list of
 * thirty of them must stay light). The label gives the total and the peak for screen readers.
 */
export function Sparkline({
  values,
  bucket,
  width = 120,
  height = 28,
}: {
  values: readonly number[];
  bucket: "hour" | "day";
  width?: number;
  height?: number;
}) {
  const t = useTranslations("incidents.list");
  const total = values.reduce((a, b) => a + b, 0);
  const peak = Math.max(0, ...values);
  const label = t("trendLabel", { count: total, bucket, peak });
  if (values.length === 0) return <span className="muted">—</span>;
  // One bucket is a flat line across; otherwise points spread over the width, scaled to the peak.
  const series = values.length === 1 ? [values[0]!, values[0]!] : values;
  const step = width / (series.length - 1);
  const y = (v: number) => (peak === 0 ? height - 2 : height - 2 - (v / peak) * (height - 4));
  const points = series.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} data-testid="sparkline">
      <title>{label}</title>
      <polyline points={`0,${height} ${points} ${width},${height}`} className="sparkline-area" />
      <polyline points={points} className="sparkline-line" />
    </svg>
  );
}
