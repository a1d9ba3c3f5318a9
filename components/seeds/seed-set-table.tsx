import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { listSeedSets } from "@/server/seeds";
import { Num, Time } from "../time";
import { readableUrl } from "../readable-url";

/** Every seed set with its size and first URLs. */
export async function SeedSetTable() {
  const [sets, t] = await Promise.all([listSeedSets(db), getTranslations("seeds.table")]);
  if (sets.length === 0) return <div className="panel empty">{t("empty")}</div>;
  return (
    <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="seed-table">
        <thead>
          <tr>
            <th>{t("name")}</th>
            <th className="num">{t("urls")}</th>
            <th>{t("firstUrls")}</th>
            <th className="num">{t("runs")}</th>
            <th>{t("created")}</th>
          </tr>
        </thead>
        <tbody>
          {sets.map((s) => (
            <tr key={s.id}>
              <td>
                <Link className="post-title" href={`/seeds/${s.id}`}>
                  {s.name}
                </Link>
              </td>
              <td className="num">
                <Num value={s._count.urls} />
              </td>
              <td className="small">{s.urls.map((u) => readableUrl(u.url)).join("  ·  ")}</td>
              <td className="num">
                <Num value={s._count.discoveries} />
              </td>
              <td>
                <Time date={s.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
