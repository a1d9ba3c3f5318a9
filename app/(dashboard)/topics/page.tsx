import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader, Notice } from "@/components/page-header";
import { TopicForm } from "@/components/topics/topic-form";
import { TableSkeleton } from "@/components/skeletons";
import { TopicTable } from "@/components/topics/topic-table";
import { createTopicAction } from "./actions";
import { DEFAULT_THRESHOLDS } from "@/server/topics";

export async function generateMetadata() {
  const t = await getTranslations("topics.page");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

export default async function TopicsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const admin = can(user.role, "manage-topics");
  const t = await getTranslations("topics.page");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      {sp.deleted && <Notice>{t("deleted")}</Notice>}
      <Suspense fallback={<TableSkeleton rows={4} label={t("loading")} />}>
        <TopicTable />
      </Suspense>
      {admin && (
        <section className="panel" aria-labelledby="new-topic-h">
          <h2 id="new-topic-h">{t("newTopic")}</h2>
          <TopicForm
            action={createTopicAction}
            initial={{
              enabled: "on",
              nbThreshold: String(DEFAULT_THRESHOLDS.nbThreshold),
              cosineThreshold: String(DEFAULT_THRESHOLDS.cosineThreshold),
              relevantLabels: "on-topic",
            }}
            submitLabel={t("create")}
            compact
          />
        </section>
      )}
    </>
  );
}
