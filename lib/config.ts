/**
 * Configuration read from the environment, in one place. Every variable is documented in the
 * README's Configuration section; keep the two in step.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { addressRange, parseTrustedEntry } from "./net/address";
import { parseProxyUrl, type ProxyConfig } from "./net/proxy-url";
import { maskUrlCredentials } from "./mask";

/** Default SQLite database, relative to the working directory. */
export const DEFAULT_DATABASE_URL = "file:./data/campuswatch.db";

/** The database URL: `DATABASE_URL`, else the embedded SQLite file. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}

/** Which database a URL selects. */
export function databaseKind(url = databaseUrl()): "sqlite" | "postgresql" {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  if (/^file:/i.test(url)) return "sqlite";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (got ${JSON.stringify(redactUrl(url))})`);
}

/** The file path of a `file:` SQLite URL, resolved against the working directory. */
export function sqlitePath(url = databaseUrl()): string {
  const raw = url.replace(/^file:/i, "").replace(/\?.*$/, "");
  return path.resolve(/*turbopackIgnore: true*/ raw);
}

/** Directory for runtime data: the raw archive, the session secret, the default database. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.CAMPUSWATCH_DATA_DIR?.trim() || "./data");
}

function intFromEnv(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be an integer >= ${min} (got ${JSON.stringify(raw)})`);
  }
  return n;
}

/** Crawler settings from the environment; CLI flags override them. */
export function crawlerConfig() {
  return {
    /** Minimum delay between two requests to one host. @default 1000 */
    hostDelayMs: intFromEnv("CAMPUSWATCH_HOST_DELAY_MS", 1000),
    /** Accounts crawled in parallel. @default 4 */
    concurrency: intFromEnv("CAMPUSWATCH_CONCURRENCY", 4, 1),
    /** Per-request timeout. @default 20000 */
    requestTimeoutMs: intFromEnv("CAMPUSWATCH_REQUEST_TIMEOUT_MS", 20_000, 100),
    /** Largest response body read, in bytes. @default 5 MiB */
    maxBodyBytes: intFromEnv("CAMPUSWATCH_MAX_BODY_BYTES", 5 * 1024 * 1024, 1024),
    /** Honest User-Agent sent with every request. */
    userAgent: process.env.CAMPUSWATCH_USER_AGENT?.trim() || "CampusWatchBot/0.1 (+https://github.com/campuswatch/campuswatch; campus monitoring crawler)",
    /** Chromium used for pages that need a browser. @default /usr/bin/chromium */
    chromiumPath: process.env.CHROMIUM_PATH?.trim() || "/usr/bin/chromium",
    /** Raw archive files older than this are deleted. @default 90 */
    archiveMaxDays: intFromEnv("CAMPUSWATCH_ARCHIVE_MAX_DAYS", 90, 1),
    /** The raw archive is kept under this many MiB (oldest files go first). @default 2048 */
    archiveMaxMb: intFromEnv("CAMPUSWATCH_ARCHIVE_MAX_MB", 2048, 1),
    /**
     * `1`: segment posts for the classifier on a worker thread (jieba's load and cuts off the
     * crawl's thread). Off by default: on two cores it measured no faster (bench:crawl-vs-crawlee,
     * ratio 0.66 → 0.68, within noise) for about 20 MiB and 8% more CPU per page. @default 0
     */
    jiebaThread: intFromEnv("CAMPUSWATCH_JIEBA_THREAD", 0, 0) !== 0,
    /**
     * Worker threads that parse pages beside the crawl (crawler/parse/off-thread.ts); 0 parses on
     * the crawl's own thread. On a single core a thread's work would only be added to the crawl's
     * core, with messages on top. @default 1 on a machine with more than one core, else 0
     */
    parseThreads: intFromEnv("CAMPUSWATCH_PARSE_THREADS", os.availableParallelism() > 1 ? 1 : 0, 0),
  };
}

