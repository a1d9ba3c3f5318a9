/**
 * What CampusWatch keeps on disk is readable by its own user only. The crawler's Chromium runs as
 * another, unprivileged user (`CAMPUSWATCH_BROWSER_USER`, default `nobody`: crawler/fetch/
 * chromium-launch.ts) and renders hostile pages all day; if a page ever escaped the renderer it
 * must find nothing to read: not the database (sealed secrets, but also every crawled post and
 * user), its WAL and SHM, the raw archive, nor the session secret that opens the sealed values.
 *
 * So every CampusWatch process starts with umask 077 (files it creates are 0600, directories
 * 0700): the CLI (crawler/cli.ts) and the dashboard's server (bin/dashboard-server.mjs) set it
 * first thing, before any module that could create a file. The data directory is created 0700
 * (lib/config.ts sessionSecret, crawler/archive.ts), and when a process opens the database
 * (lib/db.ts createDb) the data directory and the files in it that already exist (from an older
 * version, or copied in) are narrowed to 0700/0600. The raw archive's own files are not
 * walked (there may be hundreds of thousands): its directory is made 0700, which no other user can
 * enter, and the files written from now on are 0600.
 */
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "./config";

/** Files in the data directory made 0600 at start, when present. */
const DATA_FILES = ["session-secret", "session-secret.new", "browser-sandbox.json", "evidence-key.pem"];

function chmodIfPresent(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** The mode a new directory of CampusWatch's gets (also under a umask other than 077). */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Narrow an existing data directory to 0700, with its session secret, the raw archive's directory
 * and the SQLite files of the default database in it, to 0600/0700. Nothing happens when the
 * directory does not exist (it is created 0700 where something is first written into it).
 */
export function securePrivateDataDir(dir = dataDir()): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  // `dir` is the runtime data directory (CAMPUSWATCH_DATA_DIR), nothing a build ships: without
  // the comment Turbopack traces the whole project into the dashboard's build (a build warning).
  for (const name of DATA_FILES) chmodIfPresent(path.join(/* turbopackIgnore: true */ dir, name), 0o600);
  chmodIfPresent(path.join(dir, "archive"), PRIVATE_DIR_MODE);
  for (const entry of entries) {
    if (/\.db(-wal|-shm|-journal)?$/.test(entry)) chmodIfPresent(path.join(dir, entry), 0o600);
  }
}

/**
 * {@link securePrivateDataDir} and {@link secureSqliteFiles} as a process opening its database runs
 * them: a file it cannot change (owned by another user: the CLI run as someone else) is reported
 * on stderr once, never a reason to stop.
 */
export function securePrivateFiles(sqliteFile: string | null): void {
  try {
    securePrivateDataDir();
    if (sqliteFile) secureSqliteFiles(sqliteFile);
  } catch (e) {
    console.warn(`campuswatch: could not make the data files private to this user (${(e as Error).message}): check the data directory's owner`);
  }
}

/**
 * A SQLite database's files (the database, its WAL, SHM and rollback journal) narrowed to 0600,
 * wherever `DATABASE_URL` puts them. SQLite creates the WAL and SHM with the database file's mode.
 */
export function secureSqliteFiles(file: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) chmodIfPresent(file + suffix, 0o600);
}

/**
 * Create `file` with `content`, readable by this user only (0600 whatever the umask), unless it
 * exists already: returns false then and leaves it as it is. The content appears all at once (a
 * private temporary file hard-linked into place), so two processes creating the same file at the
 * same time never leave, or read, half of one: one wins, the other reads the winner's.
 */
export function createPrivateFileOnce(file: string, content: string | Buffer): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temp, content, { flag: "wx", mode: 0o600 });
  try {
    fs.chmodSync(temp, 0o600);
    fs.linkSync(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
