import Link from "next/link";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import type { CurrentUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { topicCount } from "@/server/counts";
import { filterToParams, parsePostFilter, type SearchParams } from "@/server/posts";
import { PageHeader, Notice } from "@/components/page-header";
import { HeadlineStats } from "@/components/stats";
import { FilterBar } from "@/components/posts/filter-bar";
import { PostList } from "@/components/posts/post-list";
import { ExportLinks } from "@/components/posts/export-links";
import { PanelSkeleton, StatsSkeleton, TableSkeleton } from "@/components/skeletons";
import { RisingIncidents } from "@/components/incidents/rising";
import { BurstingNow } from "@/components/bursts/bursting-now";

/** The flagged list (home) and the posts list share everything but the `flagged` switch. */
export async function PostView({ user, params, flagged }: { user: CurrentUser; params: SearchParams; flagged: boolean }) {
  const { filter: parsed, after, before } = parsePostFilter(params, flagged);
  const filter = { ...parsed, scope: user.topics };
  const basePath = flagged ? "/" : "/posts";
  const exportQuery = filterToParams(filter);
  if (flagged) exportQuery.set("flagged", "1");
  const reviewed = typeof params.reviewed === "string" ? params.reviewed.split(":") : null;
  const denied = typeof params.denied === "string" ? params.denied : null;
  const t = await getTranslations("posts.view");
  return (
    <>
      <PageHeader title={flagged ? t("flaggedTitle") : t("postsTitle")} subtitle={flagged ? t("flaggedSubtitle") : t("postsSubtitle")}>
        {can(user.role, "export") && <ExportLinks query={exportQuery} label={t("exportLabel")} />}
      </PageHeader>
      {reviewed && (
        <Notice>{t("reviewed", { n: reviewed[1] ?? "", count: Number(reviewed[1]) || 0, decision: reviewed[0] === "confirm" ? "confirm" : "dismiss" })}</Notice>
      )}
      {denied && <Notice kind="error">{t("denied", { denied })}</Notice>}
      <Suspense fallback={<StatsSkeleton />}>
        <HeadlineStats />
      </Suspense>
      {flagged && (
        <Suspense fallback={<PanelSkeleton height={90} label={t("loadingRising")} />}>
          <RisingIncidents scope={user.topics} />
        </Suspense>
      )}
      {flagged && (
        <Suspense fallback={null}>
          <BurstingNow />
        </Suspense>
      )}
      {flagged && (
        <Suspense fallback={null}>
          <NoTopicsHint admin={can(user.role, "manage-topics")} />
        </Suspense>
      )}
      <Suspense fallback={<PanelSkeleton height={118} label={t("loadingFilters")} />}>
        <FilterBar filter={filter} action={basePath} />
      </Suspense>
      <Suspense key={JSON.stringify([filter, after, before])} fallback={<TableSkeleton rows={12} label={t("loadingPosts")} />}>
        <PostList filter={filter} after={after} before={before} basePath={basePath} role={user.role} />
      </Suspense>
    </>
  );
}

/** Before any topic exists nothing can be flagged: say so, and where to start. */
async function NoTopicsHint({ admin }: { admin: boolean }) {
  const [topics, t] = await Promise.all([topicCount(db), getTranslations("posts.view")]);
  if (topics > 0) return null;
  return (
    <div className="panel hint" data-testid="no-topics">
      {t.rich("noTopics", {
        admin: admin ? "yes" : "no",
        b: (chunks) => <b>{chunks}</b>,
        create: (chunks) => <Link href="/topics">{chunks}</Link>,
        posts: (chunks) => <Link href="/posts">{chunks}</Link>,
      })}
    </div>
  );
}
