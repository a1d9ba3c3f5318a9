/**
 * An incident's figures (size, threads, authors, accounts, platforms, replies, flags, negative
 * posts, first and last seen, representative post, topic, keywords, title, and the candidate →
 * open promotion), computed from its member posts. Every change of membership ends with
 * {@link recomputeIncidentFigures} in the same transaction, so the figures the list sorts and
 * filters by never drift from the members the incident page shows. Clustering, a new flag on a
 * member and reviewers' actions all call this one function.
 */
import type { Db, Prisma } from "../../lib/db";
import { runPlanAsync } from "../../lib/plan";
import { BIGRAM, TAG_MARK } from "./text-features";

/** A client or an interactive transaction's client: the figures are written where the move was. */
export type IncidentTx = Prisma.TransactionClient | Db;

/** What {@link computeIncidentFigures} reads of each member post. */
export interface FigureMember {
  id: number;
  kind: string;
  parentId: number | null;
  /** The parent's own parent (a 楼中楼 reply's thread is its floor's thread). */
  grandParentId: number | null;
  accountId: number;
  /** Every account that reached the post (PostSource); the post's own account when not given. */
  sourceAccountIds?: number[];
  platform: string;
  author: string;
  authorId: string;
  publishedAt: Date;
  /** The platform's reply count of a post (null when it shows none). */
  replyCount: number | null;
  sentiment: string | null;
  /** Topic ids of its open or confirmed flags. */
  flagTopics: number[];
}

/** The figure columns of an Incident row, as {@link recomputeIncidentFigures} writes them. */
export interface IncidentFigures {
  size: number;
  threadCount: number;
  authorCount: number;
  accountCount: number;
  /** Platform ids in the order the incident reached them (by publishedAt). */
  platforms: string[];
  platformCount: number;
  replyCount: number;
  flaggedCount: number;
  negativeCount: number;
  /** null when it has no members (the row keeps its old dates: the columns are required). */
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
  representativePostId: number | null;
  /** The topic most of its flags belong to (ties: the lower id); null while none is flagged. */
  topicId: number | null;
}

/** The thread a member belongs to: its top-level post. */
function threadOf(m: FigureMember): number {
  return m.grandParentId ?? m.parentId ?? m.id;
}

/**
 * The figures of a set of members (pure: the rules in one place, testable without a database).
 *
 * - an author is the platform with the author's stable id, or the shown name when there is none;
 * - `replyCount` counts, per thread, the larger of the platform's reply count of its top-level post
 *   (when that post is a member) and the member replies stored for it: the platform's count sees
 *   replies not crawled, the stored ones count where the platform shows no count;
 * - the representative post is the earliest member of the largest thread (ties: the thread that
 *   started first), preferring a top-level post to a reply at the same time.
 */
export function computeIncidentFigures(members: readonly FigureMember[]): IncidentFigures {
  const sorted = [...members].sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || a.id - b.id);
  const threads = new Map<number, FigureMember[]>();
  const authors = new Set<string>();
  const accounts = new Set<number>();
  const platforms: string[] = [];
  const topicVotes = new Map<number, number>();
  let flagged = 0;
  let negative = 0;
  for (const m of sorted) {
    const thread = threadOf(m);
    const list = threads.get(thread);
    if (list) list.push(m);
    else threads.set(thread, [m]);
    const who = m.authorId || m.author;
    if (who) authors.add(`${m.platform}\u0000${who}`);
    for (const a of m.sourceAccountIds?.length ? m.sourceAccountIds : [m.accountId]) accounts.add(a);
    if (!platforms.includes(m.platform)) platforms.push(m.platform);
    if (m.flagTopics.length > 0) flagged++;
    for (const t of m.flagTopics) topicVotes.set(t, (topicVotes.get(t) ?? 0) + 1);
    if (m.sentiment === "negative") negative++;
  }
  let replyCount = 0;
  let best: FigureMember[] | null = null;
  for (const [root, list] of threads) {
    const top = list.find((m) => m.id === root);
    const stored = list.filter((m) => m.kind === "reply").length;
    replyCount += Math.max(top?.replyCount ?? 0, stored);
    // Map order is first-appearance order over the sorted members: a tie keeps the earlier thread.
    if (!best || list.length > best.length) best = list;
  }
  let representative: FigureMember | null = null;
  if (best) {
    const first = best[0]!.publishedAt.getTime();
    representative = best.find((m) => m.kind !== "reply" && m.publishedAt.getTime() === first) ?? best[0]!;
  }
  let topicId: number | null = null;
  let votes = 0;
  for (const [t, n] of topicVotes) {
    if (n > votes || (n === votes && topicId !== null && t < topicId)) {
      topicId = t;
      votes = n;
    }
  }
  return {
    size: sorted.length,
    threadCount: threads.size,
    authorCount: authors.size,
    accountCount: accounts.size,
    platforms,
    platformCount: platforms.length,
    replyCount,
    flaggedCount: flagged,
    negativeCount: negative,
    firstSeenAt: sorted[0]?.publishedAt ?? null,
    lastSeenAt: sorted.at(-1)?.publishedAt ?? null,
    representativePostId: representative?.id ?? null,
    topicId,
  };
}

