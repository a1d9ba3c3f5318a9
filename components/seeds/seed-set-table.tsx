import Link from "next/link";
import { db } from "@/lib/db";
import { listSeedSets } from "@/lib/queries/seeds";
import { Time } from "../time";
import { readableUrl } from "../readable-url";

/** Every seed set with its size and first URLs. */
export async function SeedSetTable() {
  const sets = await listSeedSets(db);
  if (sets.length === 0) return <div className="panel empty">No seed sets yet. Seed sets start topic discovery.</div>;
  return (
    <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="seed-table">
        <thead>
          <tr>
            <th>Name</th>
            <th className="num">URLs</th>
            <th>First URLs</th>
            <th className="num">Discovery runs</th>
            <th>Created</th>
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
              <td className="num">{s._count.urls}</td>
              <td className="small">{s.urls.map((u) => readableUrl(u.url)).join("  ·  ")}</td>
              <td className="num">{s._count.discoveries}</td>
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
