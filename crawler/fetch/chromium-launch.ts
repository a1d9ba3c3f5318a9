/**
 * Starting Chromium confined. Crawled pages run their own scripts, so the browser must never be
 * root without a sandbox:
 *
 * - **User.** When CampusWatch runs as root (CI, containers, a careless service), Chromium is
 *   started through a generated wrapper script that hands the profile directory Playwright made
 *   (as root) to an unprivileged user — `CAMPUSWATCH_BROWSER_USER`, default `nobody` — and
 *   `exec`s `setpriv` to become that user (no capabilities; no_new_privs unless Debian's setuid
 *   `chromium-sandbox` helper is installed) before starting Chromium. Playwright's pipe
 *   transport (file descriptors 3 and 4) survives the `exec`s. Otherwise Chromium runs as the
 *   process's own user.
 * - **Sandbox.** Chromium's own sandbox (unprivileged user namespaces; Debian's `chromium`
 *   package has no setuid helper unless `chromium-sandbox` is installed) is always tried first. Only when it cannot start is Chromium started with `--no-sandbox`;
 *   that is decided once per process, said in one log line and recorded for the Workers page
 *   (lib/browser-sandbox.ts).
 * - **Environment.** Chromium gets a short list of variables, never the process's own
 *   (`DATABASE_URL`, `CAMPUSWATCH_SECRET`, `SMTP_PASS`…).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { FatalError } from "../errors";
import { writeBrowserSandboxNote } from "../../lib/browser-sandbox";

/**
 * Flags from the toolchain notes: without the `--disable-*` ones Chromium keeps trying to reach
 * Google services through a network that is closed here, which slows everything down. WebRTC may
 * only use proxied connections: its UDP would bypass the per-context gate (browser-gate.ts).
 * No `--no-sandbox` here: {@link launchChromium} adds it only when the sandbox cannot start.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** The unprivileged user Chromium runs as when CampusWatch itself runs as root. */
export interface BrowserUser {
  name: string;
  uid: number;
  gid: number;
}

/** How one Chromium executable is confined in this process, once it has been launched. */
export interface BrowserConfinement {
  /** True when Chromium's own sandbox runs; false when it was started with `--no-sandbox`. */
  sandbox: boolean;
  /** Why the sandbox could not start (null when it runs). */
  reason: string | null;
  /** Who Chromium runs as. */
  user: string;
  uid: number;
}

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  /** Where the one-line sandbox fallback notice goes. @default console.warn */
  log?: (message: string) => void;
  /**
   * Flags added to {@link CHROMIUM_ARGS} for this launch (the evidence renderer's "no network at
   * all": crawler/evidence/screenshot.ts).
   */
  args?: readonly string[];
}

/** The user named by `CAMPUSWATCH_BROWSER_USER` (a name or a uid), default `nobody`. */
export function browserUserName(): string {
  return process.env.CAMPUSWATCH_BROWSER_USER?.trim() || "nobody";
}

/** True when this process runs as root, so Chromium must be started as someone else. */
export function runningAsRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Per executable path: the browser user (as root) and, once known, the sandbox decision. */
const users = new Map<string, BrowserUser>();
const decisions = new Map<string, BrowserConfinement>();

/** The confinement decided for `chromium` in this process, or undefined before its first launch. */
export function browserConfinement(chromium: string): BrowserConfinement | undefined {
  return decisions.get(chromium);
}

/**
 * Launch Chromium at `chromium` confined as described above. The first launch tries the sandbox
 * and falls back to `--no-sandbox` only on a sandbox failure; later launches (after an idle
 * close) reuse that decision. Any other failure is thrown as it is.
 */
