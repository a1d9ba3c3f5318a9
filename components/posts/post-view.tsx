import Link from "next/link";
import { Suspense } from "react";
import { db } from "@/lib/db";
import type { CurrentUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { filterToParams, parsePostFilter, type SearchParams } from "@/lib/queries/posts";
import { PageHeader, Notice } from "@/components/page-header";
import { HeadlineStats } from "@/components/stats";
import { FilterBar } from "@/components/posts/filter-bar";
import { PostList } from "@/components/posts/post-list";
import { PanelSkeleton, StatsSkeleton, TableSkeleton } from "@/components/skeletons";

/** The flagged list (home) and the posts list share everything but the `flagged` switch. */
export async function PostView({ user, params, flagged }: { user: CurrentUser; params: SearchParams; flagged: boolean }) {
  const { filter, after, before } = parsePostFilter(params, flagged);
  const basePath = flagged ? "/" : "/posts";
  const exportQuery = filterToParams(filter);
  if (flagged) exportQuery.set("flagged", "1");
  const reviewed = typeof params.reviewed === "string" ? params.reviewed.split(":") : null;
  const denied = typeof params.denied === "string" ? params.denied : null;
  return (
    <>
      <PageHeader
        title={flagged ? "Flagged posts" : "Posts"}
        subtitle={flagged ? "Posts and replies flagged by a topic, newest first. Review them here or open one for its evidence." : "Every stored post and reply, newest first."}
      >
        {can(user.role, "export") && (
          <span className="export-links" aria-label="Export the current filter">
            Export:
            <a href={`/api/export?format=csv&${exportQuery}`} download>
              CSV
            </a>
            <a href={`/api/export?format=jsonl&${exportQuery}`} download>
              JSON
            </a>
          </span>
        )}
      </PageHeader>
      {reviewed && (
        <Notice>
          {reviewed[1]} flag{reviewed[1] === "1" ? "" : "s"} {reviewed[0] === "confirm" ? "confirmed" : "dismissed"}.
        </Notice>
      )}
      {denied && <Notice kind="error">Your role may not open that page ({denied}).</Notice>}
      <Suspense fallback={<StatsSkeleton />}>
        <HeadlineStats />
      </Suspense>
      {flagged && (
        <Suspense fallback={null}>
          <NoTopicsHint admin={can(user.role, "manage-topics")} />
        </Suspense>
      )}
      <Suspense fallback={<PanelSkeleton height={118} label="Loading filters" />}>
        <FilterBar filter={filter} action={basePath} />
      </Suspense>
      <Suspense key={JSON.stringify([filter, after, before])} fallback={<TableSkeleton rows={12} label="Loading posts" />}>
        <PostList filter={filter} after={after} before={before} basePath={basePath} role={user.role} />
      </Suspense>
    </>
  );
}

/** Before any topic exists nothing can be flagged: say so, and where to start. */
async function NoTopicsHint({ admin }: { admin: boolean }) {
  const topics = await db.topic.count();
  if (topics > 0) return null;
  return (
    <div className="panel hint" data-testid="no-topics">
      <b>No topics yet.</b> Posts are flagged against topics (keywords, sensitive words, a trained model).{" "}
      {admin ? <Link href="/topics">Create the first topic</Link> : "Ask an administrator to create one"} — meanwhile every crawled post is in{" "}
      <Link href="/posts">Posts</Link>.
    </div>
  );
}
