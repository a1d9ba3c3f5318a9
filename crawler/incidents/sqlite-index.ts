/**
 * The clusterer's index and the incident figures' reads and write on SQLite, as prepared
 * statements on Prisma's own connection (lib/db.ts rawSqlite), inside the synchronous transaction
 * that clusters one post (./store.ts). It answers exactly as the Prisma index (./index-store.ts)
 * does for the same rows, and writes rows as Prisma's SQLite adapter writes them
 * (lib/sqlite-statements.ts), so either may read what the other wrote.
 *
 * Why: through Prisma every query is compiled and sent to its engine (about 0.5 ms each on SQLite),
 * and clustering one post takes some twenty of them; a prepared statement costs microseconds.
 */
import type BetterSqlite3 from "better-sqlite3";
import { dateOf, prepared, sqlValue, updateById } from "../../lib/sqlite-statements";
import type { BandHit, ClusterPost, IndexedMembership, MemberEntry, SyncClusterIndex, TermHit } from "./clusterer";
import { COUNTED_FLAG_STATES, KEYWORD_TERMS, type FigureMember, type FigureOp, type IncidentHead } from "./figures";
import { CLOSED_STATUSES, DOCS_ROW } from "./index-store";
import { parseSimhashHex, simhashHex } from "./simhash";
import { BIGRAM } from "./text-features";

type Database = BetterSqlite3.Database;

/** Statuses as an SQL list (constants of ours, never user input). */
const CLOSED_SQL = CLOSED_STATUSES.map((s) => `'${s}'`).join(", ");
const COUNTED_SQL = COUNTED_FLAG_STATES.map((s) => `'${s}'`).join(", ");

/** The clusterer's index on SQLite's own connection, inside the caller's transaction. */
export class SqliteIndex implements SyncClusterIndex {
  constructor(private readonly db: Database) {}

  private get<T>(sql: string, ...values: unknown[]): T | undefined {
    return prepared(this.db, sql).get(...values) as T | undefined;
  }

  private all<T>(sql: string, ...values: unknown[]): T[] {
    return prepared(this.db, sql).all(...values) as T[];
  }

  private run(sql: string, ...values: unknown[]): BetterSqlite3.RunResult {
    return prepared(this.db, sql).run(...values);
  }

  docFreq(terms: readonly string[]): { docs: number; df: number[] } {
    // One statement for every term: the list goes in as JSON (json_each), not as a statement per length.
    const rows = this.all<{ term: string; df: number }>(
      `SELECT d."term" AS "term", d."df" AS "df" FROM json_each(?) j JOIN "IncidentDocFreq" d ON d."term" = j."value"`,
      JSON.stringify([...terms, DOCS_ROW]),
    );
    const map = new Map(rows.map((r) => [r.term, r.df]));
    return { docs: map.get(DOCS_ROW) ?? 0, df: terms.map((t) => map.get(t) ?? 0) };
  }

  addDoc(terms: readonly string[]): void {
    // "WHERE true": SQLite's upsert after a SELECT needs it to tell ON CONFLICT from a join's ON.
    this.run(
      `INSERT INTO "IncidentDocFreq" ("term", "df") SELECT j."value", 1 FROM json_each(?) j WHERE true
        ON CONFLICT ("term") DO UPDATE SET "df" = "IncidentDocFreq"."df" + 1`,
      JSON.stringify([DOCS_ROW, ...new Set(terms)]),
    );
  }

  membership(key: number): IndexedMembership | null {
    const row = this.get<{ incidentId: number }>(`SELECT "incidentId" FROM "IncidentPost" WHERE "postId" = ?`, key);
    if (!row) return null;
    // Follow merges as index-store.ts resolveIncident does (at most a few hops; a cycle stops).
    let id = row.incidentId;
    for (let hop = 0; hop < 8; hop++) {
      const inc = this.get<{ status: string; mergedIntoId: number | null }>(`SELECT "status", "mergedIntoId" FROM "Incident" WHERE "id" = ?`, id);
      if (!inc) break;
      if (inc.status !== "merged" || inc.mergedIntoId === null)
        return { incidentId: id, accepting: !(CLOSED_STATUSES as readonly string[]).includes(inc.status) };
      id = inc.mergedIntoId;
    }
    return { incidentId: row.incidentId, accepting: false };
  }

