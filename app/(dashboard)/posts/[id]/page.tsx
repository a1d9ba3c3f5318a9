import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { db } from "@/lib/db";
import { getPostDetail } from "@/server/posts";
import { PageHeader, Notice } from "@/components/page-header";
import { InReplyTo, PostContent, PostHeader, Replies, TopicExplanations, Versions, matchedTerms } from "@/components/posts/post-detail";
import { PanelSkeleton } from "@/components/skeletons";
import { EvidenceDownload } from "@/components/evidence/download-button";
import { CasePanel } from "@/components/cases/case-panel";
import { assignableUsers, casesOfFlags } from "@/server/cases";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("posts.pages");
  return { title: t("postTitle") };
}
export const dynamic = "force-dynamic";

type Params = { id: string };
type Search = { q?: string; images?: string; reviewed?: string };

export default async function PostPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const postId = Number(id);
  if (!Number.isSafeInteger(postId) || postId <= 0) notFound();
  const t = await getTranslations("posts.detail");
  return (
    <Suspense fallback={<PanelSkeleton height={400} label={t("loading")} />}>
      <PostDetailView
        postId={postId}
        q={sp.q}
        images={sp.images === "1" && can(user.role, "manage-accounts")}
        canReview={can(user.role, "review")}
        canLoadImages={can(user.role, "manage-accounts")}
        canExport={can(user.role, "export")}
        canHandle={can(user.role, "cases")}
        reviewed={sp.reviewed}
      />
    </Suspense>
  );
}

async function PostDetailView({
  postId,
  q,
  images,
  canReview,
  canLoadImages,
  canExport,
  canHandle,
  reviewed,
}: {
  postId: number;
  q?: string;
  images: boolean;
  canReview: boolean;
  canLoadImages: boolean;
  canExport: boolean;
  canHandle: boolean;
  reviewed?: string;
}) {
  const [post, t] = await Promise.all([getPostDetail(db, postId), getTranslations("posts.detail")]);
  if (!post) notFound();
  // Each flag of the post may be a case of its own (its topic's counsellor follows it).
  const [cases, users, tc] = await Promise.all([
    casesOfFlags(
      db,
      post.flags.map((f) => f.id),
    ),
    canHandle && post.flags.length > 0 ? assignableUsers(db) : [],
    getTranslations("cases.panel"),
  ]);
  const now = new Date();
  const terms = matchedTerms(post, q);
  const returnTo = `/posts/${post.id}${q ? `?q=${encodeURIComponent(q)}` : ""}`;
  const hasImages = /<img\b/i.test(post.html);
  const [decision, count] = reviewed?.split(":") ?? [];
  return (
    <>
      <p className="crumbs">
        <Link href="/">{t("crumbFlagged")}</Link> / <Link href="/posts">{t("crumbPosts")}</Link> / #{post.id}
      </p>
      <PageHeader title={post.title || (post.kind === "reply" ? t("reply") : post.text.slice(0, 40))} subtitle={<PostHeader post={post} />}>
        {canExport && <EvidenceDownload kind="post" id={post.id} />}
      </PageHeader>
      {decision && count && <Notice>{t("reviewedNotice", { decision: decision === "confirm" ? "confirm" : "dismiss" })}</Notice>}
      <div className="detail-grid">
        <div>
          {hasImages && (
            <p className="image-note muted small">
              {images ? (
                t.rich("imagesLoaded", { hide: (chunks) => <Link href={returnTo}>{chunks}</Link> })
              ) : (
                <>
                  {t("imagesBlocked")} {canLoadImages && <Link href={`${returnTo}${returnTo.includes("?") ? "&" : "?"}images=1`}>{t("loadImages")}</Link>}
                </>
              )}
            </p>
          )}
          <PostContent post={post} terms={terms} imageSrc={images ? (_src, i) => `/api/posts/${post.id}/images/${i}` : undefined} />
          <Versions post={post} />
          <InReplyTo post={post} />
          <Replies post={post} />
        </div>
        <aside>
          <TopicExplanations post={post} canReview={canReview} returnTo={returnTo} />
          {post.flags.map((f) => (
            <CasePanel
              key={f.id}
              subject={{ kind: "flag", id: f.id }}
              kase={cases.get(f.id) ?? null}
              users={users}
              canHandle={canHandle}
              title={tc("titleFlag", { topic: f.topic.name })}
              now={now}
            />
          ))}
        </aside>
      </div>
    </>
  );
}
