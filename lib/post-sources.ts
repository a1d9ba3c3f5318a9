/**
 * The site keys of posts stored before site keys existed (migration 20261201040000_post_sources).
 * SQL cannot compute them portably (they come from parsing the account's entry URL), so
 * `migrateDatabase` runs this right after the migrations, on every `db migrate`, `npm start` and
 * test template. It is idempotent: only rows with an empty key are looked at.
 *
 * Posts already stored twice before (two accounts of one site that both stored the same item)
 * are not merged — that would have to merge their flags and reviews: the oldest keeps the key,
 * the others keep an empty key and stay separate posts of their accounts, as before.
 */
import { createRequire } from "node:module";
import pg from "pg";
import { siteKeyOf } from "./site-key";
import { databaseKind, sqlitePath } from "./config";

/** What a backfill did: rows given a key, and rows left apart (duplicates from before). */
export interface BackfillResult {
  keyed: number;
  leftApart: number;
}

// Accounts are keyed in id order: of two posts stored twice before, the older account's keeps the key.
const UPDATE_SQL = `UPDATE "Post" SET "siteKey" = $1
  WHERE "accountId" = $2 AND "siteKey" = ''
    AND NOT EXISTS (SELECT 1 FROM "Post" q WHERE q."siteKey" = $1 AND q."platformId" = "Post"."platformId")`;
const LEFT_SQL = `SELECT count(*) AS n FROM "Post" WHERE "accountId" = $1 AND "siteKey" = ''`;

/**
 * Give every post without a site key the key of its account's site, unless another post of that
 * site already holds its platform id.
 * @param url the database (file: SQLite or postgresql://)
 */
export async function backfillSiteKeys(url: string): Promise<BackfillResult> {
  if (databaseKind(url) === "postgresql") return backfillPostgres(url);
  return backfillSqlite(sqlitePath(url));
}

function backfillSqlite(file: string): BackfillResult {
  const require = createRequire(import.meta.url);
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const conn = new Database(file);
  try {
    conn.pragma("busy_timeout = 10000");
    const accounts = conn
      .prepare(
        `SELECT "id", "platform", "entryUrl" FROM "Account" WHERE EXISTS (SELECT 1 FROM "Post" p WHERE p."accountId" = "Account"."id" AND p."siteKey" = '') ORDER BY "id"`,
      )
      .all() as { id: number; platform: string; entryUrl: string }[];
    const out: BackfillResult = { keyed: 0, leftApart: 0 };
    if (accounts.length === 0) return out;
    // better-sqlite3 binds named parameters: the same text as PostgreSQL's $1, $2 otherwise.
    const named = (sql: string) => sql.replace(/\$1/g, "@key").replace(/\$2/g, "@id");
    const update = conn.prepare(named(UPDATE_SQL));
    const left = conn.prepare(LEFT_SQL.replace(/\$1/g, "@id"));
    conn.transaction(() => {
      for (const a of accounts) {
        const key = siteKeyOf(a.platform, a.entryUrl);
        if (!key) continue;
        out.keyed += update.run({ key, id: a.id }).changes;
        out.leftApart += Number((left.get({ id: a.id }) as { n: number | bigint }).n);
      }
    })();
    return out;
  } finally {
    conn.close();
  }
}

async function backfillPostgres(url: string): Promise<BackfillResult> {
  const client = new pg.Client({ connectionString: url, application_name: "campuswatch migrate" });
  await client.connect();
  try {
    const { rows: accounts } = await client.query<{ id: number; platform: string; entryUrl: string }>(
      `SELECT "id", "platform", "entryUrl" FROM "Account" WHERE EXISTS (SELECT 1 FROM "Post" p WHERE p."accountId" = "Account"."id" AND p."siteKey" = '') ORDER BY "id"`,
    );
    const out: BackfillResult = { keyed: 0, leftApart: 0 };
    if (accounts.length === 0) return out;
    await client.query("BEGIN");
    try {
      for (const a of accounts) {
        const key = siteKeyOf(a.platform, a.entryUrl);
        if (!key) continue;
        out.keyed += (await client.query(UPDATE_SQL, [key, a.id])).rowCount ?? 0;
        out.leftApart += Number((await client.query<{ n: string }>(LEFT_SQL, [a.id])).rows[0]!.n);
      }
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK");
      throw e;
    }
    return out;
  } finally {
    await client.end();
  }
}
