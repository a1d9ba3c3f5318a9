import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { comparisonGroups, harvestCurves } from "@/server/discovery";
import { toHarvestChart } from "@/crawler/discover";
import { DiscoveryHarvestChart } from "./harvest-chart";

/** Per topic, the latest run of each strategy, their harvest curves in one chart. */
export async function StrategyComparison() {
  const [groups, t] = await Promise.all([comparisonGroups(db), getTranslations("discovery.comparison")]);
  if (groups.length === 0) return <div className="panel empty">{t("empty")}</div>;
  const charts = await Promise.all(
    groups.map(async (g) => {
      const curves = await harvestCurves(db, g.runIds);
      return { ...g, keys: curves.map((c) => c.key), rows: toHarvestChart(curves) };
    }),
  );
  return (
    <div className="chart-grid">
      {charts.map((c) => (
        <section key={c.topicId} className="panel chart-panel" aria-label={t("aria", { topic: c.topic })}>
          <h3>{t.rich("heading", { topic: c.topic, muted: (chunks) => <span className="muted small">{chunks}</span> })}</h3>
          <DiscoveryHarvestChart rows={c.rows} keys={c.keys} />
        </section>
      ))}
    </div>
  );
}
