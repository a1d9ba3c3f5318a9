/**
 * The dashboard's HTTP server as an operator starts it (issue 29): `campuswatch serve` with no
 * `--host` listens on 127.0.0.1 only and says how to reach it from elsewhere; CAMPUSWATCH_HOST moves
 * it; and a client that has not signed in cannot send a body over 16 KB — refused with 413 whether
 * Content-Length announces it or a chunked body grows past it — while a signed-in one can.
 *
 * Real parts: the production build of `npm test` (NEXT_DIST_DIR, `.next-test`), the real CLI and
 * bin/dashboard-server.mjs as child processes, a real SQLite database, raw HTTP on loopback.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PRE_AUTH_BODY_LIMIT_BYTES } from "@/lib/auth/pre-auth";
import { SESSION_COOKIE, signSession } from "@/lib/auth/session";
import { createTestDb, type TestDb } from "../../support/db";

const root = path.resolve(import.meta.dirname, "../../..");
const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
const built = fs.existsSync(path.join(root, distDir, "BUILD_ID"));
if (!built) console.warn(`server-defaults.test.ts skipped: no production build in ${distDir} (NEXT_DIST_DIR=${distDir} npx next build; npm test makes it)`);

// The servers and this process sign sessions with the same key.
const SECRET = "h1-server-defaults-test-secret-0123456789abcdef";
process.env.CAMPUSWATCH_SECRET = SECRET;

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

interface Started {
  child: ChildProcess;
  port: number;
  /** Everything printed so far. */
  output: () => string;
}

/** Start a server and wait for its "listening" line. */
async function start(args: string[], env: NodeJS.ProcessEnv, port: number): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString("utf8");
      if (/dashboard listening on \S+\n/.test(out)) resolve();
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    child.on("exit", (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  return { child, port, output: () => out };
}

async function stop(s: Started | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((resolve) => s.child.once("exit", resolve));
  s.child.kill("SIGTERM");
  await exited;
}

/** Whether a TCP connection to host:port is accepted (true) or refused (false). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNREFUSED" ? resolve(false) : reject(e)));
  });
}

/**
 * POST `size` bytes to `url`: with Content-Length, or chunked in 4 KB pieces (no length announced).
 * Resolves with the status, or "reset" when the server closed the connection without an answer.
 */
function post(url: string, size: number, opts: { chunked?: boolean; cookie?: string } = {}): Promise<number | "reset"> {
  const body = Buffer.alloc(size, "a");
  const headers: http.OutgoingHttpHeaders = { "content-type": "application/x-www-form-urlencoded" };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (!opts.chunked) headers["content-length"] = size;
  return new Promise((resolve) => {
    const req = http.request(url, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", () => resolve("reset"));
    if (opts.chunked) {
      for (let i = 0; i < size; i += 4096) req.write(body.subarray(i, i + 4096));
      req.end();
    } else {
      req.end(body);
    }
  });
}

describe.skipIf(!built)("the dashboard server's defaults", () => {
  let t: TestDb;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let served: Started | undefined;

  beforeAll(async () => {
    t = await createTestDb();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-serve-"));
    env = {
      ...process.env,
      DATABASE_URL: t.url,
      CAMPUSWATCH_DATA_DIR: dataDir,
      CAMPUSWATCH_SECRET: SECRET,
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: "1",
    };
    delete env.CAMPUSWATCH_HOST;
    const port = await freePort();
    served = await start([path.join(root, "bin/campuswatch.mjs"), "serve", "--port", String(port)], env, port);
  });
  afterAll(async () => {
    await stop(served);
    await t?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("`campuswatch serve` without --host listens on 127.0.0.1 only, and says how to reach it from elsewhere", async () => {
    const { port, output } = served!;
    expect(output()).toContain(`dashboard listening on http://127.0.0.1:${port}`);
    expect(output()).toMatch(/accepts connections from this machine only \(127\.0\.0\.1\).*reverse proxy.*CAMPUSWATCH_HOST=0\.0\.0\.0/);
    expect(await connects("127.0.0.1", port)).toBe(true);
    // Bound to 0.0.0.0 it would answer on every loopback address too.
    expect(await connects("127.0.0.2", port)).toBe(false);
  });

  test("CAMPUSWATCH_HOST moves it (bin/dashboard-server.mjs started directly)", async () => {
    const port = await freePort();
    const other = await start(
      [path.join(root, "bin/dashboard-server.mjs"), "--port", String(port)],
      { ...env, CAMPUSWATCH_HOST: "127.0.0.3", NODE_ENV: "production" },
      port,
    );
    try {
      expect(other.output()).toContain(`dashboard listening on http://127.0.0.3:${port}`);
      expect(await connects("127.0.0.3", port)).toBe(true);
      expect(await connects("127.0.0.1", port)).toBe(false);
    } finally {
      await stop(other);
    }
  });

  test("before sign-in a body over 16 KB is refused with 413, announced or chunked; a small one gets through", async () => {
    const base = `http://127.0.0.1:${served!.port}`;
    const over = PRE_AUTH_BODY_LIMIT_BYTES + 1;
    expect(await post(`${base}/sign-in`, over)).toBe(413);
    expect(await post(`${base}/sign-in`, 64 * 1024, { chunked: true })).toBe(413);
    expect(await post(`${base}/setup?token=x`, over)).toBe(413);
    expect(await post(`${base}/setup?token=x`, 64 * 1024, { chunked: true })).toBe(413);
    // Any other path without a session: the same (Next.js would otherwise read 10 MB for its proxy).
    expect(await post(`${base}/topics`, 1024 * 1024, { chunked: true })).toBe(413);
    expect(await post(`${base}/topics`, over, { cookie: `${SESSION_COOKIE}=forged.token.value` })).toBe(413);
    // At the limit: handed on to Next.js, which answers as it does (not 413).
    expect(await post(`${base}/sign-in`, PRE_AUTH_BODY_LIMIT_BYTES, { chunked: true })).not.toBe(413);
    expect(await post(`${base}/sign-in`, 200)).not.toBe(413);
    // The server is still well after all that.
    expect(await post(`${base}/sign-in`, 200)).not.toBe(413);
  });

  test("with a valid session, bodies over 16 KB reach Next.js (uploads have their own, larger limits)", async () => {
    const base = `http://127.0.0.1:${served!.port}`;
    const admin = await t.db.user.create({ data: { username: "boss", passwordHash: "x", role: "admin" } });
    const token = await signSession({ userId: admin.id, username: admin.username, role: "admin", sessionVersion: admin.sessionVersion });
    const status = await post(`${base}/topics`, 64 * 1024, { chunked: true, cookie: `${SESSION_COOKIE}=${token}` });
    expect(status).not.toBe(413);
    expect(status).not.toBe("reset");
  });
});
