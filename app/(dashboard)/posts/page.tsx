import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { listPosts } from "@/lib/queries/overview";
import { excerpt, formatTime } from "@/lib/format";
import { PlatformBadge } from "@/components/platform-badge";

export const metadata = { title: "All posts" };
export const dynamic = "force-dynamic";

export default async function PostsPage() {
  await requireUser();
  const posts = await listPosts(db, { take: 100 });
  return (
    <>
      <h1>All posts</h1>
      {posts.length === 0 ? (
        <div className="panel empty">No posts yet. Register an account and crawl it.</div>
      ) : (
        <table className="data">
          <thead>
            <tr><th>Time</th><th>Platform</th><th>Account</th><th>Kind</th><th>Author</th><th>Post</th><th className="num">Version</th></tr>
          </thead>
          <tbody>
            {posts.map((p) => (
              <tr key={p.id}>
                <td>{formatTime(p.publishedAt)}</td>
                <td><PlatformBadge platform={p.account.platform} /></td>
                <td>{p.account.name}</td>
                <td>{p.kind === "reply" ? <span className="badge">reply</span> : <span className="badge info">post</span>}</td>
                <td>{p.author}</td>
                <td>
                  <div>{p.title || excerpt(p.text, 40)}</div>
                  <div className="excerpt">{excerpt(p.text)}</div>
                </td>
                <td className="num">{p.version}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
