import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { isClassifierKind } from "@/lib/classifiers";
import { topicLearning } from "@/server/topic-learning";
import { reviewQueueSize } from "@/server/review-queue";
import { DEFAULT_RETRAIN_EVERY, retrainEveryFromEnv } from "@/crawler/classify";
import { Num, Time } from "../time";
import { LearningChart, type LearningPoint } from "./learning-chart";

/** CAMPUSWATCH_RETRAIN_EVERY as the learn job reads it; a bad value fails that job, not this page. */
function retrainEvery(): number {
  try {
    return retrainEveryFromEnv();
  } catch {
    return DEFAULT_RETRAIN_EVERY;
  }
}

/**
 * How the topic learns from its reviews (issue 16): model version and classifier, what it was
 * trained on, reviews learned and waiting, the link to its 待复核 queue, and the evaluation of
 * each full training on held-out reviews over time (a chart from two evaluations on).
 */
export async function TopicLearningPanel({ topicId, classifier }: { topicId: number; classifier: string }) {
  const [learning, queued, t, tf, format] = await Promise.all([
    topicLearning(db, topicId),
    reviewQueueSize(db, topicId),
    getTranslations("topics.learning"),
    getTranslations("topics.form.classifiers"),
    getFormatter(),
  ]);
  if (!learning) return null;
  const pct = (x: number | null) => (x === null ? "—" : format.number(x, { style: "percent", maximumFractionDigits: 1 }));
  // Points with something measured: a training that held out no review (the first) has none.
  const points: LearningPoint[] = learning.evaluations
    .filter((e) => e.heldOut > 0 && (e.f1 !== null || e.precision !== null || e.recall !== null))
    .map((e) => ({ version: e.version, heldOut: e.heldOut, precision: e.precision, recall: e.recall, f1: e.f1 }));
  const last = points.at(-1);
  return (
    <section className="panel" aria-labelledby="learning-h" data-testid="topic-learning">
      <h2 id="learning-h">{t("title")}</h2>
      {learning.modelVersion > 0 && (
        <p className="button-row">
          <Link className="button" href={`/topics/${topicId}/queue`}>
            {t("openQueue", { count: format.number(queued) })}
          </Link>
        </p>
      )}
      {learning.modelVersion === 0 ? (
        <p className="muted small">{t("untrained")}</p>
      ) : (
        <dl className="facts">
          <dt>{t("version")}</dt>
          <dd data-testid="learning-version">{t("versionValue", { version: String(learning.modelVersion) })}</dd>
          <dt>{t("classifier")}</dt>
          <dd>{isClassifierKind(classifier) ? tf(`${classifier}.label`) : classifier}</dd>
          <dt>{t("trainingSize")}</dt>
          <dd>
            {t("trainingSizeValue", {
              total: format.number(learning.trainSize.total),
              uploaded: format.number(learning.trainSize.uploaded),
              reviews: format.number(learning.trainSize.reviews),
            })}
          </dd>
          <dt>{t("reviewsLearned")}</dt>
          <dd data-testid="learning-learned">
            {t("reviewsLearnedValue", { learned: format.number(learning.reviewsLearned), since: format.number(learning.reviewsSinceRetrain) })}
          </dd>
          <dt>{t("reviewsWaiting")}</dt>
          <dd data-testid="learning-waiting">
            <Num value={learning.reviewsPending} />
          </dd>
          <dt>{t("lastLearned")}</dt>
          <dd>
            <Time date={learning.learnedAt} />
          </dd>
          <dt>{t("lastTrained")}</dt>
          <dd>
            <Time date={learning.trainedAt} />
          </dd>
        </dl>
      )}
      {learning.retrainDue && <p className="small">{t("retrainDue")}</p>}
      {learning.modelVersion > 0 && (
        <>
          <h3>{t("chartTitle")}</h3>
          {points.length >= 2 ? (
            <LearningChart points={points} />
          ) : last ? (
            <p className="muted small">
              {t("onePoint", {
                version: String(last.version),
                heldOut: last.heldOut,
                f1: pct(last.f1),
                precision: pct(last.precision),
                recall: pct(last.recall),
              })}
            </p>
          ) : (
            <p className="muted small">{t("noPoints", { every: retrainEvery() })}</p>
          )}
        </>
      )}
    </section>
  );
}