/** The flag states that count an incident member as flagged (a dismissed flag does not). */
export const COUNTED_FLAG_STATES = ["open", "confirmed"] as const;

/** Read the members of an incident as {@link computeIncidentFigures} needs them. */
export async function readFigureMembers(tx: IncidentTx, incidentId: number): Promise<FigureMember[]> {
  const rows = await tx.incidentPost.findMany({
    where: { incidentId },
    select: {
      post: {
        select: {
          id: true,
          kind: true,
          parentId: true,
          parent: { select: { parentId: true } },
          accountId: true,
          account: { select: { platform: true } },
          sources: { select: { accountId: true } },
          author: true,
          authorId: true,
          publishedAt: true,
          replyCount: true,
          sentiment: true,
          flags: { where: { status: { in: [...COUNTED_FLAG_STATES] } }, select: { topicId: true } },
        },
      },
    },
  });
  return rows.map(({ post: p }) => ({
    id: p.id,
    kind: p.kind,
    parentId: p.parentId,
    grandParentId: p.parent?.parentId ?? null,
    accountId: p.accountId,
    sourceAccountIds: p.sources.map((x) => x.accountId),
    platform: p.account.platform,
    author: p.author,
    authorId: p.authorId,
    publishedAt: p.publishedAt,
    replyCount: p.replyCount,
    sentiment: p.sentiment,
    flagTopics: p.flags.map((f) => f.topicId),
  }));
}

/** Keywords kept per incident. */
const KEYWORDS = 8;
/** Longest title taken from a post's text. */
const TITLE_CHARS = 40;

/**
 * `s` cut at {@link TITLE_CHARS} characters (code points: cutting UTF-16 units could split an
 * emoji's surrogate pair, and Prisma refuses a string with half of one — the incident's update
 * failed and the post stayed queued).
 */
