/**
 * One data-access seam (lib/store, issue 31): the backend a client writes through is chosen in
 * lib/store alone, and only the stores' implementations speak SQLite's prepared statements or ask
 * which database they are on. This reads the sources and fails on a module outside them that
 * reaches for SQLite's own connection, prepared statements or the dialect — the way the inline
 * twins (the same rule once in SQL, once through Prisma) crept in before.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["app", "components", "crawler", "lib", "server"];

/** What a module may not do outside the places listed for it, and why those may. */
const RULES: { name: string; pattern: RegExp; allowed: Record<string, string> }[] = [
  {
    name: "calls rawSqlite (SQLite's own connection)",
    pattern: /\brawSqlite\s*\(/,
    allowed: { "lib/db.ts": "defines it", "lib/store/sqlite.ts": "the SQLite backend" },
  },
  {
    name: "chooses a backend (hasRawSqlite)",
    pattern: /\bhasRawSqlite\s*\(/,
    allowed: { "lib/db.ts": "defines it", "lib/store/index.ts": "storesOf: the one choice" },
  },
  {
    name: "branches on the chosen backend (stores.backend)",
    pattern: /\.backend\s*[!=]==|[!=]==\s*[\w.]*\.backend\b/,
    allowed: {},
  },
  {
    name: "writes prepared statements or opens better-sqlite3",
    pattern: /from\s+["'][^"']*(sqlite-statements|better-sqlite3)["']|require\(["']better-sqlite3["']\)/,
    allowed: {
      "lib/db.ts": "the SQLite connection and its group commit",
      "lib/sqlite-statements.ts": "the prepared-statement helpers",
      "lib/store/types.ts": "the SQLite half of a store's type",
      "crawler/store/sqlite.ts": "SQLite implementation of the crawl's small aggregates",
      "crawler/store/page-sqlite.ts": "SQLite implementation of the page store",
      "crawler/classify/write-batch.ts": "the verdict store's SQLite implementation (VERDICT_STORE)",
      "crawler/store/sentiment.ts": "the Post table's owner (docs/tables.md): its SQLite write of a post's sentiment, run by the verdict store's SQLite driver",
      "crawler/classify/unclassified.ts": "the UnclassifiedPost queue's owner (docs/tables.md): its SQLite write, run by the page store's SQLite driver",
      "crawler/incidents/queue.ts": "the IncidentQueue's owner (docs/tables.md): its SQLite write, run by the page store's SQLite driver",
      "crawler/incidents/index-store.ts": "the clustering index: SQLite's date form in its two hand-written statements",
      "crawler/incidents/sqlite-index.ts": "the clustering index and incident figures' SQLite implementation (INCIDENT_STORE)",
      "lib/search-index.ts": "the search index store's SQLite implementation (SEARCH_INDEX_STORE)",
      "lib/notify/index.ts": "the channel probe's SQLite implementation (CHANNEL_PROBE)",
      "lib/db-copy.ts": "a tool on database files, not a client: `db copy` reads a SQLite file",
      "lib/migrate.ts": "a tool on database files, not a client: migrations",
      "lib/post-sources.ts": "a tool on database files, not a client: the site-key backfill after migrating",
    },
  },
  {
    name: "asks which database it is on (dialectOf)",
    pattern: /\bdialectOf\s*\(/,
    allowed: {
      "lib/db.ts": "defines it",
      "crawler/classify/write-batch.ts": "the verdict store's Prisma implementation locks rows on PostgreSQL",
      "crawler/incidents/index-store.ts": "the clustering index: each dialect's date form in its two hand-written statements",
      "lib/search-index.ts": "the search index store's Prisma implementation: PostgreSQL indexes as it writes",
      // Not data access of the crawl: which process runs crawls (PostgreSQL has the scale-out worker).
      "crawler/commands/crawl.ts": "deployment: the PostgreSQL scheduler and worker",
      "crawler/commands/worker.ts": "deployment: the PostgreSQL worker",
      "server/workers.ts": "deployment: the workers page (PostgreSQL workers only)",
      // The dashboard's hand-written SQL, where the two dialects' syntax differs (not a crawl aggregate).
      "server/search.ts": "dashboard SQL: full-text search (FTS5 or tsvector)",
      "server/posts.ts": "dashboard SQL: date expressions",
      "server/charts.ts": "dashboard SQL: the Shanghai day of a row, for the account and topic charts",
      "server/users.ts": "dashboard SQL: case-insensitive match",
    },
  },
];

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path.relative(root, p).split(path.sep).join("/"));
    }
  };
  for (const d of SCANNED) walk(path.join(root, d));
  return out.sort();
}

/** Code without its comments (a comment may name rawSqlite to say why a module does not call it). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** The rules `text`, as the file `file`, breaks. */
function violations(file: string, text: string): string[] {
  const body = code(text);
  return RULES.filter((r) => !(file in r.allowed) && r.pattern.test(body)).map((r) => `${file} ${r.name}`);
}

describe("one data-access seam (lib/store)", () => {
  const files = sources();

  it("no module outside the stores' implementations reaches for SQLite's connection, its statements or the dialect", () => {
    expect(files.flatMap((f) => violations(f, fs.readFileSync(path.join(root, f), "utf8")))).toEqual([]);
  });

  it("every module the rules allow exists and still does what it is allowed (no stale exception)", () => {
    for (const rule of RULES)
      for (const file of Object.keys(rule.allowed)) {
        expect(files, `${rule.name}: ${file}`).toContain(file);
        expect(rule.pattern.test(code(fs.readFileSync(path.join(root, file), "utf8"))), `${file} no longer ${rule.name}`).toBe(true);
      }
  });

  it("catches an inline twin: a module choosing its own SQLite path", () => {
    const twin = `import { rawSqlite, dialectOf, type Db } from "../lib/db";
import { prepared } from "../lib/sqlite-statements";
export async function count(db: Db) {
  const raw = await rawSqlite(db);
  if (raw) return raw.transaction((sql) => prepared(sql, "SELECT 1").get());
  if (dialectOf(db) === "postgresql") return null;
  return db.account.count();
}
`;
    expect(violations("crawler/store/twin.ts", twin)).toEqual([
      "crawler/store/twin.ts calls rawSqlite (SQLite's own connection)",
      "crawler/store/twin.ts writes prepared statements or opens better-sqlite3",
      "crawler/store/twin.ts asks which database it is on (dialectOf)",
    ]);
    expect(violations("crawler/x.ts", `if (storesOf(db).backend === "sqlite") go();`)).toEqual([
      "crawler/x.ts branches on the chosen backend (stores.backend)",
    ]);
    // Saying so in a comment is fine.
    expect(violations("crawler/x.ts", `// on SQLite as prepared statements (lib/db.ts rawSqlite(db))\nexport const x = 1;`)).toEqual([]);
  });
});
