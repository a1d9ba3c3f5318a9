/**
 * The shape of the code (README "Architecture"): no import cycle anywhere in the project, type-only
 * and lazy imports included, and one form for a folder module's entry (X/index.ts). The layer
 * arrows themselves are ESLint's (eslint.config.mjs, test/unit/lint-layers.test.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, projectSources } from "../support/import-graph";

const root = path.resolve(import.meta.dirname, "../..");
const tsconfig = path.join(root, "tsconfig.json");
const rel = (f: string): string => path.relative(root, f).split(path.sep).join("/");
const sources = projectSources(tsconfig);

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

describe("imports", () => {
  it("form no cycle, type-only and lazy imports included", () => {
    expect(sources.length).toBeGreaterThan(300);
    const graph = importGraph(sources, tsconfig);
    // The check reads real edges (a graph with none would pass vacuously).
    expect(graph.get(path.join(root, "crawler/worker/index.ts"))).toContain(path.join(root, "crawler/worker/walk.ts"));
    const cycles = importCycles(graph).map((c) => c.edges.map(([a, b]) => `${rel(a)} → ${rel(b)}`));
    // On failure the message lists each cycle's edges: move what both sides need down into a leaf module.
    expect(cycles).toEqual([]);
  });

  it("the check sees a cycle made of a type-only import, a lazy import and an `@/` path", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cycles-"));
    temp.push(dir);
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } }, include: ["**/*.ts"] }),
      "a.ts": `import type { B } from "./b";\nexport type A = B[];\n`,
      "b.ts": `export type B = number;\nexport const later = () => import("@/c/index");\n`,
      "c/index.ts": `export * from "../a";\n`,
      "leaf.ts": `import type { A } from "./a";\nexport type L = A;\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const config = path.join(dir, "tsconfig.json");
    const cycles = importCycles(importGraph(projectSources(config), config));
    expect(cycles.map((c) => c.files.map((f) => path.relative(dir, f)))).toEqual([["a.ts", "b.ts", path.join("c", "index.ts")]]);
    expect(cycles[0]!.edges).toHaveLength(3);
  });
});

describe("a folder module", () => {
  it("has its entry in X/index.ts, never X.ts beside a folder X/", () => {
    const both = sources
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => {
        const folder = f.replace(/\.tsx?$/, "");
        return fs.existsSync(folder) && fs.statSync(folder).isDirectory() && sources.some((s) => s.startsWith(folder + path.sep));
      })
      .map(rel);
    expect(both).toEqual([]);
  });
});