  seen(key: number): boolean {
    return this.get(`SELECT 1 FROM "IncidentPost" WHERE "postId" = ?`, key) !== undefined;
  }

  bandHits(bands: readonly string[], from: number, to: number): BandHit[] {
    if (bands.length === 0) return [];
    const rows = this.all<{ postId: number; hash: string; incidentId: number }>(
      `SELECT DISTINCT b."postId" AS "postId", b."hash" AS "hash", m."incidentId" AS "incidentId"
        FROM json_each(?) j JOIN "IncidentBand" b ON b."band" = j."value"
        JOIN "IncidentPost" m ON m."postId" = b."postId" JOIN "Incident" i ON i."id" = m."incidentId"
        WHERE b."at" >= ? AND b."at" <= ? AND i."status" NOT IN (${CLOSED_SQL})`,
      JSON.stringify(bands),
      sqlValue(new Date(from)),
      sqlValue(new Date(to)),
    );
    return rows.map((r) => ({ key: r.postId, incidentId: r.incidentId, hash: parseSimhashHex(r.hash) }));
  }

  termHits(terms: readonly string[], from: number, to: number, perTerm: number): TermHit[] {
    if (terms.length === 0) return [];
    // Per term (in the query's order), the newest postings of incidents in the window that take
    // posts: the (term, id) index walked backwards, stopped after perTerm rows. One statement.
    return this.all<TermHit>(
      `SELECT t."incidentId" AS "incidentId", t."term" AS "term", t."weight" AS "weight"
        FROM json_each(?) j JOIN "IncidentTerm" t ON t."id" IN (
          SELECT p."id" FROM "IncidentTerm" p JOIN "Incident" i ON i."id" = p."incidentId"
          WHERE p."term" = j."value" AND i."status" NOT IN (${CLOSED_SQL}) AND i."lastSeenAt" >= ? AND i."firstSeenAt" <= ?
          ORDER BY p."id" DESC LIMIT ?)
        ORDER BY j."key", t."id" DESC`,
      JSON.stringify(terms),
      sqlValue(new Date(from)),
      sqlValue(new Date(to)),
      perTerm,
    );
  }

  private vectors(incidentIds: readonly number[]): { incidentId: number; norm2: number; mass: number }[] {
    return this.all(
      `SELECT v."incidentId" AS "incidentId", v."norm2" AS "norm2", v."mass" AS "mass" FROM json_each(?) j JOIN "IncidentVector" v ON v."incidentId" = j."value"`,
      JSON.stringify(incidentIds),
    );
  }

  norms(incidentIds: readonly number[]): Map<number, number> {
    return new Map(this.vectors(incidentIds).map((r) => [r.incidentId, r.norm2]));
  }

  masses(incidentIds: readonly number[]): Map<number, number> {
    return new Map(this.vectors(incidentIds).map((r) => [r.incidentId, r.mass]));
  }

  lastSeen(incidentIds: readonly number[]): Map<number, number> {
    const rows = this.all<{ id: number; lastSeenAt: unknown }>(
      `SELECT i."id" AS "id", i."lastSeenAt" AS "lastSeenAt" FROM json_each(?) j JOIN "Incident" i ON i."id" = j."value"`,
      JSON.stringify(incidentIds),
    );
    return new Map(rows.map((r) => [r.id, dateOf(r.lastSeenAt).getTime()]));
  }