/** Scale-out settings (PostgreSQL, pg-boss workers) from the environment; see the README. */
export function scaleOutConfig() {
  return {
    /** Connections each process's Prisma client may open to PostgreSQL. @default 10 */
    pgPoolSize: intFromEnv("CAMPUSWATCH_PG_POOL", 10, 1),
    /** How often a worker proves it is alive. @default 5000 */
    heartbeatMs: intFromEnv("CAMPUSWATCH_WORKER_HEARTBEAT_MS", 5000, 1),
    /** A worker silent this long is dead and its jobs are retried elsewhere. @default 30000 */
    deadAfterMs: intFromEnv("CAMPUSWATCH_WORKER_DEAD_MS", 30_000, 1),
    /** Times a failed or abandoned job is tried again. @default 3 */
    jobRetries: intFromEnv("CAMPUSWATCH_JOB_RETRIES", 3, 0),
    /** Seconds before a retry. @default 10 */
    jobRetryDelaySeconds: intFromEnv("CAMPUSWATCH_JOB_RETRY_DELAY_S", 10, 0),
    /** A job running longer than this is failed by pg-boss itself (the last resort). @default 3600 */
    jobExpireSeconds: intFromEnv("CAMPUSWATCH_JOB_EXPIRE_S", 3600, 60),
  };
}

let cachedSecret: Uint8Array | undefined;

/**
 * The key that signs session cookies: `CAMPUSWATCH_SECRET`, else a random key created once and
 * kept in the data directory so that sessions survive a restart.
 */
export function sessionSecret(): Uint8Array {
  if (cachedSecret) return cachedSecret;
  const fromEnv = process.env.CAMPUSWATCH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("CAMPUSWATCH_SECRET must be at least 32 characters");
    cachedSecret = new TextEncoder().encode(fromEnv);
    return cachedSecret;
  }
  const file = path.join(dataDir(), "session-secret");
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    // 0700 whatever the umask: the data directory is CampusWatch's alone (lib/private-files.ts).
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    secret = crypto.randomBytes(32).toString("hex");
    // wx: if two processes race, the loser reads the winner's key instead of overwriting it.
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
    } catch {
      secret = fs.readFileSync(file, "utf8").trim();
    }
  }
  cachedSecret = new TextEncoder().encode(secret);
  return cachedSecret;
}

/** Where the dashboard listens when neither `--host` nor CAMPUSWATCH_HOST says: this machine only. */
export const DEFAULT_DASHBOARD_HOST = "127.0.0.1";

/**
 * The interface the dashboard listens on: `--host` when given, else CAMPUSWATCH_HOST, else
 * {@link DEFAULT_DASHBOARD_HOST}. Loopback by default, so that a fresh install is not reachable from
 * the network before anyone chose to expose it (through a reverse proxy, or `0.0.0.0`). The one
 * place for this default: `campuswatch serve`/`run` and bin/dashboard-server.mjs all ask here.
 */
export function dashboardHost(flag?: string): string {
  return flag?.trim() || process.env.CAMPUSWATCH_HOST?.trim() || DEFAULT_DASHBOARD_HOST;
}

/**
 * The line printed when the dashboard listens on a loopback address only, or null otherwise: other
 * machines cannot reach it, and whoever runs it on a remote server should know why and what to do.
 */
export function loopbackListenHint(host: string): string | null {
  const loopback = host.toLowerCase() === "localhost" || addressRange(host) === "loopback";
  if (!loopback) return null;
  return (
    `The dashboard accepts connections from this machine only (${host}). To reach it from elsewhere, ` +
    "put a reverse proxy on this machine in front of it (README: Security), or set CAMPUSWATCH_HOST=0.0.0.0 (or --host)."
  );
}

/** Read the secret again on next use (after `campuswatch secrets rotate` replaced the file). */
export function forgetSessionSecret(): void {
  cachedSecret = undefined;
}

/**
 * The dashboard's public address (`CAMPUSWATCH_PUBLIC_URL`), without a trailing slash, or null.
 * Links in notifications and the first-admin setup link use it; an https address also turns on
 * the session cookie's Secure flag and Strict-Transport-Security (lib/security-headers.ts).
 */
export function publicUrl(): string | null {
  const raw = process.env.CAMPUSWATCH_PUBLIC_URL?.trim();
  return raw ? raw.replace(/\/+$/, "") : null;
}

