/**
 * Where a file of ./data/ is at run time: beside this module when it runs from its sources (tsx,
 * Vitest), else in the project directory. Bundled code (the CLI's dist/, Next.js) has no
 * ./data/ beside it (its import.meta.url points into the bundle), so the project directory,
 * where `campuswatch` and `next start` run, is the fallback.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The path of `crawler/classify/data/<name>`, or null when it is in neither place. */
export function dataFile(name: string): string | null {
  try {
    // path.join rather than `new URL("./data/…", import.meta.url)`, which bundlers rewrite.
    const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", name);
    if (fs.existsSync(beside)) return beside;
  } catch {
    // bundled: see below
  }
  const inProject = path.join(process.cwd(), "crawler", "classify", "data", name);
  return fs.existsSync(inProject) ? inProject : null;
}
