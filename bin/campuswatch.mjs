#!/usr/bin/env node
// Entry point of the `campuswatch` CLI: runs the TypeScript sources through tsx, so there is no
// separate build step for the crawler.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(path.join(root, "crawler", "cli.ts"));