  create(entry: MemberEntry): number {
    const at = sqlValue(new Date(entry.post.time));
    const now = sqlValue(new Date());
    const id = Number(
      this.run(`INSERT INTO "Incident" ("status", "firstSeenAt", "lastSeenAt", "createdAt", "updatedAt") VALUES ('candidate', ?, ?, ?, ?)`, at, at, now, now)
        .lastInsertRowid,
    );
    this.run(`INSERT INTO "IncidentVector" ("incidentId") VALUES (?)`, id);
    this.join(id, entry);
    return id;
  }

  join(incidentId: number, entry: MemberEntry): void {
    this.run(
      `INSERT INTO "IncidentPost" ("postId", "incidentId", "reason", "score", "matchedPostId", "addedAt") VALUES (?, ?, ?, ?, ?, ?)`,
      entry.post.key,
      incidentId,
      entry.reason,
      entry.score,
      entry.matchedKey,
      sqlValue(new Date()),
    );
    this.indexMember(incidentId, entry);
  }

  indexMember(incidentId: number, entry: MemberEntry): void {
    this.run(`INSERT INTO "IncidentVector" ("incidentId") VALUES (?) ON CONFLICT ("incidentId") DO NOTHING`, incidentId);
    const vec = this.get<{ norm2: number; mass: number }>(`SELECT "norm2", "mass" FROM "IncidentVector" WHERE "incidentId" = ?`, incidentId)!;
    let norm2 = vec.norm2;
    if (entry.vector.size > 0) {
      const old = new Map(
        this.all<{ term: string; weight: number }>(
          `SELECT t."term" AS "term", t."weight" AS "weight" FROM json_each(?) j CROSS JOIN "IncidentTerm" t
            ON t."incidentId" = ? AND t."term" = j."value"`,
          JSON.stringify([...entry.vector.keys()]),
          incidentId,
        ).map((r) => [r.term, r.weight]),
      );
      const rows: [string, number][] = [];
      for (const [t, w] of entry.vector) {
        const o = old.get(t) ?? 0;
        const nw = o + w;
        norm2 += nw * nw - o * o;
        rows.push([t, nw]);
      }
      // One statement; new postings get ids in the vector's order, as the memory index appends
      // them. The weights go through JSON text, which SQLite (3.53) reads back to the same double.
      this.run(
        `INSERT INTO "IncidentTerm" ("incidentId", "term", "weight") SELECT ?, j."value" ->> 0, j."value" ->> 1 FROM json_each(?) j WHERE true ORDER BY j."key"
          ON CONFLICT ("incidentId", "term") DO UPDATE SET "weight" = excluded."weight"`,
        incidentId,
        JSON.stringify(rows),
      );
    }
    this.run(`UPDATE "IncidentVector" SET "norm2" = ?, "mass" = ? WHERE "incidentId" = ?`, norm2, vec.mass + entry.weight, incidentId);
    if (entry.hash) {
      const hash = simhashHex(entry.hash);
      const at = sqlValue(new Date(entry.post.time));
      this.run(`DELETE FROM "IncidentBand" WHERE "postId" = ?`, entry.post.key);
      for (const band of entry.bands) {
        this.run(
          `INSERT INTO "IncidentBand" ("band", "postId", "incidentId", "hash", "at") VALUES (?, ?, ?, ?, ?)`,
          band,
          entry.post.key,
          incidentId,
          hash,
          at,
        );
      }
    }
  }

  leaveAlone(_post: ClusterPost): void {
    // Nothing to keep, as on Prisma: a post left alone is simply dequeued.
  }
}

/** ./links.ts quotedPost on SQLite: the earliest other stored post quoted by one of `urls`, or null. */
export function quotedPostSync(db: Database, postId: number, urls: readonly string[]): number | null {
  if (urls.length === 0) return null;
  const hit = prepared(
    db,
    `SELECT p."id" AS "id" FROM json_each(?) j JOIN "Post" p ON p."url" = j."value" WHERE p."id" <> ? ORDER BY p."publishedAt" ASC, p."id" ASC LIMIT 1`,
  ).get(JSON.stringify(urls), postId) as { id: number } | undefined;
  return hit?.id ?? null;
}

