import Link from "next/link";
import { inScope } from "@/lib/topic-scope";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requirePermission } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { can } from "@/lib/permissions";
import { reviewQueue } from "@/server/review-queue";
import { getDateTools } from "@/i18n/server";
import { dateText, dateTitle } from "@/i18n/format";
import { PageHeader } from "@/components/page-header";
import { ReviewQueueList, type QueueCard } from "@/components/topics/review-queue";

export async function generateMetadata() {
  const t = await getTranslations("topics.queue");
  return { title: t("crumb") };
}
export const dynamic = "force-dynamic";

/** A topic's 待复核 queue: the posts its model is least sure about, answered one key press each. */
export default async function TopicQueuePage({ params }: { params: Promise<{ id: string }> }) {
  // The page checks the permission; the answer action checks it again (it can be called without the page).
  const user = await requirePermission("review");
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0 || !inScope(user.topics, id)) notFound();
  const [q, t, tt, tools] = await Promise.all([reviewQueue(db, id), getTranslations("topics.queue"), getTranslations("topics.detail"), getDateTools()]);
  if (!q) notFound();
  const cards: QueueCard[] = q.items.map((i) => ({
    postId: i.postId,
    title: i.title,
    excerpt: i.excerpt,
    accountName: i.accountName,
    platform: i.platform,
    when: dateText(tools, i.publishedAt),
    whenTitle: dateTitle(tools, i.publishedAt),
    whenIso: i.publishedAt.toISOString(),
    score: i.score,
    flagged: i.flagStatus === "open",
  }));
  return (
    <>
      <p className="crumbs">
        <Link href="/topics">{tt("crumb")}</Link> / <Link href={`/topics/${q.topicId}`}>{q.topicName}</Link> / {t("crumb")}
      </p>
      <PageHeader title={t("title", { name: q.topicName })} subtitle={t("subtitle")}>
        <Link className="button secondary" href={`/topics/${q.topicId}`}>
          {t("backToTopic")}
        </Link>
      </PageHeader>
      {q.modelVersion === 0 ? (
        <div className="panel empty">{t("untrained")}</div>
      ) : cards.length === 0 ? (
        <div className="panel empty" data-testid="queue-empty">
          {t("empty")}
        </div>
      ) : (
        <>
          <p className="small muted">{t("pool", { pool: q.pool })}</p>
          {/* Keyed by the cards: a new round (router.refresh) starts a fresh list. */}
          <ReviewQueueList key={cards.map((c) => c.postId).join(",")} topicId={q.topicId} cards={cards} canExport={can(user.role, "export")} />
        </>
      )}
    </>
  );
}
