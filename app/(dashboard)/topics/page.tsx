import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { formatTime, jsonList } from "@/lib/format";

export const metadata = { title: "Topics" };
export const dynamic = "force-dynamic";

export default async function TopicsPage() {
  await requireUser();
  const topics = await db.topic.findMany({ orderBy: { name: "asc" }, include: { _count: { select: { flags: true, samples: true } } } });
  return (
    <>
      <h1>Topics</h1>
      {topics.length === 0 ? (
        <div className="panel empty">No topics yet. Create one with <code>npx campuswatch topics add --name NAME</code>.</div>
      ) : (
        <table className="data">
          <thead>
            <tr><th>Name</th><th>Keywords</th><th>Sensitive words</th><th>Model</th><th className="num">Samples</th><th className="num">Flags</th></tr>
          </thead>
          <tbody>
            {topics.map((t) => (
              <tr key={t.id}>
                <td>{t.name} {!t.enabled && <span className="badge">disabled</span>}</td>
                <td>{jsonList(t.keywords).join("，")}</td>
                <td>{jsonList(t.sensitiveWords).join("，")}</td>
                <td>{t.modelVersion > 0 ? `v${t.modelVersion}, trained ${formatTime(t.trainedAt)}` : <span className="muted">not trained</span>}</td>
                <td className="num">{t._count.samples}</td>
                <td className="num">{t._count.flags}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
