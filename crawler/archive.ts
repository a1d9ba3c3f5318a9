/**
 * The raw archive: the page or JSON each post was read from, gzip-compressed, in a per-account
 * folder under the data directory, so a reviewer can see the original as evidence.
 * Files are named by the SHA-1 of their content: a page that yields fifty posts is stored once.
 */
import crypto from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";
import { offThread, parseThreadCount } from "./parse/off-thread";
import { addTime, profiling } from "./profile";

const gzip = promisify(zlib.gzip);

/**
 * Archive a source body; returns its path relative to `dir`, or null when archiving is off.
 * The path is known at once (the file is named by the content's hash); the file is written in the
 * background, so the crawl does not wait for the disk, and {@link flushArchive} waits for the
 * writes (a run does before it is recorded finished). Failures (disk full) are swallowed:
 * evidence is valuable, but never worth losing a post over; the post keeps the path, as it does
 * when the retention later removes the file.
 */
export function archiveSource(dir: string | null | undefined, accountId: number, source: { url: string; body: string }): Promise<string | null> {
  if (!dir) return Promise.resolve(null);
  const t0 = profiling ? performance.now() : 0;
  const rel = archiveRemembered(dir, accountId, source);
  if (profiling) addTime("archive", performance.now() - t0);
  return Promise.resolve(rel);
}

/** Writes still under way (see {@link flushArchive}). */
const writing = new Set<Promise<unknown>>();

/** Wait until every archive write started so far has finished (written, or failed and dropped). */
export async function flushArchive(): Promise<void> {
  while (writing.size > 0) await Promise.allSettled([...writing]);
}

/**
 * Sources archived in the last minute, by folder, account and URL: every item of a listing page
 * carries the same page, which was hashed and looked up on disk once per item. Bodies are compared (the same
 * string, usually: a cheap comparison), so a page served differently is archived again.
 */
const recent = new Map<string, { body: string; rel: string; at: number }>();
const RECENT_LIMIT = 32;
/** Remembered this long at most, so a long-running scheduler never trusts a file pruned since. */
const RECENT_MS = 60_000;

function archiveRemembered(dir: string, accountId: number, source: { url: string; body: string }): string {
  const key = `${dir}\0${accountId}\0${source.url}`;
  const hit = recent.get(key);
  if (hit && hit.body === source.body && performance.now() - hit.at < RECENT_MS) return hit.rel;
  const rel = archiveName(accountId, source.url, source.body);
  recent.delete(key);
  recent.set(key, { body: source.body, rel, at: performance.now() });
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  const write = archiveOnce(dir, accountId, source)
    // A failed write is not remembered: the next item of the same source tries again.
    .then((written) => {
      if (written === null && recent.get(key)?.rel === rel) recent.delete(key);
    })
    .catch(() => undefined)
    .finally(() => writing.delete(write));
  writing.add(write);
  return rel;
}

// Private to CampusWatch's user whatever the umask: the archive holds every page as crawled, with
// whatever the login cookies let the crawler see; Chromium's user must not read it (lib/private-files.ts).
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/** Account folders made by this thread (each is made once: a crawl archives hundreds of pages into it). */
const madeDirs = new Set<string>();

function archiveOnce(dir: string, accountId: number, source: { url: string; body: string }): Promise<string | null> {
  // With parse threads, one of them compresses and writes the file in one go: here, each step
  // (compress, make the folder, open, write, close) is a round trip through libuv's pool, and each
  // waits for the crawl's thread, which is busy.
  if (parseThreadCount() > 0) return offThread("archive", archiveSync, dir, accountId, source.url, source.body);
  return archiveAsync(dir, accountId, source);
}

/** The archive file's path, relative to the archive folder: named by the source's hash. */
function archiveName(accountId: number, url: string, body: string): string {
  const hash = crypto.createHash("sha1").update(url).update("\0").update(body).digest("hex");
  return path.join(String(accountId), `${hash}.json.gz`);
}

/** The archive file's path (relative to the archive folder) and its JSON, to be compressed. */
function archiveFile(accountId: number, url: string, body: string): { rel: string; payload: string } {
  return { rel: archiveName(accountId, url, body), payload: JSON.stringify({ url, archivedAt: new Date().toISOString(), body }) };
}

