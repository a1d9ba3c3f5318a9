/**
 * Where a file of crawler/classify/ is at run time: beside this module when it runs from its
 * sources (tsx, Vitest), else in the project directory. Bundled code (the CLI's dist/, Next.js)
 * has no such file beside it (its import.meta.url points into the bundle), so the project
 * directory, where `campuswatch` and `next start` run, is the fallback.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The path of `crawler/classify/<relative>`, or null when it is in neither place. */
export function classifyFile(relative: string): string | null {
  try {
    // path.join rather than `new URL("./…", import.meta.url)`, which bundlers rewrite.
    const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), relative);
    if (fs.existsSync(beside)) return beside;
  } catch {
    // bundled: see below
  }
  const inProject = path.join(process.cwd(), "crawler", "classify", relative);
  return fs.existsSync(inProject) ? inProject : null;
}

/** The path of `crawler/classify/data/<name>`, or null when it is in neither place. */
export function dataFile(name: string): string | null {
  return classifyFile(path.join("data", name));
}
