import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { getSeedSet } from "@/lib/queries/seeds";
import { PageHeader, Notice } from "../page-header";
import { DeleteSeedSet, ImportSeedsForm, RemoveSeedUrl } from "./seed-forms";
import { Time } from "../time";
import { readableUrl } from "../readable-url";

/** A seed set: its URLs, the import form and the discovery runs started from it. */
export async function SeedSetDetail({ id, admin, imported, invalid }: { id: number; admin: boolean; imported?: string; invalid?: string }) {
  const set = await getSeedSet(db, id);
  if (!set) notFound();
  return (
    <>
      <p className="crumbs">
        <Link href="/seeds">Seeds</Link> / {set.name}
      </p>
      <PageHeader
        title={set.name}
        subtitle={
          <>
            {set.urls.length} URLs · created <Time date={set.createdAt} withYear />
          </>
        }
      >
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
          <h2 id="urls-h">URLs</h2>
          {set.urls.length === 0 ? (
            <p className="muted">No URLs.</p>
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
              <h2 id="import-h">Import more</h2>
              <ImportSeedsForm id={set.id} />
            </section>
          )}
          <section className="panel" aria-labelledby="disc-h">
            <h2 id="disc-h">Discovery runs from this set</h2>
            {set.discoveries.length === 0 ? (
              <p className="muted small">None yet.</p>
            ) : (
              <table className="data compact">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Topic</th>
                    <th>Strategy</th>
                    <th>Status</th>
                    <th className="num">Relevant / crawled</th>
                    <th>Started</th>
                  </tr>
                </thead>
                <tbody>
                  {set.discoveries.map((d) => (
                    <tr key={d.id}>
                      <td>{d.id}</td>
                      <td>{d.topic.name}</td>
                      <td>{d.strategy}</td>
                      <td>{d.status}</td>
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
