import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { risingIncidents } from "@/server/incidents";
import type { TopicScope } from "@/lib/topic-scope";
import { PlatformBadge } from "../platform-badge";
import { RelativeTime } from "../time";
import { Sparkline } from "./sparkline";
import { heatText } from "./status-badge";

/** The home page's rising incidents (new posts in the last 24 hours, bursting first, then by heat). */
export async function RisingIncidents({ scope }: { scope: TopicScope }) {
  const [rows, t, tl] = await Promise.all([risingIncidents(db, new Date(), 5, scope), getTranslations("incidents.rising"), getTranslations("incidents.list")]);
  return (
    <section className="panel rising" aria-labelledby="rising-title" data-testid="rising-incidents">
      <div className="rising-head">
        <h2 id="rising-title">{t("title")}</h2>
        <Link href="/incidents">{t("all")}</Link>
      </div>
      {rows.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <ol className="rising-list">
          {rows.map((r) => (
            <li key={r.id} data-testid="rising-incident">
              <Link href={`/incidents/${r.id}`} className="incident-title">
                {r.title || tl("untitled", { id: r.id })}
              </Link>
              <div className="rising-meta">
                {r.bursting && <span className="badge danger">{tl("bursting")}</span>}
                <span className="badge info">{t("heat", { heat: heatText(r.heat) })}</span>
                <span>{t("recent", { count: r.recent })}</span>
                {r.platforms.map((p) => (
                  <PlatformBadge key={p} platform={p} short />
                ))}
                <RelativeTime date={r.lastSeenAt} />
              </div>
              <Sparkline values={r.trend} bucket={r.trendBucket} width={160} height={24} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
