import fs from "node:fs";
import path from "node:path";

/** A page found on disk: its URL with `[param]` segments given the sample value 1, and its folder's segments as written. */
export interface AppPage {
  url: string;
  /** The URL segments as the folders name them (`["incidents", "[id]"]`). */
  segments: string[];
  /** The page sits under the signed-in dashboard's (dashboard) group. */
  dashboard: boolean;
}

/**
 * Every page and route handler under app/, found on disk so that a new route cannot be forgotten
 * by the specs that walk them all (auth.spec: every one needs a session; csp.spec: every one runs
 * under the CSP).
 */
export function appRoutes(): { pages: string[]; pageInfo: AppPage[]; apis: string[]; methods: Map<string, string[]> } {
  const pageInfo: AppPage[] = [];
  const apis: string[] = [];
  // The HTTP methods each route handler exports (`export const GET`, `export async function POST`).
  const methods = new Map<string, string[]>();
  const walk = (dir: string, segments: string[], raw: string[], dashboard: boolean) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // (group) folders add no URL segment; [param] gets a sample value.
        const group = /^\(.*\)$/.test(entry.name);
        const seg = group ? null : entry.name.replace(/^\[\.\.\..+\]$/, "x").replace(/^\[.+\]$/, "1");
        walk(full, seg === null ? segments : [...segments, seg], group ? raw : [...raw, entry.name], dashboard || entry.name === "(dashboard)");
      } else if (/^page\.tsx?$/.test(entry.name)) pageInfo.push({ url: "/" + segments.join("/"), segments: raw, dashboard });
      else if (/^route\.tsx?$/.test(entry.name)) {
        const url = "/" + segments.join("/");
        apis.push(url);
        methods.set(
          url,
          [...fs.readFileSync(full, "utf8").matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!),
        );
      }
    }
  };
  walk(path.resolve("app"), [], [], false);
  return { pages: pageInfo.map((p) => p.url), pageInfo, apis, methods };
}