/**
 * A URL fit for a log line: any password (and a `password=` query parameter, which PostgreSQL
 * connection strings accept) replaced by `***`. Text that does not parse as a URL, or that holds
 * an `@` after the host the parser found (a password with `/` or `?` in it), is masked up to its
 * last `@` by {@link maskUrlCredentials}, the one rule for malformed input.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return maskUrlCredentials(url);
  }
  const lastAt = url.lastIndexOf("@");
  if (
    lastAt >= 0 &&
    (!u.host ||
      !url
        .slice(lastAt + 1)
        .toLowerCase()
        .startsWith(u.host.toLowerCase()))
  )
    return maskUrlCredentials(url);
  let changed = false;
  if (u.password) {
    u.password = "***";
    changed = true;
  }
  for (const key of [...u.searchParams.keys()]) {
    if (/^(password|pass|pwd|secret|token|sslpassword)$/i.test(key)) {
      u.searchParams.set(key, "***");
      changed = true;
    }
  }
  // Unchanged URLs are returned as written (URL would rewrite `file:./x` as `file:///x`).
  return changed ? u.toString().replace(/%2A%2A%2A/g, "***") : url;
}

/**
 * `CAMPUSWATCH_TRUSTED_HOSTS`: comma-separated hosts (`bbs.intranet.edu`, `10.1.2.3:8080`) and
 * CIDR ranges (`10.20.0.0/16`) the crawler may contact on internal addresses although no account
 * or seed registers them — the way out for intranet boards reached through links or redirects.
 * Registered hosts (account entry URLs, discovery seeds) are trusted without being listed here.
 * @throws Error naming the variable and the entry when an entry is malformed.
 */
export function trustedHostsFromEnv(): string[] {
  return hostListFromEnv("CAMPUSWATCH_TRUSTED_HOSTS");
}

/**
 * A comma-separated list of hosts and CIDR ranges from the environment variable `name`, each
 * entry checked by lib/net/address.ts parseTrustedEntry.
 * @throws Error naming the variable and the entry when an entry is malformed.
 */
function hostListFromEnv(name: string): string[] {
  const entries = (process.env[name] ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    try {
      parseTrustedEntry(entry);
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}`);
    }
  }
  return entries;
}

let allowInternalCache: { raw: string; entries: string[] } | undefined;

/**
 * `CAMPUSWATCH_ALLOW_INTERNAL`: comma-separated hosts (`relay.campus.edu`, `10.1.2.3:8080`,
 * `[fd00::25]`) and CIDR ranges (`10.20.0.0/16`) that every outgoing request may reach on an
 * internal address: an in-house SMTP relay or webhook receiver, an intranet image host. A host
 * without a port is allowed on any port (lib/net/address.ts). Everything else internal is refused
 * by the address policy, notifications included. Parsed once per value; the crawler and
 * `campuswatch serve` read it at start, so a malformed entry stops them there.
 * @throws Error naming the variable and the entry when an entry is malformed.
 */
export function allowInternalFromEnv(): string[] {
  const raw = process.env.CAMPUSWATCH_ALLOW_INTERNAL ?? "";
  if (allowInternalCache?.raw !== raw) allowInternalCache = { raw, entries: hostListFromEnv("CAMPUSWATCH_ALLOW_INTERNAL") };
  return allowInternalCache.entries;
}

/**
 * `CAMPUSWATCH_PROXY`: the proxy every crawl goes through unless its account has its own
 * (`http://`, `https://`, `socks5://` or `socks5h://`, credentials allowed), or null when unset.
 * Read when the crawler's services are built, so a malformed value stops the process at start.
 * @throws Error naming the variable (the password masked) when the value is not a proxy URL.
 */
export function proxyFromEnv(): ProxyConfig | null {
  const raw = process.env.CAMPUSWATCH_PROXY?.trim();
  if (!raw) return null;
  try {
    return parseProxyUrl(raw);
  } catch (err) {
    throw new Error(`CAMPUSWATCH_PROXY: ${(err as Error).message}`);
  }
}
