import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { topicThreshold } from "@/server/topic-learning";
import { ThresholdChart } from "./threshold-chart";

/**
 * The topic's threshold: its value, how it was chosen (maximum F1, target precision, by hand, or
 * kept for too few reviews) and the precision/recall trade-off of the latest full training's
 * calibration, the chosen point marked.
 */
export async function ThresholdCurve({ topicId }: { topicId: number }) {
  const [th, t, format] = await Promise.all([topicThreshold(db, topicId), getTranslations("topics.threshold"), getFormatter()]);
  if (!th) return null;
  const c = th.calibration;
  const pct = (x: number) => format.number(x, { style: "percent", maximumFractionDigits: 1 });
  const values = {
    version: String(th.version ?? 0),
    heldOut: c?.heldOut ?? 0,
    target: String(c?.targetPrecision ?? th.targetPrecision ?? ""),
    min: th.minSamples,
    posts: c?.posts ?? 0,
  };
  // A threshold chosen on the expected curve over crawled posts (calibrate.ts) says so; otherwise on the held-out reviews' own curve.
  const source = th.source;
  const sourceText =
    c?.basis === "posts" && (source === "f1" || source === "target" || source === "target-unreached")
      ? t(`sourcePosts.${source}`, values)
      : t(`source.${source}`, values);
  const at = c && c.chosen !== null ? c.points.find((p) => p.threshold === c.chosen) : undefined;
  return (
    <section className="panel" aria-labelledby={`threshold-h-${topicId}`} data-testid="threshold-curve">
      <h2 id={`threshold-h-${topicId}`}>{t("title")}</h2>
      <p className="small">
        <b>{t("current", { threshold: String(th.current) })}</b> — {sourceText}
      </p>
      {!th.calibrate && (
        <p className="small muted">
          {t("calibrationOff")} {c && c.chosen !== null && t("suggested", { chosen: String(c.chosen) })}
        </p>
      )}
      {c && c.points.length > 1 ? (
        <>
          <ThresholdChart points={c.points.map((p) => ({ threshold: p.threshold, precision: p.precision, recall: p.recall, f1: p.f1 }))} chosen={c.chosen} />
          {at && (
            <p className="small muted">
              {t("chosenFigures", { precision: pct(at.precision), recall: pct(at.recall), f1: pct(at.f1) })}{" "}
              {c.basis === "posts" ? t("expected", { posts: c.posts ?? 0 }) : t("optimistic")}
            </p>
          )}
        </>
      ) : (
        <p className="small muted">{t("noCurve", { min: th.minSamples })}</p>
      )}
    </section>
  );
}
