/**
 * The crawler's Chromium is confined: never root (as root, CampusWatch starts it as an
 * unprivileged user), Chromium's sandbox wherever the kernel allows it (else `--no-sandbox`, said
 * once and recorded for the Workers page), a context that cannot reach internal addresses other
 * than the account's own host, and a cap on what one page may receive. Real Chromium, real local
 * servers: the trusted "account host" listens on 127.0.0.9, an internal service on 127.0.0.1.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AddressRefusedError, createAddressPolicy } from "../../../crawler/fetch/address-policy";
import { BrowserSession, closeSharedBrowser, type BrowserSessionOptions } from "../../../crawler/fetch/browser";
import { browserConfinement, runningAsRoot, sandboxFailure } from "../../../crawler/fetch/chromium-launch";
import { BodyTooLargeError } from "../../../crawler/fetch/http";
import { readBrowserSandboxNote } from "../../../lib/browser-sandbox";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = fs.existsSync(chromiumPath);
if (!haveChromium) console.warn(`[browser confinement tests] skipped: no Chromium at ${chromiumPath}`);
const itBrowser = haveChromium ? it : it.skip;
const itRoot = haveChromium && runningAsRoot() ? it : it.skip;

// The note for the Workers page goes to this process's own data dir, not the checkout's.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-confine-"));
process.env.CAMPUSWATCH_DATA_DIR = dataDir;

/** A real HTTP server on `host`, counting TCP connections (a WebSocket or a bare connect counts too). */
interface Site {
  origin: string;
  port: number;
  connections: number;
  paths: string[];
  close(): Promise<void>;
}

