import Link from "next/link";
import { db } from "@/lib/db";
import { jsonList } from "@/lib/format";
import { listTopics } from "@/server/topics";
import { getTranslations } from "next-intl/server";
import { Num, Time } from "../time";

/** Every topic with its words, model, evaluation, samples and flags. */
export async function TopicTable() {
  const [topics, tr] = await Promise.all([listTopics(db), getTranslations("topics.table")]);
  if (topics.length === 0) return <div className="panel empty">{tr("empty")}</div>;
  const pct = (x: number | undefined) => (x === undefined ? "—" : `${Math.round(x * 100)}%`);
  return (
    <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="topic-table">
        <thead>
          <tr>
            <th>{tr("topic")}</th>
            <th>{tr("keywords")}</th>
            <th>{tr("sensitiveWords")}</th>
            <th>{tr("model")}</th>
            <th className="num">{tr("f1")}</th>
            <th className="num">{tr("samples")}</th>
            <th className="num">{tr("openFlags")}</th>
            <th className="num">{tr("allFlags")}</th>
            <th>{tr("notifies")}</th>
          </tr>
        </thead>
        <tbody>
          {topics.map((t) => {
            const f1 = t.evaluation?.flagged?.f1 ?? t.evaluation?.classifier?.f1 ?? t.evaluation?.f1;
            return (
              <tr key={t.id}>
                <td>
                  <Link href={`/topics/${t.id}`} className="post-title">
                    {t.name}
                  </Link>
                  {!t.enabled && <span className="badge">{tr("disabled")}</span>}
                  {t.description && <div className="muted small">{t.description}</div>}
                </td>
                <td className="small">{jsonList(t.keywords).join("、") || <span className="muted">—</span>}</td>
                <td className="small">
                  {jsonList(t.sensitiveWords).map((w) => (
                    <span key={w} className="badge term-sensitive">
                      {w}
                    </span>
                  ))}
                </td>
                <td className="nowrap">
                  {t.modelVersion > 0 ? (
                    <>
                      {tr("version", { version: String(t.modelVersion) })} · <Time date={t.trainedAt} />
                    </>
                  ) : (
                    <span className="muted">{tr("notTrained")}</span>
                  )}
                </td>
                <td className="num">{pct(f1)}</td>
                <td className="num">
                  <Num value={t.samples} />
                </td>
                <td className="num">
                  <Link href={`/?topic=${t.id}&review=open`}>
                    <Num value={t.openFlags} />
                  </Link>
                </td>
                <td className="num">
                  <Num value={t.flags} />
                </td>
                <td className="small">
                  {[
                    t.webhookUrlDisplay && tr("channelWebhook"),
                    t.notifyEmail && tr("channelEmail"),
                    t.dingtalkWebhookDisplay && tr("channelDingtalk"),
                    t.wecomWebhookDisplay && tr("channelWecom"),
                    t.feishuWebhookDisplay && tr("channelFeishu"),
                  ]
                    .filter(Boolean)
                    .join(tr("channelSeparator")) || <span className="muted">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
