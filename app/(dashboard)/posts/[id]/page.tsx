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
  reviewed,
}: {
  postId: number;
  q?: string;
  images: boolean;
  canReview: boolean;
  canLoadImages: boolean;
  canExport: boolean;
  reviewed?: string;
}) {
  const [post, t] = await Promise.all([getPostDetail(db, postId), getTranslations("posts.detail")]);
  if (!post) notFound();
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
        </aside>
      </div>
    </>
  );
}
