import Link from "next/link";
import { db } from "@/lib/db";
import { jsonList } from "@/lib/format";
import { listTopics } from "@/lib/queries/topics";
import { Time } from "../time";

/** Every topic with its words, model, evaluation, samples and flags. */
export async function TopicTable() {
  const topics = await listTopics(db);
  if (topics.length === 0) return <div className="panel empty">No topics yet. Posts are stored and searchable, but nothing is flagged until a topic exists.</div>;
  const pct = (x: number | undefined) => (x === undefined ? "—" : `${Math.round(x * 100)}%`);
  return (
    <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="topic-table">
        <thead>
          <tr>
            <th>Topic</th>
            <th>Keywords</th>
            <th>Sensitive words</th>
            <th>Model</th>
            <th className="num">F1</th>
            <th className="num">Samples</th>
            <th className="num">Open flags</th>
            <th className="num">All flags</th>
            <th>Notifies</th>
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
                  {!t.enabled && <span className="badge">disabled</span>}
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
                      v{t.modelVersion} · <Time date={t.trainedAt} />
                    </>
                  ) : (
                    <span className="muted">not trained</span>
                  )}
                </td>
                <td className="num">{pct(f1)}</td>
                <td className="num">{t.samples.toLocaleString("en-US")}</td>
                <td className="num">
                  <Link href={`/?topic=${t.id}&review=open`}>{t.openFlags.toLocaleString("en-US")}</Link>
                </td>
                <td className="num">{t.flags.toLocaleString("en-US")}</td>
                <td className="small">
                  {[t.webhookUrl && "webhook", t.notifyEmail && "e-mail", t.dingtalkWebhook && "钉钉", t.wecomWebhook && "企业微信", t.feishuWebhook && "飞书"].filter(Boolean).join(", ") || (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
