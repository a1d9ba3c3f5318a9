/**
 * Posts and replies for the dashboard: the filter shared by the flagged list, the posts list and
 * the export; keyset pagination on (publishedAt, id); the detail of one post.
 *
 * Lists are two steps: one hand-written SQL query finds the ids of a page (so every filter uses
 * an index, checked with EXPLAIN QUERY PLAN on a million posts), then Prisma loads those rows
 * with their account, flags and classifications.
 */
import { Prisma } from "@/generated/prisma/client";
import { scopeSql } from "../lib/topic-scope";
import { dialectOf, type Db } from "../lib/db";
import { isSentiment, type Sentiment } from "../lib/sentiments";
import { encodeCursor, shanghaiDayStart, type Cursor, type PostFilter, type ReviewState } from "./posts-filter";
import { planSearch, queryWords, searchCondition, wordProbe } from "./search";
import { indexedBy, toBoolean } from "./sql";
import { loadAncestors, loadReplyTree } from "./posts-replies";

export * from "./posts-filter";

export const PAGE_SIZE = 50;
const FLAG_STATUS: Record<ReviewState, string[]> = {
  open: ["open"],
  reviewed: ["confirmed", "dismissed"],
  confirmed: ["confirmed"],
  dismissed: ["dismissed"],
};

/**
 * Conditions on the Post alias `p` that an index scan in date order checks row by row.
 * @param sourced the chosen account also reached posts other accounts stored first (see
 *   {@link reachesOthersPosts}): its posts are then those it is a source of.
 */
function cheapConditions(f: PostFilter, sourced = false): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (f.accountId && sourced) where.push(Prisma.sql`p."id" IN (SELECT s."postId" FROM "PostSource" s WHERE s."accountId" = ${f.accountId})`);
  else if (f.accountId) where.push(Prisma.sql`p."accountId" = ${f.accountId}`);
  else if (f.platform) where.push(Prisma.sql`p."accountId" IN (SELECT "id" FROM "Account" WHERE "platform" = ${f.platform})`);
  if (f.authorId && f.platform) where.push(Prisma.sql`p."authorId" = ${f.authorId}`);
  if (f.from) where.push(Prisma.sql`p."publishedAt" >= ${shanghaiDayStart(f.from)}`);
  if (f.to) where.push(Prisma.sql`p."publishedAt" < ${new Date(shanghaiDayStart(f.to).getTime() + 86_400_000)}`);
  if (f.kind) where.push(Prisma.sql`p."kind" = ${f.kind}`);
  // Posts still on the platform are nearly all of them: checked row by row like the others.
  if (f.deleted === "no") where.push(Prisma.sql`p."deletedAt" IS NULL`);
  // Each sentiment is a large share of the posts (a third or more): checked on the walk too.
  if (f.sentiment) where.push(Prisma.sql`p."sentiment" = ${f.sentiment}`);
  return where;
}

function flagConditions(f: PostFilter): Prisma.Sql[] {
  const c: Prisma.Sql[] = [];
  if (f.review) c.push(Prisma.sql`f."status" IN (${Prisma.join(FLAG_STATUS[f.review])})`);
  if (f.flagged && f.topicId) c.push(Prisma.sql`f."topicId" = ${f.topicId}`);
  const scoped = f.flagged ? scopeSql(f.scope ?? null, Prisma.sql`f."topicId"`) : null;
  if (scoped) c.push(scoped);
  if (f.flagged && f.minScore !== undefined) c.push(Prisma.sql`f."score" >= ${f.minScore}`);
  return c;
}

/** Posts view with a topic or a minimum score: the post's classification decides. */
function classificationCondition(f: PostFilter): Prisma.Sql | null {
  if (f.flagged || (!f.topicId && f.minScore === undefined)) return null;
  // TRUE, not 1: the column is 0/1 on SQLite (where TRUE is 1) but a boolean on PostgreSQL.
  const c: Prisma.Sql[] = [Prisma.sql`c."postId" = p."id"`, Prisma.sql`c."relevant" = TRUE`];
  if (f.topicId) c.push(Prisma.sql`c."topicId" = ${f.topicId}`);
  if (f.minScore !== undefined) c.push(Prisma.sql`c."score" >= ${f.minScore}`);
  return Prisma.sql`EXISTS (SELECT 1 FROM "Classification" c WHERE ${Prisma.join(c, " AND ")})`;
}

