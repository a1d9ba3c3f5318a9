/**
 * The CLI starts fast because of what it does not load (README "CLI start-up"): built ahead of time
 * (scripts/build-cli.mjs), it imports commander and the command declarations, and a command's
 * modules only when it runs. Checked on the build's module graph (esbuild's metafile), not by timing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, cliBuildEntry } from "../../scripts/build-cli.mjs";
import { DEFAULT_RELEVANT_LABELS } from "../../server/topic-admin";
import { DEFAULT_RELEVANT_HELP } from "../../crawler/commands/topics";

/** Packages only some commands need; none may load before a command asks for them. */
const HEAVY = ["nodejieba", "playwright-core", "cheerio", "pg-boss", "undici", "next", "zod", "@prisma/adapter-pg", "pg"];

/**
 * The packages an output loads, following its static imports (not the lazy `import()`s): the ones
 * it imports from node_modules and the ones bundled into it (scripts/build-cli.mjs BUNDLED).
 */
function staticPackages(meta: Metafile, output: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const input of Object.keys(meta.outputs[out]!.inputs)) {
      const m = /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) packages.add(m[1]!);
    }
    for (const imp of meta.outputs[out]!.imports) {
      if (imp.kind !== "import-statement") continue;
      if (imp.external) packages.add(imp.path.startsWith("node:") ? "node:" : imp.path.replace(/^((@[^/]+\/)?[^/]+).*$/, "$1"));
      else visit(imp.path);
    }
  };
  visit(output);
  return packages;
}

/** The output holding the module `input` (a source path). */
function outputOf(meta: Metafile, input: string): string {
  const found = Object.entries(meta.outputs).find(([name, o]) => name.endsWith(".js") && input in o.inputs);
  if (!found) throw new Error(`${input} is in no output`);
  return found[0];
}

describe("the compiled CLI", () => {
  let dir: string;
  let meta: Metafile;
  let entry: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-build-"));
    const built = await buildCli({ quiet: true, outdir: dir });
    meta = built.metafile;
    entry = outputOf(meta, "crawler/cli.ts");
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("starts with commander and Node's own modules only: every command's implementation is a lazy chunk", () => {
    expect([...staticPackages(meta, entry)].sort()).toEqual(["commander", "node:"]);
    for (const command of ["crawler/runtime.ts", "crawler/classify/index.ts", "crawler/discover/index.ts", "lib/db.ts", "lib/migrate.ts"]) {
      expect(outputOf(meta, command), command).not.toBe(entry);
    }
  });

  it("`crawl once` with no accounts loads the database client but no crawler, classifier or PostgreSQL queue", () => {
    // crawl once imports lib/db first and the crawler only when there are accounts to crawl.
    const loaded = staticPackages(meta, outputOf(meta, "lib/db.ts"));
    expect(loaded).toContain("@prisma/adapter-better-sqlite3");
    // The PostgreSQL adapter (and pg) too: the build makes lib/db.ts load it when a PostgreSQL client is made.
    expect(HEAVY.filter((p) => loaded.has(p))).toEqual([]);
  });

  it("crawls without loading what only some crawls need: the SOCKS client, the mailer, PostgreSQL, the scheduler", () => {
    // Everything `crawl once` loads before its first request (crawler/commands/crawl.ts loadCrawler):
    // the worker, the runtime, the runs, the fetcher, the queue, the account's access and the adapters.
    const modules = [
      "crawler/worker/index.ts",
      "crawler/runtime.ts",
      "crawler/runs.ts",
      "crawler/fetch/index.ts",
      "crawler/queue/in-process.ts",
      "crawler/account-access.ts",
      "crawler/account-rows.ts",
      "crawler/adapters/discuz/pages.ts",
    ];
    const crawl = new Set(modules.flatMap((m) => [...staticPackages(meta, outputOf(meta, m))]));
    expect(crawl).toContain("cheerio");
    const scheduling = ["node-cron", "cron-parser", "luxon"];
    expect(["socks", "nodemailer", "pg", "@prisma/adapter-pg", "pg-boss", "playwright-core", ...scheduling].filter((p) => crawl.has(p))).toEqual([]);
    // Each is still in the build, loaded where it is used.
    const lazy = new Set(Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.kind === "dynamic-import" && i.external).map((i) => i.path)));
    expect(lazy).toContain("socks");
    expect(lazy).toContain("nodemailer");
  });

  it("bundles the crawl path's pure-JavaScript packages and imports native ones from node_modules", () => {
    const adapters = outputOf(meta, "crawler/adapters/discuz/pages.ts");
    const loaded = staticPackages(meta, adapters);
    expect(loaded).toContain("cheerio");
    expect(loaded).toContain("parse5");
    const externals = new Set(Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)));
    for (const bundled of ["cheerio", "undici", "zod", "parse5"]) expect(externals.has(bundled), bundled).toBe(false);
    for (const native of ["better-sqlite3", "nodejieba", "playwright-core"]) expect(externals.has(native), native).toBe(true);
  });

  it("is used only while every source it was built from is unchanged", () => {
    expect(cliBuildEntry(dir)).toBe(`file://${path.join(dir, path.basename(entry))}`);
    // As if a source had been edited since: the manifest's record of it no longer matches.
    const manifestFile = path.join(dir, "cli.json");
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { entry: string; inputs: [string, number, number][] };
    const edited = manifest.inputs.find(([f]) => f === "crawler/commands/crawl.ts")!;
    edited[1] -= 1000;
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    expect(cliBuildEntry(dir)).toBeNull();
    fs.rmSync(manifestFile);
    expect(cliBuildEntry(dir)).toBeNull();
  });
});

describe("topics' option help", () => {
  it("names the default relevant labels the settings use", () => {
    expect(DEFAULT_RELEVANT_HELP).toBe(DEFAULT_RELEVANT_LABELS.join(","));
  });
});
