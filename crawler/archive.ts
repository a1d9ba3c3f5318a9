/**
 * The raw archive: the page or JSON each post was read from, gzip-compressed, in a per-account
 * folder under the data directory, so a reviewer can see the original as evidence.
 * Files are named by the SHA-1 of their content: a page that yields fifty posts is stored once.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";

const gzip = promisify(zlib.gzip);

/**
 * Archive a source body; returns its path relative to `dir`, or null when archiving is off.
 * Failures (disk full) are swallowed: evidence is valuable, but never worth losing a post over.
 */
export async function archiveSource(dir: string | null | undefined, accountId: number, source: { url: string; body: string }): Promise<string | null> {
  if (!dir) return null;
  const hash = crypto.createHash("sha1").update(source.url).update("\0").update(source.body).digest("hex");
  const rel = path.join(String(accountId), `${hash}.json.gz`);
  const file = path.join(dir, rel);
  try {
    await fs.access(file);
    return rel;
  } catch {
    // not archived yet
  }
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const payload = JSON.stringify({ url: source.url, archivedAt: new Date().toISOString(), body: source.body });
    await fs.writeFile(file, await gzip(payload));
    return rel;
  } catch {
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
 * under `maxBytes`. Returns how many files were removed.
 */
export async function pruneArchive(dir: string, { maxAgeDays, maxBytes }: { maxAgeDays: number; maxBytes: number }, now = new Date()): Promise<number> {
  const files: { file: string; mtime: number; size: number }[] = [];
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
      if (st?.isFile()) files.push({ file: path.join(sub, n), mtime: st.mtimeMs, size: st.size });
    }
  }
  files.sort((x, y) => x.mtime - y.mtime);
  let total = files.reduce((t, f) => t + f.size, 0);
  let removed = 0;
  const oldest = now.getTime() - maxAgeDays * 86_400_000;
  for (const f of files) {
    if (f.mtime >= oldest && total <= maxBytes) break;
    await fs.rm(f.file, { force: true });
    total -= f.size;
    removed++;
  }
  return removed;
}
