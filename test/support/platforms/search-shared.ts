/**
 * What the local platforms' search endpoints share: which posts and replies match a word, and a
 * deterministic "relevance" order (not publication order), so keyword watches are tested against
 * results that do not come newest first.
 */
import type { Platform } from "../../../crawler/types";
import type { LocalAccount, LocalPost, LocalReply, PlatformModel } from "./model";
import type { Rendered } from "./responses";

/** What a search route answers (the shape server.ts routes with). */
export interface SearchRouted {
  rendered: Rendered;
  platform: Platform | null;
  accountKey: string | null;
  kind: "list" | "item" | "other";
}

/** One search hit: a post's own text, or a reply. */
export type Hit = { post: LocalPost; reply?: LocalReply };

const plain = (html: string): string => html.replace(/<[^>]+>/g, "");

/** Visible posts and replies of `accounts` whose text (or the post's title) contains `word`. */
export function hitsFor(model: PlatformModel, accounts: readonly LocalAccount[], word: string, withReplies: boolean): Hit[] {
  if (!word) return [];
  const hits: Hit[] = [];
  for (const account of accounts) {
    for (const post of model.visiblePosts(account)) {
      if (post.title.includes(word) || plain(post.html).includes(word)) hits.push({ post });
      if (!withReplies) continue;
      for (const reply of model.visibleReplies(post)) if (plain(reply.html).includes(word)) hits.push({ post, reply });
    }
  }
  return hits;
}

/** A fixed pseudo-relevance order: by a hash of the id, so neither newest nor oldest first. */
export function byRelevance(hits: Hit[]): Hit[] {
  const score = (h: Hit) => (BigInt(h.reply?.id ?? h.post.id) * 2_654_435_761n) % 1_000_003n;
  return [...hits].sort((a, b) => (score(a) < score(b) ? -1 : score(a) > score(b) ? 1 : 0));
}

/** Newest first by the hit's own time. */
export function byTime(hits: Hit[]): Hit[] {
  const at = (h: Hit) => (h.reply ?? h.post).publishedAt.getTime();
  return [...hits].sort((a, b) => at(b) - at(a));
}
