/**
 * The database {@link ClusterIndex}: the clusterer's inverted indexes in IncidentDocFreq,
 * IncidentTerm, IncidentBand and IncidentVector, and membership in IncidentPost, read and written
 * inside the transaction that clusters one post. It answers exactly as ./memory-index.ts does for
 * the same history (test/integration/incidents/index-equivalence.test.ts), so the crawl and the
 * benchmark make the same decisions. Works on SQLite and PostgreSQL through Prisma; the two
 * hand-written statements use each dialect's date form.
 */
import { Prisma } from "@/generated/prisma/client";
import { dialectOf, type Db, type Dialect } from "../../lib/db";
import { sqlValue } from "../../lib/sqlite-statements";
import type { BandHit, ClusterIndex, ClusterPost, IndexedMembership, MemberEntry, TermHit } from "./clusterer";
import { parseSimhashHex, simhashHex } from "./simhash";

/** A transaction client (or the client itself). */
export type Tx = Prisma.TransactionClient | Db;

/** Incident statuses that take no new posts: a dismissed one keeps its posts apart, a merged one forwards. */
export const CLOSED_STATUSES = ["dismissed", "merged"] as const;

/** The IncidentDocFreq row holding the number of documents. */
export const DOCS_ROW = "";

/** The dialect a client speaks, for {@link DbIndex} (its two hand-written statements differ in date form). */
export function indexDialect(db: Db): Dialect {
  return dialectOf(db);
}

/** Follow merges to the incident that takes posts now (at most a few hops; a cycle stops). */
export async function resolveIncident(tx: Tx, incidentId: number): Promise<{ id: number; status: string } | null> {
  let id = incidentId;
  for (let hop = 0; hop < 8; hop++) {
    const inc = await tx.incident.findUnique({ where: { id }, select: { id: true, status: true, mergedIntoId: true } });
    if (!inc) return null;
    if (inc.status !== "merged" || inc.mergedIntoId === null) return { id: inc.id, status: inc.status };
    id = inc.mergedIntoId;
  }
  return null;
}

/** The clusterer's index on the database, inside one transaction. */
export class DbIndex implements ClusterIndex {
  /** Incidents whose membership changed (their figures are recomputed after the post). */
  readonly touched = new Set<number>();

  constructor(
    private readonly tx: Tx,
    private readonly dialect: Dialect,
  ) {}

  private date(ms: number): unknown {
    const d = new Date(ms);
    return this.dialect === "sqlite" ? sqlValue(d) : d;
  }

  async docFreq(terms: readonly string[]): Promise<{ docs: number; df: number[] }> {
    const rows = await this.tx.incidentDocFreq.findMany({ where: { term: { in: [...terms, DOCS_ROW] } } });
    const map = new Map(rows.map((r) => [r.term, r.df]));
    return { docs: map.get(DOCS_ROW) ?? 0, df: terms.map((t) => map.get(t) ?? 0) };
  }

  async addDoc(terms: readonly string[]): Promise<void> {
    const all = [DOCS_ROW, ...new Set(terms)];
    // One statement for all terms: an upsert per term would be a round trip each.
    for (let i = 0; i < all.length; i += 500) {
      const values = Prisma.join(all.slice(i, i + 500).map((t) => Prisma.sql`(${t}, 1)`));
      await this.tx
        .$executeRaw`INSERT INTO "IncidentDocFreq" ("term", "df") VALUES ${values} ON CONFLICT ("term") DO UPDATE SET "df" = "IncidentDocFreq"."df" + 1`;
    }
  }

  async membership(key: number): Promise<IndexedMembership | null> {
    const row = await this.tx.incidentPost.findUnique({ where: { postId: key }, select: { incidentId: true } });
    if (!row) return null;
    const inc = await resolveIncident(this.tx, row.incidentId);
    if (!inc) return { incidentId: row.incidentId, accepting: false };
    return { incidentId: inc.id, accepting: !(CLOSED_STATUSES as readonly string[]).includes(inc.status) };
  }

  async seen(key: number): Promise<boolean> {
    return (await this.tx.incidentPost.count({ where: { postId: key } })) > 0;
  }

  async bandHits(bands: readonly string[], from: number, to: number): Promise<BandHit[]> {
    if (bands.length === 0) return [];
    const rows = await this.tx.incidentBand.findMany({
      where: { band: { in: [...bands] }, at: { gte: new Date(from), lte: new Date(to) } },
      select: { postId: true, hash: true },
      distinct: ["postId"],
    });
    if (rows.length === 0) return [];
    // The member's incident now (a reviewer may have moved it), and only incidents that take posts.
    const members = await this.tx.incidentPost.findMany({
      where: { postId: { in: rows.map((r) => r.postId) }, incident: { status: { notIn: [...CLOSED_STATUSES] } } },
      select: { postId: true, incidentId: true },
    });
    const of = new Map(members.map((m) => [m.postId, m.incidentId]));
    const out: BandHit[] = [];
    for (const r of rows) {
      const incidentId = of.get(r.postId);
      if (incidentId !== undefined) out.push({ key: r.postId, incidentId, hash: parseSimhashHex(r.hash) });
    }
    return out;
  }