export async function launchChromium(chromium: string, options: LaunchChromiumOptions = {}): Promise<Browser> {
  const log = options.log ?? ((message: string) => console.warn(`[browser] ${message}`));
  const user = browserUserFor(chromium);
  // Loaded on first use: playwright-core takes most of a second to import, and most crawls
  // (and every process that only reads HTTP) never need it.
  const { chromium: launcher } = await import("playwright-core");
  // The wrapper exists only while Chromium starts: once it has exec'd nothing needs the file,
  // so a process killed later leaves nothing behind in /tmp.
  const wrapper = user ? writeWrapper(chromium, user) : null;
  try {
    const launch = (sandbox: boolean) =>
      launcher.launch({
        executablePath: wrapper?.file ?? chromium,
        args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
        // Playwright adds --no-sandbox unless told otherwise.
        chromiumSandbox: sandbox,
        env: childEnv(user !== null),
      });

    const known = decisions.get(chromium);
    if (known) return await launch(known.sandbox);

    let browser: Browser;
    let reason: string | null = null;
    try {
      browser = await launch(true);
    } catch (err) {
      reason = sandboxFailure(err);
      if (reason === null) throw err;
      browser = await launch(false);
    }
    record(chromium, user ?? currentUser(), reason, log);
    return browser;
  } finally {
    if (wrapper) fs.rmSync(wrapper.dir, { recursive: true, force: true });
  }
}

