/**
 * Posts and replies for the dashboard: the filter shared by the flagged list, the posts list and
 * the export; keyset pagination on (publishedAt, id); the detail of one post.
 *
 * Lists are two steps: one hand-written SQL query finds the ids of a page (so every filter uses
 * an index, checked with EXPLAIN QUERY PLAN on a million posts), then Prisma loads those rows
 * with their account, flags and classifications.
 */
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { dialectOf, type Db } from "../db";
import { PLATFORMS, type Platform } from "@/crawler/types";
import { planSearch, queryWords, searchCondition, wordProbe } from "./search";
import { indexedBy, toBoolean } from "./sql";

export const PAGE_SIZE = 50;
export const REVIEW_STATES = ["open", "reviewed", "confirmed", "dismissed"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** What the lists can be filtered by. Every field is optional; `flagged` selects the view. */
export interface PostFilter {
  /** Only posts with a flag (that matches topic / review / minScore). */
  flagged: boolean;
  topicId?: number;
  platform?: Platform;
  accountId?: number;
  /** Asia/Shanghai calendar days, inclusive: "2026-11-01". */
  from?: string;
  to?: string;
  review?: ReviewState;
  /** Flag score (flagged view) or classification score (posts view), 0–1. */
  minScore?: number;
  kind?: "post" | "reply";
  q?: string;
}

/** A position in the newest-first order. */
export interface Cursor {
  publishedAt: Date;
  id: number;
}

const blankToUndefined = (v: unknown) => (v === "" || v === null || (Array.isArray(v) && v.length === 0) ? undefined : Array.isArray(v) ? v[0] : v);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD");
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional().catch(undefined));

/** Query-string schema of the filter: unknown or malformed values are ignored, not errors. */
export const postFilterSchema = z.object({
  topic: optional(z.coerce.number().int().positive()),
  platform: optional(z.enum(PLATFORMS as unknown as [Platform, ...Platform[]])),
  account: optional(z.coerce.number().int().positive()),
  from: optional(day),
  to: optional(day),
  review: optional(z.enum(REVIEW_STATES)),
  minScore: optional(z.coerce.number().min(0).max(1)),
  kind: optional(z.enum(["post", "reply"])),
  q: optional(z.string().trim().max(200)),
  after: optional(z.string().regex(/^\d+\.\d+$/)),
  before: optional(z.string().regex(/^\d+\.\d+$/)),
});

export type SearchParams = Record<string, string | string[] | undefined>;

/** Read the filter and the page position from a page's search params. */
export function parsePostFilter(params: SearchParams, flagged: boolean): { filter: PostFilter; after?: Cursor; before?: Cursor } {
  const p = postFilterSchema.parse(params);
  const filter: PostFilter = {
    flagged,
    topicId: p.topic,
    platform: p.platform,
    accountId: p.account,
    from: p.from,
    to: p.to,
    review: p.review,
    minScore: p.minScore,
    kind: p.kind,
    q: p.q || undefined,
  };
  return { filter, after: decodeCursor(p.after), before: decodeCursor(p.before) };
}

/** `{ms}.{id}`: short, opaque enough, and stable in a URL. */
export function encodeCursor(c: Cursor): string {
  return `${c.publishedAt.getTime()}.${c.id}`;
}
export function decodeCursor(s: string | undefined): Cursor | undefined {
  if (!s) return undefined;
  const [ms, id] = s.split(".").map(Number);
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(id)) return undefined;
  return { publishedAt: new Date(ms!), id: id! };
}

/** The filter as query-string pairs (for links that keep it: pages, export, detail). */
export function filterToParams(f: PostFilter): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.topicId) sp.set("topic", String(f.topicId));
  if (f.platform) sp.set("platform", f.platform);
  if (f.accountId) sp.set("account", String(f.accountId));
  if (f.from) sp.set("from", f.from);
  if (f.to) sp.set("to", f.to);
  if (f.review) sp.set("review", f.review);
  if (f.minScore !== undefined) sp.set("minScore", String(f.minScore));
  if (f.kind) sp.set("kind", f.kind);
  if (f.q) sp.set("q", f.q);
  return sp;
}

/** Start of an Asia/Shanghai day as an instant. */
export function shanghaiDayStart(d: string): Date {
  return new Date(`${d}T00:00:00+08:00`);
}

const FLAG_STATUS: Record<ReviewState, string[]> = {
  open: ["open"],
  reviewed: ["confirmed", "dismissed"],
  confirmed: ["confirmed"],
  dismissed: ["dismissed"],
};

/** Conditions on the Post alias `p` that an index scan in date order checks row by row. */
function cheapConditions(f: PostFilter): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (f.accountId) where.push(Prisma.sql`p."accountId" = ${f.accountId}`);
  else if (f.platform) where.push(Prisma.sql`p."accountId" IN (SELECT "id" FROM "Account" WHERE "platform" = ${f.platform})`);
  if (f.from) where.push(Prisma.sql`p."publishedAt" >= ${shanghaiDayStart(f.from)}`);
  if (f.to) where.push(Prisma.sql`p."publishedAt" < ${new Date(shanghaiDayStart(f.to).getTime() + 86_400_000)}`);
  if (f.kind) where.push(Prisma.sql`p."kind" = ${f.kind}`);
  return where;
}

