import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { jsonList } from "@/lib/format";
import { getTopic, notificationChannels, topicToForm, type EvaluationFigures } from "@/server/topics";
import { latestTopicJob } from "@/server/jobs";
import { CHANNELS, type Channel } from "@/lib/notify/types";
import { PageHeader, Notice } from "../page-header";
import { TopicForm } from "./topic-form";
import { TopicBursts } from "../bursts/topic-bursts";
import { SampleUpload } from "./sample-upload";
import { TopicJobPanel } from "./topic-job";
import { ThresholdCurve } from "./threshold-curve";
import { TopicLearningPanel } from "./topic-learning";
import { DeleteTopic, RetryNotification } from "./topic-misc";
import { Num, Time } from "../time";
import { maskUrlsIn } from "@/lib/mask";
import { ScopeActivity } from "../charts/scope-activity";
import { updateTopicAction } from "@/app/(dashboard)/topics/actions";

/** A topic: its flags, its charts (`days`: their range, from `?days=`), model and evaluation, samples, settings and notifications. */
export async function TopicDetailView({ id, admin, saved, created, days }: { id: number; admin: boolean; saved?: boolean; created?: boolean; days?: string }) {
  const [t, tr] = await Promise.all([getTopic(db, id), getTranslations("topics")]);
  if (!t) notFound();
  const uploaded = t.sampleCounts.filter((s) => s.source === "upload").reduce((s, x) => s + x.n, 0);
  const fromReviews = t.sampleCounts.filter((s) => s.source === "review").reduce((s, x) => s + x.n, 0);
  const flags = Object.values(t.flagCounts).reduce((s, n) => s + n, 0);
  const channels = notificationChannels(t);
  return (
    <>
      <p className="crumbs">
        <Link href="/topics">{tr("detail.crumb")}</Link> / {t.name}
      </p>
      <PageHeader title={t.name} subtitle={t.description || tr("detail.noDescription")}>
        <Link className="button secondary" href={`/?topic=${t.id}`}>
          {tr("detail.flaggedPosts")}
        </Link>
        {admin && <DeleteTopic id={t.id} name={t.name} flags={flags} samples={uploaded + fromReviews} />}
      </PageHeader>
      {created && <Notice>{tr("detail.created")}</Notice>}
      {saved && <Notice>{tr("detail.saved")}</Notice>}
      <div className="kv" style={{ marginBottom: 16 }}>
        <div>
          <b>
            <Num value={t.flagCounts.open ?? 0} />
          </b>
          {tr("detail.openFlags")}
        </div>
        <div>
          <b>
            <Num value={t.flagCounts.confirmed ?? 0} />
          </b>
          {tr("detail.confirmed")}
        </div>
        <div>
          <b>
            <Num value={t.flagCounts.dismissed ?? 0} />
          </b>
          {tr("detail.dismissed")}
        </div>
        <div>
          <b>
            <Num value={uploaded} />
          </b>
          {tr("detail.uploadedSamples")}
        </div>
        <div>
          <b>
            <Num value={fromReviews} />
          </b>
          {tr("detail.reviewSamples")}
        </div>
        <div>
          <b>{t.modelVersion > 0 ? tr("detail.version", { version: String(t.modelVersion) }) : tr("detail.none")}</b>
          {tr("detail.modelInUse")}
        </div>
      </div>
      <ScopeActivity scope={{ topicId: t.id }} days={days} basePath={`/topics/${t.id}`} />
      <div className="two-col">
        <section className="panel" aria-labelledby="model-h">
          <h2 id="model-h">{tr("detail.model")}</h2>
          <p className="small">
            {t.modelVersion > 0
              ? tr.rich("detail.modelTrained", {
                  version: String(t.modelVersion),
                  nb: String(t.nbThreshold),
                  cosine: String(t.cosineThreshold),
                  b: (chunks) => <b>{chunks}</b>,
                  time: () => <Time date={t.trainedAt} withYear />,
                })
              : tr("detail.noModel")}
          </p>
          <Evaluation e={t.evaluationFigures} />
          <TopicJobPanel topicId={t.id} canManage={admin} initialJob={await latestTopicJob(db, t.id)} />
        </section>
        <section className="panel" aria-labelledby="samples-h">
          <h2 id="samples-h">{tr("detail.trainingSamples")}</h2>
          {t.sampleCounts.length === 0 ? (
            <p className="muted small">{tr("detail.noSamples")}</p>
          ) : (
            <table className="data compact">
              <thead>
                <tr>
                  <th>{tr("detail.source")}</th>
                  <th>{tr("detail.label")}</th>
                  <th className="num">{tr("detail.samples")}</th>
                </tr>
              </thead>
              <tbody>
                {t.sampleCounts.map((s) => (
                  <tr key={`${s.source}-${s.label}`}>
                    <td>{s.source === "review" ? tr("detail.sourceReview") : tr("detail.sourceUpload")}</td>
                    <td>
                      {s.label} {jsonList(t.relevantLabels).includes(s.label) && <span className="badge info">{tr("detail.onTopic")}</span>}
                    </td>
                    <td className="num">
                      <Num value={s.n} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {admin && (
            <>
              <h3>{tr("detail.upload")}</h3>
              <SampleUpload topicId={t.id} uploaded={uploaded} />
            </>
          )}
        </section>
      </div>
      <TopicBursts topicId={t.id} />
      <TopicLearningPanel topicId={t.id} classifier={t.classifier} />
      {t.modelVersion > 0 && <ThresholdCurve topicId={t.id} />}
      <section className="panel" aria-labelledby="settings-h">
        <h2 id="settings-h">{tr("detail.settings")}</h2>
        {admin ? (
          <TopicForm action={updateTopicAction} initial={topicToForm(t)} id={t.id} submitLabel={tr("detail.saveTopic")} />
        ) : (
          <dl className="facts">
            <dt>{tr("detail.keywords")}</dt>
            <dd>{jsonList(t.keywords).join("、") || "—"}</dd>
            <dt>{tr("detail.sensitiveWords")}</dt>
            <dd>{jsonList(t.sensitiveWords).join("、") || "—"}</dd>
            <dt>{tr("detail.userDict")}</dt>
            <dd>{jsonList(t.userDict).join("、") || "—"}</dd>
            <dt>{tr("detail.thresholds")}</dt>
            <dd>{tr("detail.thresholdValues", { nb: String(t.nbThreshold), cosine: String(t.cosineThreshold) })}</dd>
          </dl>
        )}
      </section>
      <section className="panel" aria-labelledby="notif-h">
        <h2 id="notif-h">{tr("detail.notifications")}</h2>
        {/* Robot and webhook URLs hold their tokens: they are sealed, and only their origins are
            shown, here and in the settings form; secrets never leave the server. */}
        {channels.length > 0 ? (
          <>
            <p className="small muted">{tr("detail.channelsIntro")}</p>
            <ul className="small" aria-label={tr("detail.channelsLabel")}>
              {channels.map((c) => (
                <li key={c.channel}>
                  <b>{tr(`channels.${c.channel}`)}</b> — {c.where}
                  {c.signed === true && tr("detail.signed")}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="small muted">{tr("detail.noChannels")}</p>
        )}
        {t.notifications.length > 0 && (
          <table className="data compact">
            <thead>
              <tr>
                <th>{tr("detail.time")}</th>
                <th>{tr("detail.run")}</th>
                <th>{tr("detail.channel")}</th>
                <th>{tr("detail.status")}</th>
                <th className="num">{tr("detail.attempts")}</th>
                <th>{tr("detail.lastError")}</th>
                {admin && <th />}
              </tr>
            </thead>
            <tbody>
              {t.notifications.map((n) => (
                <tr key={n.id}>
                  <td className="nowrap">
                    <Time date={n.createdAt} />
                  </td>
                  <td>{n.crawlRunId ? <Link href={`/runs/${n.crawlRunId}`}>#{n.crawlRunId}</Link> : "—"}</td>
                  <td>{(CHANNELS as readonly string[]).includes(n.channel) ? tr(`channels.${n.channel as Channel}`) : n.channel}</td>
                  <td>
                    <span className={`badge ${n.status === "sent" ? "ok" : n.status === "failed" ? "danger" : "info"}`}>
                      {tr("detail.notificationStatus", { status: n.status })}
                    </span>
                  </td>
                  <td className="num">
                    <Num value={n.attempts} />
                  </td>
                  <td className="small">{n.lastError && (admin ? n.lastError : maskUrlsIn(n.lastError))}</td>
                  {admin && <td>{n.status === "failed" && <RetryNotification topicId={t.id} notificationId={n.id} />}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

async function Evaluation({ e }: { e: EvaluationFigures | null }) {
  const [tr, format] = await Promise.all([getTranslations("topics.detail"), getFormatter()]);
  if (!e) return <p className="muted small">{tr("noEvaluation")}</p>;
  const pct = (x: number | undefined) => (x === undefined ? "—" : format.number(x, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }));
  const rows: [string, { precision?: number; recall?: number; f1?: number; accuracy?: number } | null | undefined][] = e.flagged
    ? [
        [tr("flagDecision"), e.flagged],
        [tr("classifier"), e.classifier],
        [tr("relevance"), e.cosine],
      ]
    : [[tr("classifier"), e]];
  return (
    <>
      <table className="data compact" data-testid="evaluation">
        <thead>
          <tr>
            <th>{tr("heldOut")}</th>
            <th className="num">{tr("precision")}</th>
            <th className="num">{tr("recall")}</th>
            <th className="num">{tr("f1")}</th>
            <th className="num">{tr("accuracy")}</th>
          </tr>
        </thead>
        <tbody>
          {rows
            .filter(([, m]) => m)
            .map(([name, m]) => (
              <tr key={name}>
                <td>{name}</td>
                <td className="num">{pct(m!.precision)}</td>
                <td className="num">{pct(m!.recall)}</td>
                <td className="num">{pct(m!.f1)}</td>
                <td className="num">{pct(m!.accuracy)}</td>
              </tr>
            ))}
        </tbody>
      </table>
      <p className="muted small">
        {e.samples !== undefined &&
          tr("heldOutSamples", { samples: e.samples }) + (e.onTopic !== undefined ? tr("heldOutOnTopic", { onTopic: e.onTopic }) : "")}
        {e.docsPerSecond ? tr("textsPerSecond", { rate: format.number(Math.round(e.docsPerSecond)) }) : ""}
      </p>
    </>
  );
}
