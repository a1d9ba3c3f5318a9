import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { headlineCounts, listFlags } from "@/lib/queries/overview";
import { FlagTable } from "@/components/flag-table";

export const metadata = { title: "Flagged posts" };
export const dynamic = "force-dynamic";

export default async function FlaggedPostsPage() {
  await requireUser();
  const [counts, flags] = await Promise.all([headlineCounts(db), listFlags(db, { status: "open" })]);
  return (
    <>
      <h1>Flagged posts</h1>
      <div className="stats">
        <div className="stat"><b>{counts.openFlags}</b>open flags</div>
        <div className="stat"><b>{counts.posts}</b>posts stored</div>
        <div className="stat"><b>{counts.accounts}</b>accounts watched</div>
        <div className="stat"><b>{counts.topics}</b>topics</div>
      </div>
      <FlagTable flags={flags} />
    </>
  );
}
