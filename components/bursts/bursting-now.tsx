import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { burstingNow } from "@/server/bursts";
import { Sparkline } from "./sparkline";

/**
 * A compact list of what is bursting now across topics ("考试 mentions are 6× their usual rate in
 * the last hour"), for the home page; each line links to its topic. The page checks the user.
 */
export async function BurstingNow({ limit = 6 }: { limit?: number }) {
  const [items, t] = await Promise.all([burstingNow(db, limit), getTranslations("topics.bursts")]);
  return (
    <section className="panel" aria-labelledby="bursting-now-h">
      <h2 id="bursting-now-h">{t("nowHeading")}</h2>
      {items.length === 0 ? (
        <p className="small muted">{t("nothing")}</p>
      ) : (
        <ul className="small" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {items.map((s) => (
            <li key={`${s.topicId}-${s.keyword ?? ""}`} style={{ display: "flex", gap: 8, alignItems: "center" }}>
              <Sparkline counts={s.last24} width={64} height={16} />
              <Link href={`/topics/${s.topicId}`}>
                {s.keyword
                  ? t("keywordLine", { keyword: s.keyword, topic: s.topicName, ratio: s.ratio.toFixed(1), recent: s.recent })
                  : t("topicLine", { topic: s.topicName, ratio: s.ratio.toFixed(1), recent: s.recent })}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
