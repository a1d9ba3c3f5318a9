import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";

export const metadata = { title: "Charts" };
export const dynamic = "force-dynamic";

export default async function ChartsPage() {
  await requireUser();
  const byPlatform = await db.account.findMany({ select: { platform: true, _count: { select: { posts: true } } } });
  const totals = new Map<string, number>();
  for (const a of byPlatform) totals.set(a.platform, (totals.get(a.platform) ?? 0) + a._count.posts);
  return (
    <>
      <h1>Charts</h1>
      <div className="stats">
        {[...totals].map(([platform, n]) => (
          <div className="stat" key={platform}><b>{n}</b>{platform} posts</div>
        ))}
        {totals.size === 0 && <div className="panel empty">No data yet.</div>}
      </div>
    </>
  );
}
