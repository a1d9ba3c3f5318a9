import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { getSeedSet } from "@/server/seeds";
import { PageHeader, Notice } from "../page-header";
import { DeleteSeedSet, ImportSeedsForm, RemoveSeedUrl } from "./seed-forms";
import { Time } from "../time";
import { readableUrl } from "../readable-url";
import { StatusText } from "../discovery/status";

/** A seed set: its URLs, the import form and the discovery runs started from it. */
export async function SeedSetDetail({ id, admin, imported, invalid }: { id: number; admin: boolean; imported?: string; invalid?: string }) {
  const [set, t] = await Promise.all([getSeedSet(db, id), getTranslations("seeds.detail")]);
  if (!set) notFound();
  return (
    <>
      <p className="crumbs">
        <Link href="/seeds">{t("crumb")}</Link> / {set.name}
      </p>
      <PageHeader title={set.name} subtitle={t.rich("subtitle", { urls: set.urls.length, created: () => <Time date={set.createdAt} withYear /> })}>
        {admin && <DeleteSeedSet id={set.id} name={set.name} urls={set.urls.length} />}
      </PageHeader>
      {imported && <Notice>{imported}</Notice>}
      {invalid && (
        <ul className="error-list panel" data-testid="seed-invalid">
          {invalid.split("\n").map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
      <div className="two-col">
        <section className="panel" aria-labelledby="urls-h">
          <h2 id="urls-h">{t("urls")}</h2>
          {set.urls.length === 0 ? (
            <p className="muted">{t("noUrls")}</p>
          ) : (
            <table className="data compact" data-testid="seed-urls">
              <tbody>
                {set.urls.map((u) => (
                  <tr key={u.id}>
                    <td style={{ wordBreak: "break-all" }}>{readableUrl(u.url)}</td>
                    {admin && (
                      <td style={{ width: 80 }}>
                        <RemoveSeedUrl id={set.id} urlId={u.id} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <div>
          {admin && (
            <section className="panel" aria-labelledby="import-h">
              <h2 id="import-h">{t("importMore")}</h2>
              <ImportSeedsForm id={set.id} />
            </section>
          )}
          <section className="panel" aria-labelledby="disc-h">
            <h2 id="disc-h">{t("runs")}</h2>
            {set.discoveries.length === 0 ? (
              <p className="muted small">{t("noRuns")}</p>
            ) : (
              <table className="data compact">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>{t("topic")}</th>
                    <th>{t("strategy")}</th>
                    <th>{t("status")}</th>
                    <th className="num">{t("relevantCrawled")}</th>
                    <th>{t("started")}</th>
                  </tr>
                </thead>
                <tbody>
                  {set.discoveries.map((d) => (
                    <tr key={d.id}>
                      <td>{d.id}</td>
                      <td>{d.topic.name}</td>
                      <td>{d.strategy}</td>
                      <td>
                        <StatusText status={d.status} />
                      </td>
                      <td className="num">
                        {d.relevant} / {d.crawled}
                      </td>
                      <td>
                        <Time date={d.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