function cutTitle(s: string): string {
  const chars = Array.from(s);
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS).join("")}…` : s;
}

/** The title a post gives an incident: its own title, else its first sentence, cut at {@link TITLE_CHARS}. */
export function titleFromPost(title: string, text: string): string {
  const t = title.trim();
  if (t) return cutTitle(t);
  const body = text.replace(/\s+/g, " ").trim();
  const headline = /【([^】]{2,60})】/.exec(body)?.[1];
  const first = headline ?? body.split(/(?<=[。！？!?；;])|\n/)[0] ?? "";
  const s = first.trim();
  return cutTitle(s);
}

/**
 * Whether a candidate becomes an incident: two posts from different threads or different authors,
 * or one flagged post.
 */
export function promotes(f: { size: number; threadCount: number; authorCount: number; flaggedCount: number }): boolean {
  return f.flaggedCount > 0 || (f.size >= 2 && (f.threadCount >= 2 || f.authorCount >= 2));
}

/** Centroid terms read per incident for its keywords (a tag and its word may both be there). */
export const KEYWORD_TERMS = KEYWORDS * 2;

/** The incident's most telling terms (its centroid's heaviest words and tags, as read); null: it has none. */
function keywordsOf(terms: readonly string[]): string[] | null {
  if (terms.length === 0) return null;
  return terms
    .map((t) => (t.startsWith(TAG_MARK) ? t.slice(TAG_MARK.length) : t))
    .filter((t, i, all) => all.indexOf(t) === i)
    .slice(0, KEYWORDS);
}

/** The Incident columns {@link recomputeIncidentFigures} writes (dates as dates, platforms and keywords as JSON). */
export type IncidentFigureColumns = Record<string, string | number | boolean | Date | null>;

/**
 * The reads and the write of {@link figuresPlan}, carried out by Prisma ({@link runFigureOpPrisma})
 * or as prepared statements on SQLite (./sqlite-index.ts runFigureOpSqlite). Each returns:
 * incidentHead → its status, titleLocked, title and topicId (null: no such incident);
 * figureMembers → {@link FigureMember}[]; keywordTerms → up to {@link KEYWORD_TERMS} of its
 * centroid's word terms (no bigrams), heaviest first (ties: the older posting);
 * postText → a post's title and text (null: none); updateIncident → nothing.
 */
export type FigureOp =
  | { op: "incidentHead"; incidentId: number }
  | { op: "figureMembers"; incidentId: number }
  | { op: "keywordTerms"; incidentId: number }
  | { op: "postText"; postId: number }
  | { op: "updateIncident"; incidentId: number; data: IncidentFigureColumns };

/** An incident's head row as {@link figuresPlan} reads it. */
export interface IncidentHead {
  status: string;
  titleLocked: boolean;
  title: string;
  topicId: number | null;
}

/** One {@link FigureOp} through Prisma, on the caller's transaction. */
export async function runFigureOpPrisma(tx: IncidentTx, op: FigureOp): Promise<unknown> {
  switch (op.op) {
    case "incidentHead":
      return tx.incident.findUnique({ where: { id: op.incidentId }, select: { status: true, titleLocked: true, title: true, topicId: true } });
    case "figureMembers":
      return readFigureMembers(tx, op.incidentId);
    case "keywordTerms":
      return (
        await tx.incidentTerm.findMany({
          where: { incidentId: op.incidentId, NOT: { term: { startsWith: BIGRAM } } },
          orderBy: [{ weight: "desc" }, { id: "asc" }],
          take: KEYWORD_TERMS,
          select: { term: true },
        })
      ).map((r) => r.term);
    case "postText":
      return tx.post.findUnique({ where: { id: op.postId }, select: { title: true, text: true } });
    case "updateIncident":
      await tx.incident.update({ where: { id: op.incidentId }, data: op.data, select: { id: true } });
      return undefined;
  }
}

/**
 * Recompute and store an incident's figures from its members (in the caller's transaction), its
 * keywords (kept as they are when its centroid has no terms: one a reviewer split off), its title
 * from the representative post (unless a reviewer locked it), promote a candidate that now
 * qualifies, and touch its `updatedAt`. Heat, burst and alert columns are not figures of the
 * members alone and are left to their own modules. Returns the figures written; null when the
 * incident does not exist.
 */
export function recomputeIncidentFigures(tx: IncidentTx, incidentId: number, now = new Date()): Promise<IncidentFigures | null> {
  return runPlanAsync(figuresPlan(incidentId, now), (op) => runFigureOpPrisma(tx, op));
}

/** {@link recomputeIncidentFigures} as a plan (lib/plan.ts): the rules once, for both drivers. */
export function* figuresPlan(incidentId: number, now: Date): Generator<FigureOp, IncidentFigures | null, unknown> {
  const inc = (yield { op: "incidentHead", incidentId }) as IncidentHead | null;
  if (!inc) return null;
  const figures = computeIncidentFigures((yield { op: "figureMembers", incidentId }) as FigureMember[]);
  const { platforms, firstSeenAt, lastSeenAt, ...rest } = figures;
  const keywords = keywordsOf((yield { op: "keywordTerms", incidentId }) as string[]);
  const rep =
    inc.titleLocked || figures.representativePostId === null
      ? null
      : ((yield { op: "postText", postId: figures.representativePostId }) as { title: string; text: string } | null);
  const title = rep ? titleFromPost(rep.title, rep.text) || inc.title : inc.title;
  yield {
    op: "updateIncident",
    incidentId,
    data: {
      ...rest,
      // Without a counted flag (all dismissed, or a topic given when it was made) the topic stays.
      topicId: rest.topicId ?? inc.topicId,
      platforms: JSON.stringify(platforms),
      status: inc.status === "candidate" && promotes(figures) ? "open" : inc.status,
      title,
      ...(keywords ? { keywords: JSON.stringify(keywords) } : {}),
      // An emptied incident (merged away, or split to nothing) keeps the dates it had.
      ...(firstSeenAt && lastSeenAt ? { firstSeenAt, lastSeenAt } : {}),
      updatedAt: now,
    },
  };
  return figures;
}