/** Remember the decision for this process, say a fallback once, and leave the note for the Workers page. */
function record(chromium: string, who: { name: string; uid: number }, reason: string | null, log: (message: string) => void): void {
  decisions.set(chromium, { sandbox: reason === null, reason, user: who.name, uid: who.uid });
  if (reason !== null) {
    // Chromium's first sentence says what is wrong; the rest (kept in the note) is advice.
    const gist = reason.split(/(?<=[.!])\s/)[0] ?? reason;
    log(
      `Chromium's sandbox cannot start here (${gist}): running Chromium with --no-sandbox as user ${who.name} (uid ${who.uid}); ` +
        `crawled pages' scripts are confined only by that user's rights. See README "How the browser is confined".`,
    );
  }
  try {
    writeBrowserSandboxNote({
      sandbox: reason === null,
      reason,
      user: who.name,
      uid: who.uid,
      chromium,
      hostname: os.hostname(),
      pid: process.pid,
      at: new Date().toISOString(),
    });
  } catch (err) {
    log(`could not record the browser sandbox state for the Workers page: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** As root: the unprivileged user to start `chromium` as (looked up once); otherwise null (run as ourselves). */
function browserUserFor(chromium: string): BrowserUser | null {
  if (!runningAsRoot()) return null;
  let user = users.get(chromium);
  if (!user) {
    user = lookUpUser(browserUserName());
    users.set(chromium, user);
  }
  return user;
}

/** Resolve a user name (or uid) with `id`, which also asks NSS (LDAP, systemd's DynamicUser). */
function lookUpUser(name: string): BrowserUser {
  const ask = (flag: string) => execFileSync("id", [flag, "--", name], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  let user: BrowserUser;
  try {
    user = { name: ask("-un"), uid: Number(ask("-u")), gid: Number(ask("-g")) };
  } catch {
    throw new FatalError(
      `CampusWatch runs as root, so Chromium must run as an unprivileged user, but user "${name}" does not exist: ` +
        `create it or set CAMPUSWATCH_BROWSER_USER`,
    );
  }
  if (!Number.isInteger(user.uid) || !Number.isInteger(user.gid) || user.uid === 0) {
    throw new FatalError(`CAMPUSWATCH_BROWSER_USER="${name}" is root (uid 0): Chromium must run as an unprivileged user`);
  }
  return user;
}

function currentUser(): { name: string; uid: number } {
  const info = os.userInfo();
  return { name: info.username, uid: info.uid };
}

/** setpriv (util-linux) on the usual paths or PATH. */
function findSetpriv(): string {
  const dirs = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", ...(process.env.PATH ?? "").split(":").filter(Boolean)];
  for (const dir of dirs) {
    const candidate = path.join(dir, "setpriv");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // next directory
    }
  }
  throw new FatalError("CampusWatch runs as root and needs setpriv (util-linux) to run Chromium as an unprivileged user: apt-get install util-linux");
}

/** `it's` → `'it'\''s'`, for the generated shell script. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Write the wrapper: a root-owned script in a fresh private (0700) directory. Playwright needs
 * one executable; the wrapper gives the profile directory (the `--user-data-dir` Playwright made
 * as root) to the browser user, points HOME and the XDG directories there (the user's own home
 * may not exist or be writable), and becomes that user for good: no capabilities, and — unless
 * a setuid `chrome-sandbox` is installed (Debian's `chromium-sandbox` package, for kernels
 * without unprivileged user namespaces), which needs them — an empty bounding set and
 * no_new_privs. Chromium's user-namespace sandbox needs neither.
 */
function writeWrapper(chromium: string, user: BrowserUser): { dir: string; file: string } {
  const setpriv = findSetpriv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campuswatch-chromium-"));
  const file = path.join(dir, "chromium");
  const ids = `${user.uid}:${user.gid}`;
  const lockdown = setuidSandbox(chromium) ? "" : " --bounding-set=-all --no-new-privs";
  const script = `#!/bin/sh
# Written by CampusWatch (crawler/fetch/chromium-launch.ts), pid ${process.pid}: starts Chromium as
# user ${user.name} instead of root. Deleted once Chromium has started.
dir=
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) dir=\${arg#--user-data-dir=} ;;
  esac
done
if [ -n "$dir" ]; then
  chown -R -- ${ids} "$dir" || exit 111
  HOME=$dir XDG_CONFIG_HOME=$dir/.config XDG_CACHE_HOME=$dir/.cache
  export HOME XDG_CONFIG_HOME XDG_CACHE_HOME
fi
cd / || exit 111
exec ${shellQuote(setpriv)} --reuid=${user.uid} --regid=${user.gid} --init-groups --inh-caps=-all${lockdown} -- ${shellQuote(chromium)} "$@"
`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return { dir, file };
}

/**
 * The setuid-root `chrome-sandbox` helper, when installed next to Chromium's binary (Debian's
 * `chromium-sandbox` package puts it in /usr/lib/chromium). Chromium uses it only when user
 * namespaces are unavailable; it cannot work under no_new_privs or an empty bounding set.
 */
function setuidSandbox(chromium: string): string | null {
  const candidates = ["/usr/lib/chromium/chrome-sandbox"];
  try {
    candidates.push(path.join(path.dirname(fs.realpathSync(chromium)), "chrome-sandbox"));
  } catch {
    // the launch reports a missing Chromium
  }
  for (const candidate of candidates) {
    try {
      // Not a project file: keep the dashboard build from tracing the whole tree for it.
      const stat = fs.statSync(/*turbopackIgnore: true*/ candidate);
      if (stat.uid === 0 && (stat.mode & 0o4000) !== 0) return candidate;
    } catch {
      // not installed there
    }
  }
  return null;
}

/** Locale, time zone and PATH; as the process's own user also its HOME and temporary directory. */
function childEnv(confined: boolean): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH || "/usr/local/bin:/usr/bin:/bin" };
  const keep = ["LANG", "LANGUAGE", "TZ", "FONTCONFIG_PATH", "FONTCONFIG_FILE"];
  // The wrapper sets HOME and XDG_* for the browser user; /tmp is everyone's.
  if (!confined) keep.push("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR");
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (keep.includes(name) || name.startsWith("LC_"))) env[name] = value;
  }
  return env;
}

/**
 * Chromium's own words when a launch failed because its sandbox could not start ("No usable
 * sandbox! …", "Running as root without --no-sandbox is not supported. …", a namespace error), or
 * null when the failure was something else. Read from the browser's stderr lines in
 * Playwright's error, not from the command line it also quotes.
 */
export function sandboxFailure(err: unknown): string | null {
  // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes Chromium prints
  const text = (err instanceof Error ? err.message : String(err)).replace(/\x1b\[[0-9;]*m/g, "");
  for (const line of text.split("\n")) {
    const stderr = /\[pid=\d+\]\[err\]\s*(.*)$/.exec(line)?.[1];
    // "[8189:8189:1201/003013.850815:ERROR:content/…/zygote_host_impl_linux.cc:103] Running as root…"
    const said = stderr?.replace(/^\[[^\]]*\]\s*/, "").trim();
    if (said && /sandbox|namespace|setuid/i.test(said)) return said;
  }
  return /Chromium sandboxing failed/i.test(text) ? "Chromium sandboxing failed" : null;
}
