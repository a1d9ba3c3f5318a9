import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import type { SearchParams } from "@/server/posts";
import { PostView } from "@/components/posts/post-view";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("posts.pages");
  return { title: t("postsTitle") };
}
export const dynamic = "force-dynamic";

export default async function PostsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  return <PostView user={user} params={await searchParams} flagged={false} />;
}