async function site(host: string, handler: http.RequestListener = (_req, res) => res.end("ok")): Promise<Site> {
  const server = http.createServer((req, res) => {
    s.paths.push(req.url ?? "");
    handler(req, res);
  });
  server.on("connection", () => s.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const s: Site = {
    origin: `http://${host}:${port}`,
    port,
    connections: 0,
    paths: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return s;
}

const html = (res: http.ServerResponse, body: string) => {
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.end(`<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`);
};

/** Every process below `pid`, with its uids, name, command line (Chromium rewrites it into one string), seccomp mode and user namespace. */
function descendants(pid: number): { pid: number; uids: number[]; comm: string; cmdline: string; seccomp: number; userNs: string }[] {
  const byParent = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const found: ReturnType<typeof descendants> = [];
  const queue = [...(byParent.get(pid) ?? [])];
  while (queue.length > 0) {
    const child = queue.shift()!;
    queue.push(...(byParent.get(child) ?? []));
    try {
      const status = fs.readFileSync(`/proc/${child}/status`, "utf8");
      const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, "m").exec(status)?.[1]?.split(/\s+/) ?? [];
      found.push({
        pid: child,
        uids: field("Uid").map(Number),
        comm: fs.readFileSync(`/proc/${child}/comm`, "utf8").trim(),
        cmdline: fs.readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" "),
        seccomp: Number(field("Seccomp")[0]),
        userNs: fs.readlinkSync(`/proc/${child}/ns/user`),
      });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const sessions: BrowserSession[] = [];
function session(options: Partial<BrowserSessionOptions> = {}): BrowserSession {
  const s = new BrowserSession({ executablePath: chromiumPath, userAgent: "CampusWatch-Test/1.0", idleMs: 60_000, ...options });
  sessions.push(s);
  return s;
}

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await closeSharedBrowser();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("who Chromium runs as", () => {
  itBrowser("never as root: as root, Chromium runs as an unprivileged user, sandboxed where the kernel allows, and says which", async () => {
    const home = await site("127.0.0.9", (_req, res) => html(res, "<p>hello</p>"));
    sites.push(home);
    const processes = await session().withPage(async (page) => {
      await page.goto(`${home.origin}/`);
      expect(await page.textContent("p")).toBe("hello");
      return descendants(process.pid).filter((p) => p.comm === "chromium");
    });

    expect(processes.length).toBeGreaterThan(1);
    const decision = browserConfinement(chromiumPath);
    expect(decision).toBeDefined();
    for (const p of processes) {
      // Real, effective, saved and filesystem uid alike: as root, the browser user's; otherwise ours.
      expect(p.uids, `pid ${p.pid} (${/--type=\S+/.exec(p.cmdline)?.[0] ?? "browser"})`).toEqual(Array(4).fill(decision!.uid));
    }
    if (runningAsRoot()) expect(decision!.uid).not.toBe(0);
    else expect(decision!.uid).toBe(process.getuid!());
    const renderers = processes.filter((p) => / --type=renderer /.test(p.cmdline));
    expect(renderers.length).toBeGreaterThan(0);
    if (decision!.sandbox) {
      // What the sandbox means on Linux: seccomp-bpf and a user namespace of its own.
      const ownNs = fs.readlinkSync("/proc/self/ns/user");
      for (const r of renderers) {
        expect(r.seccomp).toBe(2);
        expect(r.userNs).not.toBe(ownNs);
        expect(r.cmdline).not.toMatch(/ --no-sandbox( |$)/);
      }
      expect(decision!.reason).toBeNull();
    } else {
      expect(decision!.reason).toMatch(/\S/);
      for (const r of renderers) expect(r.cmdline).toMatch(/ --no-sandbox( |$)/);
    }

    // The Workers page reads the same finding.
    expect(readBrowserSandboxNote(dataDir)).toMatchObject({
      sandbox: decision!.sandbox,
      reason: decision!.reason,
      user: decision!.user,
      uid: decision!.uid,
      chromium: chromiumPath,
      hostname: os.hostname(),
      pid: process.pid,
    });
  });

  itRoot("recognises Chromium's own refusal to run as root without a sandbox (what the fallback keys on)", async () => {
    const { chromium } = await import("playwright-core");
    const err = await chromium.launch({ executablePath: chromiumPath, chromiumSandbox: true, args: ["--headless"] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(sandboxFailure(err)).toMatch(/Running as root without --no-sandbox is not supported/);
    // A failure that is not about the sandbox is not mistaken for one.
    const missing = await chromium.launch({ executablePath: "/nonexistent/chromium", chromiumSandbox: true }).catch((e: unknown) => e);
    expect(sandboxFailure(missing)).toBeNull();
  });

  itBrowser("falls back to --no-sandbox only when Chromium cannot start its sandbox, says so once, and records it", async () => {
    // A Chromium on a kernel without user namespaces (Chromium's own message, as printed on
    // Debian 12 with user.max_user_namespaces=0); given --no-sandbox it is the real Chromium.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-nouserns-"));
    fs.chmodSync(dir, 0o755); // the browser user must be able to run it
    const fake = path.join(dir, "chromium");
    fs.writeFileSync(
      fake,
      `#!/bin/sh
for arg in "$@"; do [ "$arg" = --no-sandbox ] && exec '${chromiumPath}' "$@"; done
echo "[18944:18944:1201/003615.728397:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:130] No usable sandbox! If this is a Debian system, please install the chromium-sandbox package to solve this problem." >&2
exit 1
`,
      { mode: 0o755 },
    );
    try {
      const logs: string[] = [];
      const home = await site("127.0.0.9", (_req, res) => html(res, "<p>still works</p>"));
      sites.push(home);
      const open = () =>
        session({ executablePath: fake, log: (m) => logs.push(m) }).withPage(async (page) => {
          await page.goto(`${home.origin}/`);
          return page.textContent("p");
        });

      expect(await open()).toBe("still works");
      expect(browserConfinement(fake)).toMatchObject({ sandbox: false, reason: expect.stringMatching(/^No usable sandbox!/) });
      expect(logs.filter((m) => m.includes("--no-sandbox"))).toHaveLength(1);
      expect(logs[0]).toMatch(/^Chromium's sandbox cannot start here \(No usable sandbox!.*\): running Chromium with --no-sandbox as user \S+ \(uid \d+\)/);
      expect(readBrowserSandboxNote(dataDir)).toMatchObject({ sandbox: false, reason: expect.stringMatching(/^No usable sandbox!/), chromium: fake });

      // Decided once per process: a relaunch (after the browser was closed) goes straight to --no-sandbox, silently.
      await closeSharedBrowser();
      expect(await open()).toBe("still works");
      expect(logs.filter((m) => m.includes("--no-sandbox"))).toHaveLength(1);
    } finally {
      await closeSharedBrowser();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("what a crawled page may reach", () => {
  let internal: Site;
  beforeAll(async () => {
    internal = await site("127.0.0.1", (_req, res) => res.end("secret"));
  });
  afterAll(() => internal.close());

  /** The account's host: a page whose markup and script reach for the internal service every way they can. */
  async function accountHost(): Promise<Site> {
    const other = internal.origin;
    const s = await site("127.0.0.9", (req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `${other}/redirected` });
        res.end();
      } else if (req.url === "/own.js") {
        res.setHeader("content-type", "text/javascript");
        res.end("window.ownScript = true;");
      } else {
        html(
          res,
          `<p id="text">校园论坛</p>
           <img src="${other}/x.png">
           <link rel="stylesheet" href="${other}/style.css">
           <script src="${other}/script.js"></script>
           <iframe src="${other}/frame"></iframe>
           <script src="/own.js"></script>
           <script>
             const settle = (p) => p.then(() => "reached", () => "blocked");
             const ws = new Promise((resolve, reject) => {
               const socket = new WebSocket("ws://${other.slice("http://".length)}/ws");
               socket.onopen = resolve;
               socket.onerror = reject;
             });
             const worker = new Promise((resolve, reject) => {
               const w = new Worker(URL.createObjectURL(new Blob(["fetch('${other}/worker').then(() => postMessage('reached'), () => postMessage('blocked'))"])));
               w.onmessage = (e) => (e.data === "reached" ? resolve() : reject());
             });
             Promise.all([
               settle(fetch("${other}/fetch", { mode: "no-cors" })),
               settle(fetch("/redirect", { mode: "no-cors" })),
               settle(new Promise((resolve, reject) => {
                 const x = new XMLHttpRequest();
                 x.open("GET", "${other}/xhr");
                 x.onload = resolve;
                 x.onerror = reject;
                 x.send();
               })),
               settle(ws),
               settle(worker),
             ]).then((results) => { window.results = results; });
           </script>`,
        );
      }
    });
    sites.push(s);
    return s;
  }

  itBrowser("blocks every request of a page to internal addresses other than the account's host, redirect hops included", async () => {
    const home = await accountHost();
    const refused: AddressRefusedError[] = [];
    const policy = createAddressPolicy({ trustedHosts: [new URL(home.origin).host] });
    const before = internal.connections;

    const results = await session({ addressPolicy: policy, onRefused: (e) => refused.push(e) }).withPage(async (page) => {
      await page.goto(`${home.origin}/`);
      await page.waitForFunction(() => (window as unknown as { results?: string[] }).results !== undefined);
      expect(await page.textContent("#text")).toBe("校园论坛");
      expect(await page.evaluate(() => (window as unknown as { ownScript?: boolean }).ownScript)).toBe(true);
      return page.evaluate(() => (window as unknown as { results: string[] }).results);
    });

    expect(results).toEqual(["blocked", "blocked", "blocked", "blocked", "blocked"]);
    // Not one connection reached the internal service: not the markup's, the script's, the
    // worker's, the WebSocket's, nor the redirect's.
    expect(internal.connections - before).toBe(0);
    expect(home.paths).toContain("/redirect");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e instanceof AddressRefusedError && e.address === "127.0.0.1" && e.range === "loopback")).toBe(true);
  });

  itBrowser("refuses a navigation to an internal address, directly or by redirect, as AddressRefusedError", async () => {
    const home = await accountHost();
    const policy = createAddressPolicy({ trustedHosts: [new URL(home.origin).host] });
    const browser = session({ addressPolicy: policy, onRefused: () => undefined });
    const before = internal.connections;

    const direct = await browser.withPage((page) => page.goto(`${internal.origin}/admin`)).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(AddressRefusedError);
    expect((direct as AddressRefusedError).url).toBe(`${internal.origin}/admin`);
    expect((direct as AddressRefusedError).message).toBe(`refused ${internal.origin}/admin: 127.0.0.1 is a loopback address (not a registered host)`);

    const redirected = await browser.withPage((page) => page.goto(`${home.origin}/redirect`)).catch((e: unknown) => e);
    expect(redirected).toBeInstanceOf(AddressRefusedError);
    expect((redirected as AddressRefusedError).url).toBe(`${internal.origin}/redirected`);
    expect((redirected as AddressRefusedError).redirectedFrom).toBe(`${home.origin}/redirect`);

    expect(internal.connections - before).toBe(0);

    // A connection that fails for other reasons says why, instead of Chromium's "ERR_SOCKS_CONNECTION_FAILED".
    const gone = await site("127.0.0.9");
    await gone.close();
    const closed = await session()
      .withPage((page) => page.goto(`${gone.origin}/`))
      .catch((e: unknown) => e);
    expect(closed).not.toBeInstanceOf(AddressRefusedError);
    expect((closed as Error).message).toBe(`Chromium could not open ${gone.origin}/: connect ECONNREFUSED 127.0.0.9:${gone.port}`);
  });
});

describe("how much a page may receive", () => {
  const LIMIT = 256 * 1024;
  const filler = (bytes: number) => Buffer.alloc(bytes, "<p>校园</p>\n");

  itBrowser("refuses a page that announces more than the cap, one that streams past it, and one whose script fetches past it", async () => {
    let endlessCut: Promise<boolean> | undefined;
    const home = await site("127.0.0.9", (req, res) => {
      if (req.url === "/announced") {
        res.writeHead(200, { "content-type": "text/html", "content-length": String(LIMIT * 4) });
        res.end(filler(LIMIT * 4));
      } else if (req.url === "/endless") {
        // No length: chunks until the client goes away (never, unless it is cut off).
        res.writeHead(200, { "content-type": "text/html" });
        const chunk = filler(64 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once("drain", pump);
        };
        endlessCut = new Promise((resolve) => res.on("close", () => resolve(!res.writableEnded)));
        pump();
      } else if (req.url === "/big.json") {
        res.setHeader("content-type", "application/json");
        res.end(Buffer.alloc(LIMIT * 4, " "));
      } else if (req.url === "/fetches") {
        html(res, `<p>small</p><script>fetch("/big.json").then((r) => r.text()).then((t) => (window.size = t.length), () => {});</script>`);
      } else {
        html(res, "<p>small</p>");
      }
    });
    sites.push(home);
    const browser = session({ maxPageBytes: LIMIT });

    // A page under the cap is read as usual.
    expect(await browser.withPage(async (page) => (await page.goto(`${home.origin}/small`), page.textContent("p")))).toBe("small");

    for (const target of ["/announced", "/endless", "/fetches"]) {
      const err = await browser
        .withPage(async (page) => {
          await page.goto(`${home.origin}${target}`);
          // The script's download is part of the page: wait for it like the fetcher's settle does.
          await page.waitForFunction(() => (window as unknown as { size?: number }).size !== undefined);
          return "read";
        })
        .catch((e: unknown) => e);
      expect(err, target).toBeInstanceOf(BodyTooLargeError);
      expect((err as BodyTooLargeError).message).toBe(`page larger than ${LIMIT} bytes`);
    }
    // The endless page was cut off, not read to the end.
    expect(await endlessCut).toBe(true);
  });
});
