/** A tiny bar sparkline of hourly counts (oldest first), for burst lists. Decorative: the figures are in the text beside it. */
export function Sparkline({ counts, width = 96, height = 20 }: { counts: readonly number[]; width?: number; height?: number }) {
  const max = Math.max(1, ...counts);
  const w = width / Math.max(1, counts.length);
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false" className="sparkline">
      {counts.map((c, i) => {
        const h = Math.max(c > 0 ? 1 : 0, (c / max) * height);
        return (
          <rect key={i} x={i * w + 0.5} y={height - h} width={Math.max(1, w - 1)} height={h} fill={i === counts.length - 1 ? "currentColor" : "#9aa5b1"} />
        );
      })}
    </svg>
  );
}