/** One {@link FigureOp} on SQLite's own connection (the Prisma twin: ./figures.ts runFigureOpPrisma). */
export function runFigureOpSqlite(db: Database, op: FigureOp): unknown {
  switch (op.op) {
    case "incidentHead": {
      const r = prepared(db, `SELECT "status", "titleLocked", "title", "topicId" FROM "Incident" WHERE "id" = ?`).get(op.incidentId) as
        (Omit<IncidentHead, "titleLocked"> & { titleLocked: number }) | undefined;
      return r ? { ...r, titleLocked: r.titleLocked !== 0 } : null;
    }
    case "figureMembers":
      return figureMembersSqlite(db, op.incidentId);
    case "keywordTerms":
      return (
        prepared(
          db,
          `SELECT "term" FROM "IncidentTerm" WHERE "incidentId" = ? AND substr("term", 1, ${BIGRAM.length}) <> ? ORDER BY "weight" DESC, "id" ASC LIMIT ${KEYWORD_TERMS}`,
        ).all(op.incidentId, BIGRAM) as { term: string }[]
      ).map((r) => r.term);
    case "postText":
      return prepared(db, `SELECT "title", "text" FROM "Post" WHERE "id" = ?`).get(op.postId) ?? null;
    case "updateIncident":
      updateById(db, "Incident", op.incidentId, op.data);
      return undefined;
  }
}

/** ./figures.ts readFigureMembers on SQLite: the members, then their sources and counted flags. */
function figureMembersSqlite(db: Database, incidentId: number): FigureMember[] {
  const rows = prepared(
    db,
    `SELECT p."id" AS "id", p."kind" AS "kind", p."parentId" AS "parentId", pp."parentId" AS "grandParentId", p."accountId" AS "accountId",
      a."platform" AS "platform", p."author" AS "author", p."authorId" AS "authorId", p."publishedAt" AS "publishedAt",
      p."replyCount" AS "replyCount", p."sentiment" AS "sentiment"
      FROM "IncidentPost" m JOIN "Post" p ON p."id" = m."postId" JOIN "Account" a ON a."id" = p."accountId"
      LEFT JOIN "Post" pp ON pp."id" = p."parentId"
      WHERE m."incidentId" = ?`,
  ).all(incidentId) as (Omit<FigureMember, "publishedAt" | "sourceAccountIds" | "flagTopics"> & { publishedAt: unknown })[];
  const sources = new Map<number, number[]>();
  for (const s of prepared(
    db,
    `SELECT s."postId" AS "postId", s."accountId" AS "accountId" FROM "IncidentPost" m JOIN "PostSource" s ON s."postId" = m."postId" WHERE m."incidentId" = ?`,
  ).all(incidentId) as { postId: number; accountId: number }[]) {
    const list = sources.get(s.postId);
    if (list) list.push(s.accountId);
    else sources.set(s.postId, [s.accountId]);
  }
  const flags = new Map<number, number[]>();
  for (const f of prepared(
    db,
    `SELECT f."postId" AS "postId", f."topicId" AS "topicId" FROM "IncidentPost" m JOIN "Flag" f ON f."postId" = m."postId"
      WHERE m."incidentId" = ? AND f."status" IN (${COUNTED_SQL})`,
  ).all(incidentId) as { postId: number; topicId: number }[]) {
    const list = flags.get(f.postId);
    if (list) list.push(f.topicId);
    else flags.set(f.postId, [f.topicId]);
  }
  return rows.map((r) => ({
    ...r,
    publishedAt: dateOf(r.publishedAt),
    sourceAccountIds: sources.get(r.id) ?? [],
    flagTopics: flags.get(r.id) ?? [],
  }));
}