/**
 * Only deleted posts: rare, so like flags a selective set (and not a condition on the date-index
 * walk, which would read every row to find a few).
 */
const DELETED = Prisma.sql`p."deletedAt" IS NOT NULL`;

/** The filter needs more than the date-ordered walk (flags, classifications, a search, deletions). */
function needsProbe(f: PostFilter): boolean {
  return f.flagged || Boolean(f.review) || Boolean(f.q) || f.deleted === "yes" || classificationCondition(f) !== null;
}

const where = (conds: Prisma.Sql[]) => (conds.length ? Prisma.sql`WHERE ${Prisma.join(conds, " AND ")}` : Prisma.empty);

/** Rows scanned newest-first before a selective filter switches to driving from its set. */
const WINDOW = 5000;

type IdRow = { id: number | bigint; publishedAt: Date | string };

/**
 * Ids of one page of posts, newest first. `after` continues to older posts, `before` goes back to
 * newer ones. Returns one id more than `take` when there is a further page in that direction.
 *
 * Plans, in order:
 * 1. Nothing but post columns filtered: walk an index in date order (the author index when one
 *    author is chosen, else the account index when one account is) and stop after one page.
 * 2. Flags, classifications or words filtered: first walk the newest WINDOW candidates and probe
 *    each (flag by its unique key, words with LIKE). Usually that fills the page at once.
 * 3. Otherwise the filter is selective: drive from the flag ids, the full-text matches or the
 *    classification rows, and sort what they give (never more than the set itself).
 *
 * SQLite is told which index to walk (INDEXED BY) and when not to walk one (a unary + on the
 * sort keys); PostgreSQL has neither hint, so its plan 1 and 2 are left to its planner (which
 * walks the same indexes for ORDER BY … LIMIT) and plan 3 fences the set in a MATERIALIZED CTE.
 */
