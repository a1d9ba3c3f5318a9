#!/usr/bin/env node
// Run a TypeScript file of this project with tsx (honouring tsconfig paths): `node bin/tsx.mjs FILE ARGS…`.
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const file = process.argv[2];
if (!file) {
  console.error("usage: node bin/tsx.mjs FILE [ARGS…]");
  process.exit(2);
}
process.argv.splice(1, 1);
await import(pathToFileURL(path.resolve(file)).href);
