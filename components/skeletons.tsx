import { useTranslations } from "next-intl";

/** Placeholders shown while a section's data loads (each section streams on its own). */
export function StatsSkeleton({ count = 5 }: { count?: number }) {
  const t = useTranslations("common");
  return (
    <div className="stats" aria-busy="true" aria-label={t("loadingFigures")}>
      {Array.from({ length: count }, (_, i) => (
        <div className="stat skeleton" key={i}>
          <b>&nbsp;</b>&nbsp;
        </div>
      ))}
    </div>
  );
}

/** Rows of grey bars; `label` says what loads (default: "Loading" in the reader's language). */
export function TableSkeleton({ rows = 8, label }: { rows?: number; label?: string }) {
  const t = useTranslations("common");
  return (
    <div className="panel flush" aria-busy="true" aria-label={label ?? t("loading")}>
      {Array.from({ length: rows }, (_, i) => (
        <div className="skeleton-row" key={i}>
          <span className="skeleton-bar" style={{ width: `${12 + ((i * 37) % 20)}%` }} />
          <span className="skeleton-bar" style={{ width: `${40 + ((i * 53) % 30)}%` }} />
        </div>
      ))}
    </div>
  );
}

/** A grey panel of the section's height; `label` as for {@link TableSkeleton}. */
export function PanelSkeleton({ height = 220, label }: { height?: number; label?: string }) {
  const t = useTranslations("common");
  return <div className="panel skeleton" style={{ height }} aria-busy="true" aria-label={label ?? t("loading")} />;
}