export async function findPostIds(db: Db, f: PostFilter, opts: { after?: Cursor; before?: Cursor; take?: number } = {}) {
  const dialect = dialectOf(db);
  const take = opts.take ?? PAGE_SIZE;
  const backwards = Boolean(opts.before && !opts.after);
  const cursor = opts.after ?? opts.before;
  // An account lists every post it reached. Most accounts reached only their own posts, and keep
  // the walk of the account index; one that also reached others' (a keyword watch) walks the date
  // index and checks its sources.
  const sourced = f.accountId ? await reachesOthersPosts(db, f.accountId) : false;
  const cheap = cheapConditions(f, sourced);
  if (cursor) {
    cheap.push(
      backwards
        ? Prisma.sql`(p."publishedAt", p."id") > (${cursor.publishedAt}, ${cursor.id})`
        : Prisma.sql`(p."publishedAt", p."id") < (${cursor.publishedAt}, ${cursor.id})`,
    );
  }
  const dir = backwards ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  // One author's posts are few beside an account's: their index goes first when both are chosen.
  const index = indexedBy(
    dialect,
    f.authorId && f.platform ? "Post_authorId_publishedAt_id_idx" : f.accountId && !sourced ? "Post_accountId_publishedAt_idx" : "Post_publishedAt_id_idx",
  );
  const order = Prisma.sql`ORDER BY p."publishedAt" ${dir}, p."id" ${dir}`;
  const finish = (rows: IdRow[]) => {
    const out = rows.map((r) => ({ id: Number(r.id), publishedAt: new Date(r.publishedAt) }));
    const sign = backwards ? -1 : 1;
    out.sort((a, b) => sign * (b.publishedAt.getTime() - a.publishedAt.getTime() || b.id - a.id));
    const more = out.length > take;
    const page = out.slice(0, take);
    if (backwards) page.reverse();
    return { page, more, backwards };
  };

  if (!needsProbe(f)) {
    return finish(
      await db.$queryRaw<IdRow[]>`
        SELECT p."id", p."publishedAt" FROM "Post" p ${index} ${where(cheap)}
        ${order} LIMIT ${take + 1}`,
    );
  }

  // 2. The newest candidates, probed one by one.
  const probes: Prisma.Sql[] = [];
  const fc = flagConditions(f);
  if (f.flagged || fc.length) {
    probes.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "Flag" f WHERE f."postId" = p."id" ${fc.length ? Prisma.sql`AND ${Prisma.join(fc, " AND ")}` : Prisma.empty})`,
    );
  }
  const cc = classificationCondition(f);
  if (cc) probes.push(cc);
  const deletedSet = f.deleted === "yes";
  if (deletedSet) probes.push(DELETED);
  const plan = f.q ? await planSearch(db, f.q) : null;
  if (plan?.empty) return { page: [], more: false, backwards };
  const words = f.q ? queryWords(f.q) : [];
  for (const w of words) probes.push(wordProbe(dialect, w));
  // SQLite keeps the window's order through the probes. PostgreSQL may not (it can turn an EXISTS
  // into a join that reorders rows), and the LIMIT must keep the newest matches, so it is told.
  const windowed = await db.$queryRaw<IdRow[]>`
    SELECT p."id", p."publishedAt" FROM (
      SELECT p."id", p."publishedAt" ${words.length ? Prisma.sql`, p."title", p."text", p."ocrText"` : Prisma.empty} ${deletedSet ? Prisma.sql`, p."deletedAt"` : Prisma.empty}
      FROM "Post" p ${index} ${where(cheap)}
      ${order} LIMIT ${WINDOW}
    ) p ${where(probes)} ${dialect === "postgresql" ? order : Prisma.empty} LIMIT ${take + 1}`;
  if (windowed.length > take) return finish(windowed);

  // 3. Drive from the selective set.
  // With indexed words, the full-text matches drive and flags are probed by key; else the flag ids drive.
  const flagSet = f.flagged || fc.length > 0;
  const sets: Prisma.Sql[] = [];
  if (plan?.indexed) {
    sets.push(...searchCondition(plan));
    if (flagSet) sets.push(probes[0]!);
  } else {
    if (flagSet) sets.push(Prisma.sql`p."id" IN (SELECT f."postId" FROM "Flag" f ${where(fc)})`);
    if (plan) sets.push(...searchCondition(plan));
  }
  if (deletedSet) sets.push(DELETED);
  // PostgreSQL words too short for the trigram index (most Chinese words have two characters)
  // still make a set: one scan of the posts for them beats walking the whole date index and
  // fetching every row in date order. SQLite's equivalents (one character, or two too common to
  // expand) are rare and walk.
  const shortWordsSet = dialect === "postgresql" && plan !== null && plan.like.length > 0;
  if (!(flagSet || plan?.indexed || shortWordsSet || deletedSet)) {
    // Only classifications or (SQLite) one-character words: no set to drive from, so walk the
    // date index to the end (relevant posts are common; single characters rarely searched).
    return finish(
      await db.$queryRaw<IdRow[]>`
        SELECT p."id", p."publishedAt" FROM "Post" p ${index} ${where([...cheap, ...probes])}
        ${order} LIMIT ${take + 1}`,
    );
  }
  const selective = where([...cheap, ...sets, ...(cc ? [cc] : [])]);
  if (dialect === "postgresql") {
    // PostgreSQL has no unary + on timestamps. The MATERIALIZED CTE is its fence: the set is found
    // on its own (trigram index, flag ids) and then sorted, instead of the planner walking the
    // date index on a bad estimate of how common a word is (ILIKE estimates are rough).
    return finish(
      await db.$queryRaw<IdRow[]>`
        WITH matches AS MATERIALIZED (SELECT p."id", p."publishedAt" FROM "Post" p ${selective})
        SELECT p."id", p."publishedAt" FROM matches p ${order} LIMIT ${take + 1}`,
    );
  }
  // The unary + keeps SQLite from walking the whole date index instead of sorting the set.
  return finish(
    await db.$queryRaw<IdRow[]>`
      SELECT p."id", p."publishedAt" FROM "Post" p ${selective}
      ORDER BY +p."publishedAt" ${dir}, +p."id" ${dir} LIMIT ${take + 1}`,
  );
}

/**
 * Whether an account reached posts that another account stored first. Every post is a source of
 * its own account (a trigger keeps that), so it did exactly when it has more source rows than
 * posts: two index-only counts.
 */
export async function reachesOthersPosts(db: Db, accountId: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ sources: Int; own: Int }[]>`
    SELECT (SELECT count(*) FROM "PostSource" WHERE "accountId" = ${accountId}) AS "sources",
           (SELECT count(*) FROM "Post" WHERE "accountId" = ${accountId}) AS "own"`;
  return row !== undefined && Number(row.sources) > Number(row.own);
}

/** One row of a list table. */
export interface PostRow {
  id: number;
  kind: "post" | "reply";
  title: string;
  /** The start of the text (the tables show two lines). */
  excerpt: string;
  url: string;
  author: string;
  /** The platform's stable id of the author ("" when the page shows none). */
  authorId: string;
  publishedAt: Date;
  version: number;
  replyCount: number | null;
  /** When the crawler noticed the post gone from the platform (null: still there). */
  deletedAt: Date | null;
  /** Only part of the text could be read (a later crawl completes it). */
  incomplete: boolean;
  /** The classifier's sentiment (null until the post is classified) and its P(negative). */
  sentiment: Sentiment | null;
  sentimentScore: number | null;
  account: { id: number; name: string; platform: string };
  parent: { id: number; title: string; excerpt: string } | null;
  flags: { id: number; topicId: number; topicName: string; score: number; status: string; reasons: string }[];
  /** Classifications worth showing: relevant, or scoring at least 0.3. */
  classifications: { topicId: number; topicName: string; score: number; cosine: number; relevant: boolean }[];
}

/** An integer column: bigint from SQLite, number from PostgreSQL (INTEGER). */
type Int = number | bigint;
const num = (v: Int | null) => (v === null ? null : Number(v));
const idList = (ids: number[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}`));

