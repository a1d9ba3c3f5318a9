/**
 * How the crawler's Chromium is confined, as the crawling process found out when it first
 * launched it: which user it runs as and whether Chromium's own sandbox could start. The crawling
 * process (the scheduler on SQLite, each `campuswatch worker` on PostgreSQL) writes it to
 * `<data dir>/browser-sandbox.json`; the dashboard, a separate process, reads it for the Workers
 * page. A file rather than a database row: the fact belongs to a machine (its kernel, its
 * Chromium), and the schema has no column for it. Workers on other machines keep theirs in their
 * own data dir and their log.
 */
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "./config";

/** File name under the data dir. */
export const BROWSER_SANDBOX_FILE = "browser-sandbox.json";

/** One crawling process's finding about its Chromium. */
export interface BrowserSandboxNote {
  /** True when Chromium runs with its own sandbox; false when it had to be started with `--no-sandbox`. */
  sandbox: boolean;
  /** Why the sandbox could not start, in Chromium's words (null when it runs). */
  reason: string | null;
  /** The user Chromium runs as, e.g. `nobody`. */
  user: string;
  /** Its uid (never 0: CampusWatch refuses to run Chromium as root). */
  uid: number;
  /** The Chromium executable. */
  chromium: string;
  /** Machine and process that launched it. */
  hostname: string;
  pid: number;
  /** When the decision was made (ISO 8601). */
  at: string;
}

/** Where the note lives. */
export function browserSandboxFile(dir = dataDir()): string {
  return path.join(/*turbopackIgnore: true*/ dir, BROWSER_SANDBOX_FILE);
}

/**
 * Write the note (atomically: a reader never sees half a file). The last process to launch
 * Chromium on this machine wins, which is fine: they share the kernel and the Chromium.
 */
export function writeBrowserSandboxNote(note: BrowserSandboxNote, dir = dataDir()): void {
  const file = browserSandboxFile(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(note, null, 2)}\n`, { mode: 0o644 });
  fs.renameSync(temp, file);
}

/** The note, or null when no crawling process on this machine has launched Chromium yet (or it is unreadable). */
export function readBrowserSandboxNote(dir = dataDir()): BrowserSandboxNote | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(browserSandboxFile(dir), "utf8"));
  } catch {
    return null;
  }
  return isNote(parsed) ? parsed : null;
}

function isNote(value: unknown): value is BrowserSandboxNote {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.sandbox === "boolean" &&
    (v.reason === null || typeof v.reason === "string") &&
    typeof v.user === "string" &&
    typeof v.uid === "number" &&
    typeof v.chromium === "string" &&
    typeof v.hostname === "string" &&
    typeof v.pid === "number" &&
    typeof v.at === "string" &&
    !Number.isNaN(Date.parse(v.at))
  );
}
