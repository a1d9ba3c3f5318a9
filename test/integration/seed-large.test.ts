/**
 * `seed:large` writes rows as the crawler and the classifier would: each post's text is the
 * crawler's cleaning of its HTML and its hash the crawler's content hash (crawler/text.ts, with
 * the cleaning version; replies hashed with their empty title like crawled ones), so the store
 * finds a seeded post unchanged when the same content is stored over it; and each
 * classification's relevance is the one relevance rule at the seed topics' thresholds.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS, relevanceDecision } from "../../crawler/classify";
import { changeOf, prepareItem } from "../../crawler/store";
import { CLEANING_VERSION, contentHash, hashVersion, htmlToText } from "../../crawler/text";

const root = path.resolve(import.meta.dirname, "../..");

describe("seed:large", () => {
  let dir: string;
  let db: Database.Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-seed-large-"));
    const file = path.join(dir, "large.db");
    const out = await new Promise<{ code: number; err: string }>((resolve) =>
      execFile(
        process.execPath,
        [path.join(root, "bin/tsx.mjs"), "scripts/seed-large/index.ts", "--db", `file:${file}`, "--posts", "1500", "--days", "20"],
        { cwd: root, env: { ...process.env, BCRYPT_COST: "4" }, maxBuffer: 16 << 20 },
        (e, _out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, err }),
      ),
    );
    expect(out.err).toBe("");
    expect(out.code).toBe(0);
    db = new Database(file, { readonly: true });
  }, 180_000);
  afterAll(() => {
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores each post's and reply's text and hash as a crawl would", () => {
    const posts = db.prepare(`SELECT "id", "kind", "platformId", "title", "text", "html", "sha1", "publishedAt" FROM "Post"`).all() as {
      id: number;
      kind: "post" | "reply";
      platformId: string;
      title: string;
      text: string;
      html: string;
      sha1: string;
      publishedAt: string;
    }[];
    expect(posts.filter((p) => p.kind === "reply").length).toBeGreaterThan(100);
    const wrong = posts.filter((p) => p.text !== htmlToText(p.html) || p.sha1 !== contentHash(p.title, p.text) || hashVersion(p.sha1) !== CLEANING_VERSION);
    expect(wrong.map((p) => p.id)).toEqual([]);
    // The store's own rule finds the same content stored over a seeded post unchanged.
    const changed = posts.filter(
      (p) =>
        changeOf(
          { sha1: p.sha1, incomplete: false, deletedAt: null },
          prepareItem({
            platformId: p.platformId,
            kind: p.kind,
            url: "http://127.0.0.1:1/",
            title: p.title,
            author: "x",
            publishedAt: new Date(p.publishedAt),
            html: p.html,
          }),
        ) !== "unchanged",
    );
    expect(changed.map((p) => p.id)).toEqual([]);
  });

  it("hashes earlier versions the same way", () => {
    const versions = db.prepare(`SELECT "id", "title", "text", "html", "sha1" FROM "PostVersion"`).all() as {
      id: number;
      title: string;
      text: string;
      html: string;
      sha1: string;
    }[];
    expect(versions.filter((v) => v.text !== htmlToText(v.html) || v.sha1 !== contentHash(v.title, v.text)).map((v) => v.id)).toEqual([]);
  });

  it("decides relevance by the one rule at the seed topics' thresholds", () => {
    const topics = db.prepare(`SELECT "nbThreshold", "cosineThreshold" FROM "Topic"`).all() as { nbThreshold: number; cosineThreshold: number }[];
    for (const t of topics) expect(t).toEqual(DEFAULT_THRESHOLDS);
    const rows = db.prepare(`SELECT "score", "cosine", "relevant" FROM "Classification"`).all() as { score: number; cosine: number; relevant: number }[];
    expect(rows.length).toBeGreaterThan(1000);
    const wrong = rows.filter(
      (r) => relevanceDecision({ score: r.score, cosine: r.cosine, hasVector: true }, DEFAULT_THRESHOLDS).relevant !== (r.relevant === 1),
    );
    expect(wrong).toEqual([]);
  });
});