/**
 * The rows of a list page. Plain SQL: the list reads only excerpts, and for fifty rows with
 * their flags and scores this is several times cheaper than Prisma's nested includes.
 */
export async function loadPostRows(db: Db, ids: number[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const [posts, flags, classes, accounts, topics] = await Promise.all([
    db.$queryRaw<
      {
        id: Int;
        kind: string;
        title: string;
        excerpt: string;
        url: string;
        author: string;
        authorId: string;
        publishedAt: Date;
        version: Int;
        replyCount: Int | null;
        accountId: Int;
        parentId: Int | null;
        deletedAt: Date | string | null;
        incomplete: Int | boolean;
        sentiment: string | null;
        sentimentScore: number | null;
      }[]
    >`SELECT "id", "kind", "title", substr("text", 1, 240) AS "excerpt", "url", "author", "authorId", "publishedAt", "version", "replyCount", "accountId", "parentId", "deletedAt", "incomplete", "sentiment", "sentimentScore"
      FROM "Post" WHERE "id" IN (${idList(ids)})`,
    db.$queryRaw<{ id: Int; postId: Int; topicId: Int; score: number; status: string; reasons: string }[]>`
      SELECT "id", "postId", "topicId", "score", "status", "reasons" FROM "Flag" WHERE "postId" IN (${idList(ids)}) ORDER BY "score" DESC`,
    db.$queryRaw<{ postId: Int; topicId: Int; score: number; cosine: number; relevant: Int | boolean }[]>`
      SELECT "postId", "topicId", "score", "cosine", "relevant" FROM "Classification"
      WHERE "postId" IN (${idList(ids)}) AND ("relevant" = TRUE OR "score" >= 0.3) ORDER BY "score" DESC`,
    db.$queryRaw<{ id: Int; name: string; platform: string }[]>`SELECT "id", "name", "platform" FROM "Account"`,
    db.$queryRaw<{ id: Int; name: string }[]>`SELECT "id", "name" FROM "Topic"`,
  ]);
  const parentIds = [...new Set(posts.map((p) => num(p.parentId)).filter((x): x is number => x !== null))];
  const parents = parentIds.length
    ? await db.$queryRaw<{ id: Int; title: string; excerpt: string }[]>`
        SELECT "id", "title", substr("text", 1, 80) AS "excerpt" FROM "Post" WHERE "id" IN (${idList(parentIds)})`
    : [];
  const accountById = new Map(accounts.map((a) => [Number(a.id), { id: Number(a.id), name: a.name, platform: a.platform }]));
  const topicName = new Map(topics.map((t) => [Number(t.id), t.name]));
  const parentById = new Map(parents.map((p) => [Number(p.id), { id: Number(p.id), title: p.title, excerpt: p.excerpt }]));
  const flagsBy = new Map<number, PostRow["flags"]>();
  for (const f of flags) {
    const list = flagsBy.get(Number(f.postId)) ?? [];
    list.push({
      id: Number(f.id),
      topicId: Number(f.topicId),
      topicName: topicName.get(Number(f.topicId)) ?? "?",
      score: f.score,
      status: f.status,
      reasons: f.reasons,
    });
    flagsBy.set(Number(f.postId), list);
  }
  const classesBy = new Map<number, PostRow["classifications"]>();
  for (const c of classes) {
    const list = classesBy.get(Number(c.postId)) ?? [];
    list.push({
      topicId: Number(c.topicId),
      topicName: topicName.get(Number(c.topicId)) ?? "?",
      score: c.score,
      cosine: c.cosine,
      relevant: toBoolean(c.relevant),
    });
    classesBy.set(Number(c.postId), list);
  }
  return posts.map((p) => {
    const id = Number(p.id);
    const parentId = num(p.parentId);
    return {
      id,
      kind: p.kind === "reply" ? "reply" : "post",
      title: p.title,
      excerpt: p.excerpt,
      url: p.url,
      author: p.author,
      authorId: p.authorId,
      publishedAt: new Date(p.publishedAt),
      version: Number(p.version),
      replyCount: num(p.replyCount),
      deletedAt: p.deletedAt === null ? null : new Date(p.deletedAt),
      incomplete: toBoolean(p.incomplete),
      sentiment: isSentiment(p.sentiment) ? p.sentiment : null,
      sentimentScore: p.sentimentScore,
      account: accountById.get(Number(p.accountId)) ?? { id: Number(p.accountId), name: "?", platform: "?" },
      parent: parentId === null ? null : (parentById.get(parentId) ?? null),
      flags: flagsBy.get(id) ?? [],
      classifications: classesBy.get(id) ?? [],
    };
  });
}

/** One page of the list: rows in order plus cursors for the neighbouring pages. */
export async function listPostsPage(db: Db, f: PostFilter, opts: { after?: Cursor; before?: Cursor; take?: number } = {}) {
  const { page, more, backwards } = await findPostIds(db, f, opts);
  const rows = await loadPostRows(
    db,
    page.map((p) => p.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = page.map((p) => byId.get(p.id)).filter((r): r is PostRow => Boolean(r));
  const first = page[0];
  const last = page.at(-1);
  // Forward: a next (older) page exists when we fetched one extra; a previous one when we came
  // from a cursor. Backwards the other way round.
  const hasOlder = backwards ? true : more;
  const hasNewer = backwards ? more : Boolean(opts.after);
  return {
    rows: ordered,
    older: hasOlder && last ? encodeCursor(last) : null,
    newer: hasNewer && first ? encodeCursor(first) : null,
  };
}

/** Everything the detail page shows about one post. */
export async function getPostDetail(db: Db, id: number) {
  const post = await db.post.findUnique({
    where: { id },
    include: {
      account: { select: { id: true, name: true, platform: true, entryUrl: true } },
      parent: { select: { id: true, title: true, text: true, url: true, author: true, publishedAt: true } },
      versions: { orderBy: { version: "asc" } },
      flags: {
        include: {
          topic: { select: { id: true, name: true } },
          reviews: { orderBy: { createdAt: "desc" }, include: { reviewer: { select: { username: true } } } },
        },
        orderBy: { score: "desc" },
      },
      classifications: {
        include: { topic: { select: { id: true, name: true, keywords: true, sensitiveWords: true, nbThreshold: true, cosineThreshold: true } } },
        orderBy: { score: "desc" },
      },
      _count: { select: { replies: true } },
      // Every account that reached the post (its own account first among equals by time).
      sources: {
        select: { firstSeenAt: true, account: { select: { id: true, name: true, platform: true } } },
        orderBy: [{ firstSeenAt: "asc" }, { accountId: "asc" }],
      },
    },
  });
  if (!post) return null;
  // A reply (a floor) shows what it answers up to the thread, and its own replies (楼中楼).
  const [replies, ancestors] = await Promise.all([loadReplyTree(db, id), loadAncestors(db, post.parentId)]);
  return { ...post, replies, ancestors };
}
export type PostDetail = NonNullable<Awaited<ReturnType<typeof getPostDetail>>>;
