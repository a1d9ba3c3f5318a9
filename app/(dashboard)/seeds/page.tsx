import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";

export const metadata = { title: "Seeds" };
export const dynamic = "force-dynamic";

export default async function SeedsPage() {
  await requireUser();
  const sets = await db.seedSet.findMany({ orderBy: { name: "asc" }, include: { urls: { take: 20 }, _count: { select: { urls: true } } } });
  return (
    <>
      <h1>Seed URL sets</h1>
      {sets.length === 0 ? (
        <div className="panel empty">No seed sets yet. Seed sets start topic discovery.</div>
      ) : (
        sets.map((s) => (
          <div className="panel" key={s.id}>
            <h2 style={{ marginTop: 0 }}>{s.name} <span className="badge">{s._count.urls} URLs</span></h2>
            <ul>{s.urls.map((u) => <li key={u.id}><code>{u.url}</code></li>)}</ul>
          </div>
        ))
      )}
    </>
  );
}
