import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { topicBurstReport } from "@/server/bursts";
import { Num } from "../time";
import { Sparkline } from "./sparkline";

/**
 * The topic page's burst panel: the topic's mentions (its flagged posts) and each keyword's, in the
 * last hour against their usual hourly rate (Poisson/EWMA model, crawler/incidents/bursts.ts).
 */
export async function TopicBursts({ topicId }: { topicId: number }) {
  const [series, t] = await Promise.all([topicBurstReport(db, topicId), getTranslations("topics.bursts")]);
  if (!series) return null;
  return (
    <section className="panel" aria-labelledby="bursts-h">
      <h2 id="bursts-h">{t("heading")}</h2>
      <p className="small muted">{t("intro")}</p>
      <table>
        <thead>
          <tr>
            <th>{t("what")}</th>
            <th className="num">{t("lastHour")}</th>
            <th className="num">{t("usual")}</th>
            <th className="num">{t("ratio")}</th>
            <th>{t("last24")}</th>
            <th>{t("state")}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.keyword ?? ""}>
              <td>{s.keyword ?? t("wholeTopic")}</td>
              <td className="num">
                <Num value={s.recent} />
              </td>
              <td className="num">{s.baseline.toFixed(1)}</td>
              <td className="num">{t("times", { ratio: s.ratio.toFixed(1) })}</td>
              <td>
                <Sparkline counts={s.last24} />
              </td>
              <td>{s.bursting ? <span className="badge danger">{t("bursting")}</span> : <span className="muted">{t("normal")}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
