/** Placeholders shown while a section's data loads (each section streams on its own). */
export function StatsSkeleton({ count = 5 }: { count?: number }) {
  return (
    <div className="stats" aria-busy="true" aria-label="Loading figures">
      {Array.from({ length: count }, (_, i) => (
        <div className="stat skeleton" key={i}>
          <b>&nbsp;</b>&nbsp;
        </div>
      ))}
    </div>
  );
}

export function TableSkeleton({ rows = 8, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div className="panel flush" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div className="skeleton-row" key={i}>
          <span className="skeleton-bar" style={{ width: `${12 + ((i * 37) % 20)}%` }} />
          <span className="skeleton-bar" style={{ width: `${40 + ((i * 53) % 30)}%` }} />
        </div>
      ))}
    </div>
  );
}

export function PanelSkeleton({ height = 220, label = "Loading" }: { height?: number; label?: string }) {
  return <div className="panel skeleton" style={{ height }} aria-busy="true" aria-label={label} />;
}
