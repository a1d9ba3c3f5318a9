/**
 * An incident's figures, recomputed from its members whenever its membership changes: size,
 * threads, authors, accounts, platforms (in the order it reached them), replies, flagged and
 * negative members, first and last seen, keywords, representative post, title (unless a reviewer
 * locked it), topic, and the candidate → open promotion. One place, so clustering, a new flag and
 * a reviewer's move all leave the same figures.
 */
import type { Tx } from "./index-store";
import { BIGRAM, TAG_MARK } from "./text-features";

/** Flag statuses that count a member as flagged. */
const FLAGGED = ["open", "confirmed"];
/** Keywords kept per incident. */
const KEYWORDS = 8;
/** Longest title taken from a post's text. */
const TITLE_CHARS = 40;

/** The title a post gives an incident: its own title, else its first sentence, cut at {@link TITLE_CHARS}. */
export function titleFromPost(title: string, text: string): string {
  const t = title.trim();
  if (t) return t.length > TITLE_CHARS ? `${t.slice(0, TITLE_CHARS)}…` : t;
  const body = text.replace(/\s+/g, " ").trim();
  const headline = /【([^】]{2,60})】/.exec(body)?.[1];
  const first = headline ?? body.split(/(?<=[。！？!?；;])|\n/)[0] ?? "";
  const s = first.trim();
  return s.length > TITLE_CHARS ? `${s.slice(0, TITLE_CHARS)}…` : s;
}

/**
 * Whether a candidate becomes an incident: two posts from different threads or different authors,
 * or one flagged post.
 */
export function promotes(f: { size: number; threadCount: number; authorCount: number; flaggedCount: number }): boolean {
  return f.flaggedCount > 0 || (f.size >= 2 && (f.threadCount >= 2 || f.authorCount >= 2));
}

/** Recompute and write an incident's figures (and promote a candidate). Deleted: nothing. */
export async function refreshIncident(tx: Tx, incidentId: number, now = new Date()): Promise<void> {
  const inc = await tx.incident.findUnique({ where: { id: incidentId }, select: { status: true, titleLocked: true, title: true, representativePostId: true } });
  if (!inc) return;
  const members = await tx.incidentPost.findMany({
    where: { incidentId },
    select: {
      pinned: true,
      reason: true,
      post: {
        select: {
          id: true,
          parentId: true,
          kind: true,
          title: true,
          text: true,
          author: true,
          authorId: true,
          publishedAt: true,
          sentiment: true,
          account: { select: { platform: true } },
          sources: { select: { accountId: true } },
          flags: { where: { status: { in: FLAGGED } }, select: { topicId: true } },
        },
      },
    },
  });
  const posts = members.map((m) => m.post).sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || a.id - b.id);
  const threads = new Map<number, number>();
  const authors = new Set<string>();
  const accounts = new Set<number>();
  const platforms: string[] = [];
  const topics = new Map<number, number>();
  let replies = 0;
  let flagged = 0;
  let negative = 0;
  for (const p of posts) {
    const thread = p.parentId ?? p.id;
    threads.set(thread, (threads.get(thread) ?? 0) + 1);
    const who = p.authorId || p.author;
    if (who) authors.add(`${p.account.platform}:${who}`);
    for (const s of p.sources) accounts.add(s.accountId);
    if (!platforms.includes(p.account.platform)) platforms.push(p.account.platform);
    if (p.kind === "reply") replies++;
    if (p.flags.length > 0) flagged++;
    for (const f of p.flags) topics.set(f.topicId, (topics.get(f.topicId) ?? 0) + 1);
    if (p.sentiment === "negative") negative++;
  }
  // The representative: the thread post of its largest thread (the earliest of that thread when its
  // thread post is not a member); posts are in time order, so ties go to the earlier thread.
  let repThread = -1;
  for (const p of posts) {
    const t = p.parentId ?? p.id;
    if (repThread === -1 || threads.get(t)! > threads.get(repThread)!) repThread = t;
  }
  const rep = posts.find((p) => p.id === repThread) ?? posts.find((p) => (p.parentId ?? p.id) === repThread);
  const keywords = (
    await tx.incidentTerm.findMany({
      where: { incidentId, NOT: { term: { startsWith: BIGRAM } } },
      orderBy: [{ weight: "desc" }, { id: "asc" }],
      take: KEYWORDS * 2,
      select: { term: true },
    })
  )
    .map((r) => (r.term.startsWith(TAG_MARK) ? r.term.slice(TAG_MARK.length) : r.term))
    .filter((t, i, all) => all.indexOf(t) === i)
    .slice(0, KEYWORDS);
  const topicId = [...topics].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
  const figures = { size: posts.length, threadCount: threads.size, authorCount: authors.size, flaggedCount: flagged };
  const status = inc.status === "candidate" && promotes(figures) ? "open" : inc.status;
  const title = inc.titleLocked ? inc.title : rep ? titleFromPost(rep.title, rep.text) : inc.title;
  await tx.incident.update({
    where: { id: incidentId },
    data: {
      ...figures,
      status,
      title,
      accountCount: accounts.size,
      platforms: JSON.stringify(platforms),
      platformCount: platforms.length,
      replyCount: replies,
      negativeCount: negative,
      topicId,
      keywords: JSON.stringify(keywords),
      representativePostId: rep?.id ?? null,
      ...(posts.length > 0 ? { firstSeenAt: posts[0]!.publishedAt, lastSeenAt: posts[posts.length - 1]!.publishedAt } : {}),
      updatedAt: now,
    },
    select: { id: true },
  });
}