  async termHits(terms: readonly string[], from: number, to: number, perTerm: number): Promise<TermHit[]> {
    if (terms.length === 0) return [];
    // Per term, the newest postings of incidents in the window that take posts: the (term, id)
    // index is walked backwards and stops after perTerm rows. One statement, UNION ALL of the terms.
    const parts = terms.map(
      (term) => Prisma.sql`SELECT * FROM (SELECT t."incidentId" AS "incidentId", t."term" AS "term", t."weight" AS "weight" FROM "IncidentTerm" t
        JOIN "Incident" i ON i."id" = t."incidentId"
        WHERE t."term" = ${term} AND i."status" NOT IN ('dismissed', 'merged') AND i."lastSeenAt" >= ${this.date(from)} AND i."firstSeenAt" <= ${this.date(to)}
        ORDER BY t."id" DESC LIMIT ${perTerm}) AS p`,
    );
    const rows = await this.tx.$queryRaw<{ incidentId: number; term: string; weight: number }[]>`${Prisma.join(parts, " UNION ALL ")}`;
    return rows.map((r) => ({ incidentId: Number(r.incidentId), term: r.term, weight: Number(r.weight) }));
  }

  async norms(incidentIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.tx.incidentVector.findMany({ where: { incidentId: { in: [...incidentIds] } } });
    return new Map(rows.map((r) => [r.incidentId, r.norm2]));
  }

  async lastSeen(incidentIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.tx.incident.findMany({ where: { id: { in: [...incidentIds] } }, select: { id: true, lastSeenAt: true } });
    return new Map(rows.map((r) => [r.id, r.lastSeenAt.getTime()]));
  }

  async masses(incidentIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.tx.incidentVector.findMany({ where: { incidentId: { in: [...incidentIds] } } });
    return new Map(rows.map((r) => [r.incidentId, r.mass]));
  }

  async create(entry: MemberEntry): Promise<number> {
    const at = new Date(entry.post.time);
    const inc = await this.tx.incident.create({ data: { status: "candidate", firstSeenAt: at, lastSeenAt: at }, select: { id: true } });
    await this.tx.incidentVector.create({ data: { incidentId: inc.id } });
    await this.join(inc.id, entry);
    return inc.id;
  }

  async join(incidentId: number, entry: MemberEntry): Promise<void> {
    await this.tx.incidentPost.create({
      data: { postId: entry.post.key, incidentId, reason: entry.reason, score: entry.score, matchedPostId: entry.matchedKey },
      select: { postId: true },
    });
    await this.indexMember(incidentId, entry);
  }

  /**
   * Add a member's vector and bands to an incident's index without touching membership: what
   * {@link join} does after the IncidentPost row, and what a rebuild does for a pinned member.
   */
  async indexMember(incidentId: number, entry: MemberEntry): Promise<void> {
    this.touched.add(incidentId);
    const vec = await this.tx.incidentVector.upsert({ where: { incidentId }, create: { incidentId }, update: {}, select: { norm2: true, mass: true } });
    let norm2 = vec.norm2;
    const terms = [...entry.vector.keys()];
    if (terms.length > 0) {
      const old = new Map(
        (await this.tx.incidentTerm.findMany({ where: { incidentId, term: { in: terms } }, select: { term: true, weight: true } })).map((r) => [
          r.term,
          r.weight,
        ]),
      );
      const rows: Prisma.Sql[] = [];
      for (const [t, w] of entry.vector) {
        const o = old.get(t) ?? 0;
        const nw = o + w;
        norm2 += nw * nw - o * o;
        rows.push(Prisma.sql`(${incidentId}, ${t}, ${nw})`);
      }
      // One upsert for all terms (a round trip per term was most of a post's cost); new postings
      // get ids in the vector's order, as the memory index appends them.
      for (let i = 0; i < rows.length; i += 300) {
        await this.tx.$executeRaw`INSERT INTO "IncidentTerm" ("incidentId", "term", "weight") VALUES ${Prisma.join(rows.slice(i, i + 300))}
          ON CONFLICT ("incidentId", "term") DO UPDATE SET "weight" = excluded."weight"`;
      }
    }
    await this.tx.incidentVector.update({ where: { incidentId }, data: { norm2, mass: vec.mass + entry.weight }, select: { incidentId: true } });
    if (entry.hash) {
      const hash = simhashHex(entry.hash);
      const at = new Date(entry.post.time);
      await this.tx.incidentBand.deleteMany({ where: { postId: entry.post.key } });
      await this.tx.incidentBand.createMany({ data: entry.bands.map((band) => ({ band, postId: entry.post.key, incidentId, hash, at })) });
    }
  }

  async leaveAlone(_post: ClusterPost): Promise<void> {
    // Nothing to keep: a post left alone is simply dequeued (and looked at again if its text changes).
  }
}
