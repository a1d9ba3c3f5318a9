/**
 * One writer per table (docs/tables.md): the map in that file against the source. Every table of
 * the schema is in the map; every write found in app, components, server, crawler, lib, scripts
 * and bin is in its table's owner or in a file listed beside it with a reason; every file listed
 * beside a table still writes it (so the map stays true as writers move).
 *
 * Writes are found by text: Prisma's write methods on a model accessor (`db.topic.update(`,
 * `tx.topicSample.createMany(`, `this.opts.db.account.update(`) and raw SQL that inserts into,
 * updates or deletes from a table by its name. Comments are scanned too: a comment that shows a
 * write outside its owner should say it differently.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["app", "components", "server", "crawler", "lib", "scripts", "bin"];
const WRITE_METHODS = ["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"];

interface Entry {
  owner: string;
  also: { path: string; reason: string }[];
}

/** The map: docs/tables.md's table rows. */
function readMap(): Map<string, Entry> {
  const doc = fs.readFileSync(path.join(root, "docs/tables.md"), "utf8");
  const map = new Map<string, Entry>();
  for (const line of doc.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    // | Table | `owner` | also | why |
    if (cells.length < 6 || !/^[A-Z]\w*$/.test(cells[1]!) || !/^`[^`]+`$/.test(cells[2]!)) continue;
    const also = [...cells[3]!.matchAll(/`([^`]+)`\s*\(([a-z]+)/g)].map((m) => ({ path: m[1]!, reason: m[2]! }));
    map.set(cells[1]!, { owner: cells[2]!.slice(1, -1), also });
  }
  return map;
}

/** Whether `file` belongs to `module`: the file itself, or a folder's files and its entry file (`x.ts` beside `x/`). */
function inModule(file: string, module: string): boolean {
  return file === module || file.startsWith(`${module}/`) || new RegExp(`^${module.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.[cm]?[jt]sx?$`).test(file);
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(p);
      } else if (/\.(ts|tsx|mts|cts|mjs|js)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(path.relative(root, p));
    }
  };
  for (const d of SCANNED) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  return out;
}

const models = [...fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8").matchAll(/^model (\w+) \{/gm)].map((m) => m[1]!);
const accessors = new Map(models.map((m) => [m[0]!.toLowerCase() + m.slice(1), m]));
const prismaWrite = new RegExp(`\\.(${[...accessors.keys()].join("|")})\\s*\\.\\s*(?:${WRITE_METHODS.join("|")})\\s*\\(`, "g");
const sqlWrite = new RegExp(`\\b(?:INSERT\\s+(?:OR\\s+\\w+\\s+)?INTO|UPDATE|DELETE\\s+FROM)\\s+"?(${models.join("|")})"?(?!\\w)`, "g");

/** table → files writing it. */
function writers(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (table: string, file: string) => {
    if (!out.has(table)) out.set(table, new Set());
    out.get(table)!.add(file);
  };
  for (const file of sourceFiles()) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const m of text.matchAll(prismaWrite)) add(accessors.get(m[1]!)!, file);
    for (const m of text.matchAll(sqlWrite)) add(m[1]!, file);
  }
  return out;
}

describe("one writer per table (docs/tables.md)", () => {
  const map = readMap();
  const found = writers();

  test("the map lists every table of the schema, and nothing else", () => {
    expect([...map.keys()].sort()).toEqual([...models].sort());
  });

  test("the reasons are the documented ones", () => {
    for (const [table, e] of map) for (const a of e.also) expect(["seed", "migration", "driver", "pending"], `${table}: ${a.path}`).toContain(a.reason);
  });

  test.each(models)("%s is written only by its owner and the writers listed beside it", (table) => {
    const entry = map.get(table);
    expect(entry, `${table} is missing from docs/tables.md`).toBeDefined();
    const outside = [...(found.get(table) ?? [])].filter((f) => !inModule(f, entry!.owner) && !entry!.also.some((a) => inModule(f, a.path))).sort();
    expect(outside, `files writing ${table} outside its owner ${entry!.owner}: call the owner, or list them in docs/tables.md with a reason`).toEqual([]);
  });

  test.each(models)("%s: the owner and every writer listed beside it really write it", (table) => {
    const entry = map.get(table)!;
    const files = [...(found.get(table) ?? [])];
    expect(
      files.some((f) => inModule(f, entry.owner)),
      `${entry.owner} does not write ${table}`,
    ).toBe(true);
    const stale = entry.also.filter((a) => !files.some((f) => inModule(f, a.path))).map((a) => a.path);
    expect(stale, `listed beside ${table} in docs/tables.md but no longer writing it: remove them`).toEqual([]);
  });

  test("the patterns catch each kind of write and leave reads alone", () => {
    const tables = (text: string) => [...[...text.matchAll(prismaWrite)].map((m) => accessors.get(m[1]!)), ...[...text.matchAll(sqlWrite)].map((m) => m[1])];
    expect(tables("await tx.topicSample.createMany({ data })")).toEqual(["TopicSample"]);
    expect(tables("this.opts.db.account\n  .update({ where })")).toEqual(["Account"]);
    expect(tables('prepared(db, `INSERT OR IGNORE INTO "PostSource" ("postId") VALUES (?)`)')).toEqual(["PostSource"]);
    expect(tables('UPDATE "Post" SET "x" = 1; DELETE FROM "UnclassifiedPost"')).toEqual(["Post", "UnclassifiedPost"]);
    expect(tables('db.topic.findMany({}); SELECT * FROM "Topic"; db.post.count()')).toEqual([]);
  });

  test("the scan sees writes of both kinds", () => {
    // Guards the patterns themselves: known writes of each kind are found where they are.
    expect(found.get("PostVersion")).toContain("crawler/store/page-prisma.ts");
    expect(found.get("PostVersion")).toContain("crawler/store/page-sqlite.ts");
    expect(found.get("Job")?.size).toBeGreaterThan(0);
  });
});
