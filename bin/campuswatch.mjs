#!/usr/bin/env node
// Entry point of the `campuswatch` CLI. It runs the ahead-of-time build in dist/
// (scripts/build-cli.mjs, made by `npm ci`) when that build holds exactly the current sources,
// which starts several times faster than compiling TypeScript at run time. When a source is newer
// (someone edited a .ts file) it rebuilds first (esbuild: well under a second), so it never runs
// stale code; if that fails (a read-only tree, a file being edited that does not parse) it runs
// the sources through tsx, which reports the error as before. CAMPUSWATCH_CLI_SOURCE=1 always
// runs the sources.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli, cliBuildEntry } from "../scripts/build-cli.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The compiled CLI to import, or null to run the sources. */
async function compiledEntry() {
  if (process.env.CAMPUSWATCH_CLI_SOURCE === "1") return null;
  const fresh = cliBuildEntry();
  if (fresh) return fresh;
  try {
    return (await buildCli({ quiet: true })).entry;
  } catch {
    return null;
  }
}

const entry = await compiledEntry();
if (entry) {
  // With CAMPUSWATCH_DEBUG (stack traces wanted), traces name the TypeScript sources rather than
  // the bundle. Not by default: reading the source maps (Prisma's too) costs every start ~5%.
  if (process.env.CAMPUSWATCH_DEBUG) process.setSourceMapsEnabled(true);
  await import(entry);
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  await import(path.join(root, "crawler", "cli.ts"));
}
