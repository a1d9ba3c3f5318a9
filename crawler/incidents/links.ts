/**
 * Explicit links between stored posts that clustering follows before any text similarity: a
 * reply's thread post (Post.parentId), and a stored post quoted by its URL (a 【转】/转自 repost
 * that names its source's link, a forum post linking the Weibo it copies). A Weibo repost carries
 * its original's text (the adapter keeps retweeted_status as a blockquote), and a 【转】 copy without
 * a link carries its source's words: the near-duplicate test finds both.
 */
import type { Tx } from "./index-store";

/** URLs in text or HTML (href values and bare http(s) links). */
const URL_IN_TEXT = /https?:\/\/[^\s"'<>()（）【】，。]+/g;
/** At most this many quoted URLs are looked up per post (hostile pages can hold thousands). */
const MAX_URLS = 20;

/** The URLs a post quotes, deduplicated, in order, at most {@link MAX_URLS}. */
export function quotedUrls(...parts: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (!part) continue;
    for (const m of part.replace(/&amp;/g, "&").matchAll(URL_IN_TEXT)) {
      const u = m[0].replace(/[.,;:!?]+$/, "");
      if (!out.includes(u)) out.push(u);
      if (out.length >= MAX_URLS) return out;
    }
  }
  return out;
}

/**
 * The earliest other stored post a post quotes by URL, or null. Any quoted URL of a stored post is
 * a link (the post talks about that one); most posts quote none, which costs one indexed lookup.
 */
export async function quotedPost(tx: Tx, postId: number, urls: readonly string[]): Promise<number | null> {
  if (urls.length === 0) return null;
  const hit = await tx.post.findFirst({
    where: { url: { in: [...urls] }, id: { not: postId } },
    orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return hit?.id ?? null;
}
