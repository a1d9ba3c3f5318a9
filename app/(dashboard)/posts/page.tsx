import { requireUser } from "@/lib/auth/current-user";
import type { SearchParams } from "@/lib/queries/posts";
import { PostView } from "@/components/posts/post-view";

export const metadata = { title: "Posts" };
export const dynamic = "force-dynamic";

export default async function PostsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  return <PostView user={user} params={await searchParams} flagged={false} />;
}
