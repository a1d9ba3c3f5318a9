import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { listCandidates } from "@/server/discovery";
import { PlatformBadge } from "@/components/platform-badge";
import { AdoptButton } from "./adopt-button";

/**
 * Candidate accounts: forums, blogs and Weibo accounts whose pages a run found relevant. Admins
 * adopt one with one click (it becomes a monitored account).
 */
export async function CandidatesTable({ runId, canAdopt }: { runId?: number; canAdopt: boolean }) {
  const [rows, t] = await Promise.all([listCandidates(db, runId), getTranslations("discovery.candidates")]);
  if (rows.length === 0) {
    return <p className="muted small">{t("empty")}</p>;
  }
  return (
    <div className="table-wrap">
      <table className="data compact" data-testid="discovery-candidates">
        <thead>
          <tr>
            <th>{t("platform")}</th>
            <th>{t("account")}</th>
            <th className="num">{t("relevantCrawled")}</th>
            {runId === undefined && <th>{t("run")}</th>}
            <th>{canAdopt ? t("adopt") : t("adopted")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td>
                <PlatformBadge platform={c.platform} />
              </td>
              <td>
                <b>{c.name}</b>
                <div className="muted small">
                  <code>{c.url}</code>
                </div>
              </td>
              <td className="num">
                {c.relevantPages} / {c.crawledPages}
              </td>
              {runId === undefined && (
                <td>
                  <Link href={`/discovery/${c.run.id}`}>#{c.run.id}</Link> {c.run.topic.name} · {c.run.strategy}
                </td>
              )}
              <td>
                {canAdopt ? (
                  <AdoptButton candidateId={c.id} adoptedAccountId={c.adoptedAccountId} />
                ) : c.adoptedAccountId ? (
                  <a href={`/accounts/${c.adoptedAccountId}`}>{t("accountLink", { id: c.adoptedAccountId })}</a>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
