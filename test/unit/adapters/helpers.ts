/**
 * Shared by the adapter unit tests: where the real captures are, and an in-memory Fetcher that
 * serves canned bodies by URL and records what was asked for.
 */
import fs from "node:fs";
import path from "node:path";
import { NonRetryableError } from "../../../crawler/errors";
import type { AdapterContext, FetchOptions, FetchResult, Fetcher, Platform } from "../../../crawler/types";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

/** The real captures live outside the repo (../shared), read at run time, never copied in. */
export const REAL_DIR = path.resolve(repoRoot, "../shared/fixtures/real");
export const realAvailable = fs.existsSync(REAL_DIR);
if (!realAvailable) console.warn(`[adapters] real captures not found at ${REAL_DIR}: capture tests are skipped`);

/** A real capture's text. */
export function readReal(name: string): string {
  return fs.readFileSync(path.join(REAL_DIR, name), "utf8");
}

export interface StubRequest {
  url: string;
  kind: FetchOptions["kind"];
  json: boolean;
}

/** A Fetcher answering from `routes` (exact URL → body); anything else is a 404. */
export function stubFetcher(routes: Record<string, string>): Fetcher & { requests: StubRequest[] } {
  const requests: StubRequest[] = [];
  return {
    requests,
    async get(url: string, options: FetchOptions = {}): Promise<FetchResult> {
      requests.push({ url, kind: options.kind, json: options.json === true });
      const body = routes[url];
      if (body === undefined) throw new NonRetryableError("HTTP 404", url, 404);
      return { url, status: 200, headers: {}, body, bytes: Buffer.byteLength(body), contentType: "", viaBrowser: false };
    },
  };
}

/** An adapter context around a stub fetcher. */
export function stubContext(platform: Platform, entryUrl: string, fetch: Fetcher, now: Date): AdapterContext {
  return { account: { id: 1, entryUrl, platform, fetchMode: "http" }, fetch, now, log: () => {}, warn: () => {} };
}

/** All pages of an async iterable (tests only: adapters are lazy for a reason). */
export async function collect<T>(it: AsyncIterable<T>, max = 100): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= max) break;
  }
  return out;
}
