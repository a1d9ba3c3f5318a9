import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { jsonList } from "@/lib/format";
import { getTopic, notificationChannels, topicJob, topicToForm, type EvaluationFigures } from "@/lib/queries/topics";
import { CHANNEL_LABELS, type Channel } from "@/lib/notify/types";
import { PageHeader, Notice } from "../page-header";
import { TopicForm } from "./topic-form";
import { SampleUpload } from "./sample-upload";
import { TopicJobPanel } from "./topic-job";
import { DeleteTopic, RetryNotification } from "./topic-misc";
import { Time } from "../time";
import { maskUrlsIn } from "@/lib/mask";
import { updateTopicAction } from "@/app/(dashboard)/topics/actions";

/** A topic: its flags, model and evaluation, samples, settings and notifications. */
export async function TopicDetailView({ id, admin, saved, created }: { id: number; admin: boolean; saved?: boolean; created?: boolean }) {
  const t = await getTopic(db, id);
  if (!t) notFound();
  const uploaded = t.sampleCounts.filter((s) => s.source === "upload").reduce((s, x) => s + x.n, 0);
  const fromReviews = t.sampleCounts.filter((s) => s.source === "review").reduce((s, x) => s + x.n, 0);
  const flags = Object.values(t.flagCounts).reduce((s, n) => s + n, 0);
  const channels = notificationChannels(t);
  return (
    <>
      <p className="crumbs">
        <Link href="/topics">Topics</Link> / {t.name}
      </p>
      <PageHeader title={t.name} subtitle={t.description || "No description."}>
        <Link className="button secondary" href={`/?topic=${t.id}`}>
          Flagged posts
        </Link>
        {admin && <DeleteTopic id={t.id} name={t.name} flags={flags} samples={uploaded + fromReviews} />}
      </PageHeader>
      {created && <Notice>Topic created. New posts are classified against it from the next crawl; re-score to judge stored posts.</Notice>}
      {saved && <Notice>Saved.</Notice>}
      <div className="kv" style={{ marginBottom: 16 }}>
        <div>
          <b>{(t.flagCounts.open ?? 0).toLocaleString("en-US")}</b>open flags
        </div>
        <div>
          <b>{(t.flagCounts.confirmed ?? 0).toLocaleString("en-US")}</b>confirmed
        </div>
        <div>
          <b>{(t.flagCounts.dismissed ?? 0).toLocaleString("en-US")}</b>dismissed
        </div>
        <div>
          <b>{uploaded.toLocaleString("en-US")}</b>uploaded samples
        </div>
        <div>
          <b>{fromReviews.toLocaleString("en-US")}</b>samples from reviews
        </div>
        <div>
          <b>{t.modelVersion > 0 ? `v${t.modelVersion}` : "none"}</b>model in use
        </div>
      </div>
      <div className="two-col">
        <section className="panel" aria-labelledby="model-h">
          <h2 id="model-h">Model</h2>
          <p className="small">
            {t.modelVersion > 0 ? (
              <>
                Version <b>v{t.modelVersion}</b>, trained <Time date={t.trainedAt} withYear />. Posts are scored by naive Bayes (χ²-weighted) and TF-IDF relevance; a
                post is flagged at P(on-topic) ≥ {t.nbThreshold} or relevance ≥ {t.cosineThreshold}, or on any sensitive word.
              </>
            ) : (
              <>No model yet: posts are flagged by keywords and sensitive words only. Upload labelled samples, then train.</>
            )}
          </p>
          <Evaluation e={t.evaluationFigures} />
          <TopicJobPanel topicId={t.id} canManage={admin} initialJob={topicJob(t.id)} />
        </section>
        <section className="panel" aria-labelledby="samples-h">
          <h2 id="samples-h">Training samples</h2>
          {t.sampleCounts.length === 0 ? (
            <p className="muted small">No samples yet. Review decisions become samples automatically.</p>
          ) : (
            <table className="data compact">
              <thead>
                <tr>
                  <th>Source</th>
                  <th>Label</th>
                  <th className="num">Samples</th>
                </tr>
              </thead>
              <tbody>
                {t.sampleCounts.map((s) => (
                  <tr key={`${s.source}-${s.label}`}>
                    <td>{s.source === "review" ? "review decisions" : "uploaded"}</td>
                    <td>
                      {s.label} {jsonList(t.relevantLabels).includes(s.label) && <span className="badge info">on-topic</span>}
                    </td>
                    <td className="num">{s.n.toLocaleString("en-US")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {admin && (
            <>
              <h3>Upload</h3>
              <SampleUpload topicId={t.id} uploaded={uploaded} />
            </>
          )}
        </section>
      </div>
      <section className="panel" aria-labelledby="settings-h">
        <h2 id="settings-h">Settings</h2>
        {admin ? (
          <TopicForm action={updateTopicAction} initial={topicToForm(t)} id={t.id} submitLabel="Save topic" />
        ) : (
          <dl className="facts">
            <dt>Keywords</dt>
            <dd>{jsonList(t.keywords).join("、") || "—"}</dd>
            <dt>Sensitive words</dt>
            <dd>{jsonList(t.sensitiveWords).join("、") || "—"}</dd>
            <dt>User dictionary</dt>
            <dd>{jsonList(t.userDict).join("、") || "—"}</dd>
            <dt>Thresholds</dt>
            <dd>
              classifier ≥ {t.nbThreshold}, relevance ≥ {t.cosineThreshold}
            </dd>
          </dl>
        )}
      </section>
      <section className="panel" aria-labelledby="notif-h">
        <h2 id="notif-h">Notifications</h2>
        {/* Robot and webhook URLs hold their tokens: only their origins are shown here (admins see
            the whole URL in the settings form), and secrets never leave the server. */}
        {channels.length > 0 ? (
          <>
            <p className="small muted">New flags go to these channels, one message per crawl run:</p>
            <ul className="small" aria-label="Notification channels">
              {channels.map((c) => (
                <li key={c.channel}>
                  <b>{c.label}</b> — {c.where}
                  {c.signed === true && " (signed)"}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="small muted">No notification channel set: nothing is sent.</p>
        )}
        {t.notifications.length > 0 && (
          <table className="data compact">
            <thead>
              <tr>
                <th>Time</th>
                <th>Run</th>
                <th>Channel</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Last error</th>
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
                  <td>{CHANNEL_LABELS[n.channel as Channel] ?? n.channel}</td>
                  <td>
                    <span className={`badge ${n.status === "sent" ? "ok" : n.status === "failed" ? "danger" : "info"}`}>{n.status}</span>
                  </td>
                  <td className="num">{n.attempts}</td>
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

function Evaluation({ e }: { e: EvaluationFigures | null }) {
  if (!e) return <p className="muted small">No evaluation yet (needs at least 20 samples).</p>;
  const pct = (x: number | undefined) => (x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);
  const rows: [string, { precision?: number; recall?: number; f1?: number; accuracy?: number } | null | undefined][] = e.flagged
    ? [
        ["Flag decision", e.flagged],
        ["Classifier", e.classifier],
        ["Relevance", e.cosine],
      ]
    : [["Classifier", e]];
  return (
    <>
      <table className="data compact" data-testid="evaluation">
        <thead>
          <tr>
            <th>Held-out evaluation</th>
            <th className="num">Precision</th>
            <th className="num">Recall</th>
            <th className="num">F1</th>
            <th className="num">Accuracy</th>
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
        {e.samples !== undefined && `${e.samples} held-out samples${e.onTopic !== undefined ? ` (${e.onTopic} on-topic)` : ""}`}
        {e.docsPerSecond ? ` · ${Math.round(e.docsPerSecond).toLocaleString("en-US")} texts/s` : ""}
      </p>
    </>
  );
}