function flagConditions(f: PostFilter): Prisma.Sql[] {
  const c: Prisma.Sql[] = [];
  if (f.review) c.push(Prisma.sql`f."status" IN (${Prisma.join(FLAG_STATUS[f.review])})`);
  if (f.flagged && f.topicId) c.push(Prisma.sql`f."topicId" = ${f.topicId}`);
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

/** The filter needs more than the post row itself (flags, classifications or a search). */
function needsProbe(f: PostFilter): boolean {
  return f.flagged || Boolean(f.review) || Boolean(f.q) || classificationCondition(f) !== null;
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
 * 1. Nothing but post columns filtered: walk an index in date order (the account index when one
 *    account is chosen) and stop after one page.
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
  const cheap = cheapConditions(f);
  if (cursor) {
    cheap.push(
      backwards
        ? Prisma.sql`(p."publishedAt", p."id") > (${cursor.publishedAt}, ${cursor.id})`
        : Prisma.sql`(p."publishedAt", p."id") < (${cursor.publishedAt}, ${cursor.id})`,
    );
  }
  const dir = backwards ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const index = indexedBy(dialect, f.accountId ? "Post_accountId_publishedAt_idx" : "Post_publishedAt_id_idx");
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
    probes.push(Prisma.sql`EXISTS (SELECT 1 FROM "Flag" f WHERE f."postId" = p."id" ${fc.length ? Prisma.sql`AND ${Prisma.join(fc, " AND ")}` : Prisma.empty})`);
  }
  const cc = classificationCondition(f);
  if (cc) probes.push(cc);
  const plan = f.q ? await planSearch(db, f.q) : null;
  if (plan?.empty) return { page: [], more: false, backwards };
  const words = f.q ? queryWords(f.q) : [];
  for (const w of words) probes.push(wordProbe(dialect, w));
  // SQLite keeps the window's order through the probes. PostgreSQL may not (it can turn an EXISTS
  // into a join that reorders rows), and the LIMIT must keep the newest matches, so it is told.
  const windowed = await db.$queryRaw<IdRow[]>`
    SELECT p."id", p."publishedAt" FROM (
      SELECT p."id", p."publishedAt" ${words.length ? Prisma.sql`, p."title", p."text", p."ocrText"` : Prisma.empty}
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
  // PostgreSQL words too short for the trigram index (most Chinese words have two characters)
  // still make a set: one scan of the posts for them beats walking the whole date index and
  // fetching every row in date order. SQLite's equivalents (one character, or two too common to
  // expand) are rare and walk.
  const shortWordsSet = dialect === "postgresql" && plan !== null && plan.like.length > 0;
  if (!(flagSet || plan?.indexed || shortWordsSet)) {
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

/** One row of a list table. */
export interface PostRow {
  id: number;
  kind: "post" | "reply";
  title: string;
  /** The start of the text (the tables show two lines). */
  excerpt: string;
  url: string;
  author: string;
  publishedAt: Date;
  version: number;
  replyCount: number | null;
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
      { id: Int; kind: string; title: string; excerpt: string; url: string; author: string; publishedAt: Date; version: Int; replyCount: Int | null; accountId: Int; parentId: Int | null }[]
    >`SELECT "id", "kind", "title", substr("text", 1, 240) AS "excerpt", "url", "author", "publishedAt", "version", "replyCount", "accountId", "parentId"
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
    list.push({ id: Number(f.id), topicId: Number(f.topicId), topicName: topicName.get(Number(f.topicId)) ?? "?", score: f.score, status: f.status, reasons: f.reasons });
    flagsBy.set(Number(f.postId), list);
  }
  const classesBy = new Map<number, PostRow["classifications"]>();
  for (const c of classes) {
    const list = classesBy.get(Number(c.postId)) ?? [];
    list.push({ topicId: Number(c.topicId), topicName: topicName.get(Number(c.topicId)) ?? "?", score: c.score, cosine: c.cosine, relevant: toBoolean(c.relevant) });
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
      publishedAt: new Date(p.publishedAt),
      version: Number(p.version),
      replyCount: num(p.replyCount),
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
  const rows = await loadPostRows(db, page.map((p) => p.id));
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
    },
  });
  if (!post) return null;
  const replies = await db.post.findMany({
    where: { parentId: id },
    orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
    take: 200,
    select: { id: true, author: true, publishedAt: true, text: true, html: true, url: true, flags: { select: { id: true, status: true, topic: { select: { name: true } } } } },
  });
  return { ...post, replies };
}
export type PostDetail = NonNullable<Awaited<ReturnType<typeof getPostDetail>>>;