/**
 * {@link archiveSource}'s write, synchronous: what a parse thread runs (crawler/parse/parsers.ts).
 * Returns the path relative to `dir`, or null when the file could not be written.
 */
export function archiveSync(dir: string, accountId: number, url: string, body: string): string | null {
  const { rel, payload } = archiveFile(accountId, url, body);
  const file = path.join(dir, rel);
  const folder = path.dirname(file);
  try {
    const gz = zlib.gzipSync(payload);
    const write = () => {
      try {
        fsSync.writeFileSync(file, gz, { flag: "wx", mode: PRIVATE_FILE });
      } catch (e) {
        if (!alreadyThere(e)) throw e;
      }
    };
    if (!madeDirs.has(folder)) {
      fsSync.mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
      madeDirs.add(folder);
    }
    try {
      write();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      fsSync.mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
      write();
    }
    return rel;
  } catch {
    madeDirs.delete(folder);
    return null;
  }
}

/**
 * "wx" creates a file only if absent, and the name is the content's hash: a file already there
 * holds this very source (archived by an earlier crawl), so there is nothing to write. Only the
 * write's EEXIST means that; a folder's (a file where the account's folder should be) is a failure.
 */
function alreadyThere(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === "EEXIST";
}

async function archiveAsync(dir: string, accountId: number, source: { url: string; body: string }): Promise<string | null> {
  const { rel, payload } = archiveFile(accountId, source.url, source.body);
  const file = path.join(dir, rel);
  const folder = path.dirname(file);
  try {
    const gz = await gzip(payload);
    const write = () =>
      fs.writeFile(file, gz, { flag: "wx", mode: PRIVATE_FILE }).catch((e: unknown) => {
        if (!alreadyThere(e)) throw e;
      });
    if (!madeDirs.has(folder)) {
      await fs.mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
      madeDirs.add(folder);
    }
    try {
      await write();
    } catch (e) {
      // The folder was removed since it was made (pruning, an operator): make it again, once.
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      await fs.mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
      await write();
    }
    return rel;
  } catch {
    madeDirs.delete(folder);
    return null;
  }
}

/** Read an archived source back (for the dashboard's evidence view). */
export async function readArchived(dir: string, rel: string): Promise<{ url: string; archivedAt: string; body: string }> {
  const resolved = path.resolve(dir, rel);
  if (!resolved.startsWith(path.resolve(dir) + path.sep)) throw new Error("archive path escapes the archive directory");
  const buf = await fs.readFile(resolved);
  return JSON.parse(zlib.gunzipSync(buf).toString("utf8")) as { url: string; archivedAt: string; body: string };
}

/**
 * Bound the archive: delete files older than `maxAgeDays`, then the oldest until the total is
 * under `maxBytes`. Files whose path (relative to `dir`) is in `keep` are never deleted — the raw
 * pages and screenshots of posts kept as evidence (crawler/evidence/keep.ts) — and their size is
 * counted against `maxBytes`, so other files go sooner. Returns how many files were removed.
 */
export async function pruneArchive(
  dir: string,
  { maxAgeDays, maxBytes, keep }: { maxAgeDays: number; maxBytes: number; keep?: ReadonlySet<string> },
  now = new Date(),
): Promise<number> {
  const files: { file: string; mtime: number; size: number; kept: boolean }[] = [];
  let accounts: string[];
  try {
    accounts = await fs.readdir(dir);
  } catch {
    return 0;
  }
  for (const a of accounts) {
    const sub = path.join(dir, a);
    let names: string[];
    try {
      names = await fs.readdir(sub);
    } catch {
      continue;
    }
    for (const n of names) {
      const st = await fs.stat(path.join(sub, n)).catch(() => null);
      if (st?.isFile()) files.push({ file: path.join(sub, n), mtime: st.mtimeMs, size: st.size, kept: keep?.has(path.join(a, n)) ?? false });
    }
  }
  files.sort((x, y) => x.mtime - y.mtime);
  let total = files.reduce((t, f) => t + f.size, 0);
  let removed = 0;
  const oldest = now.getTime() - maxAgeDays * 86_400_000;
  for (const f of files) {
    if (f.mtime >= oldest && total <= maxBytes) break;
    if (f.kept) continue;
    await fs.rm(f.file, { force: true });
    total -= f.size;
    removed++;
  }
  return removed;
}
