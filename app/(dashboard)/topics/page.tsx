import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader, Notice } from "@/components/page-header";
import { TopicForm } from "@/components/topics/topic-form";
import { TableSkeleton } from "@/components/skeletons";
import { TopicTable } from "@/components/topics/topic-table";
import { createTopicAction } from "./actions";

export const metadata = { title: "Topics" };
export const dynamic = "force-dynamic";

export default async function TopicsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const admin = can(user.role, "manage-topics");
  return (
    <>
      <PageHeader title="Topics" subtitle="What is watched: keywords, sensitive words, and a classifier trained on labelled samples and review decisions." />
      {sp.deleted && <Notice>Topic deleted.</Notice>}
      <Suspense fallback={<TableSkeleton rows={4} label="Loading topics" />}>
        <TopicTable />
      </Suspense>
      {admin && (
        <section className="panel" aria-labelledby="new-topic-h">
          <h2 id="new-topic-h">New topic</h2>
          <TopicForm action={createTopicAction} initial={{ enabled: "on", nbThreshold: "0.5", cosineThreshold: "0.35", relevantLabels: "on-topic" }} submitLabel="Create topic" compact />
        </section>
      )}
    </>
  );
}
