#!/usr/bin/env node
// The dashboard's HTTP server: Next.js's production request handler behind a plain node:http
// server (what `campuswatch serve`/`run` start; `node bin/dashboard-server.mjs --port P [--host H]`).
//
// Why not `next start`: Next.js passes a client's own `X-Forwarded-For` header through untouched,
// so the sign-in throttle could not tell who is asking. Here the socket's address is known, and the
// client address is decided once and handed on in `x-campuswatch-client` (any such header sent
// by the client is replaced):
// - CAMPUSWATCH_TRUSTED_PROXIES=0 (default): the socket's address; X-Forwarded-For is ignored.
// - CAMPUSWATCH_TRUSTED_PROXIES=N: behind N reverse proxies of yours, the address the outermost
//   one saw, i.e. the N-th entry from the right of X-Forwarded-For followed by the socket address.
//
// It listens on 127.0.0.1 unless --host or CAMPUSWATCH_HOST says otherwise (lib/config.ts
// dashboardHost). And it caps what a client that has not signed in may send: a body over 16 KB
// (lib/auth/pre-auth.ts) is answered 413 before Next.js reads it — at once when Content-Length says
// so, else as soon as a chunked body grows past the limit.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import next from "next";
import { installTestClock } from "./test-clock.mjs";

// Files this server creates (the session secret, SQLite's WAL and SHM) are readable by its user
// only: lib/private-files.ts says why.
process.umask(0o077);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The dashboard's own TypeScript for the listen address and the session check (one place for
 * each), compiled here into one self-contained module: a loader hook (tsx) would also see Next.js's
 * own requires and break its config loading.
 */
async function importServerModules() {
  const { outputFiles } = await build({
    stdin: {
      contents: 'export { dashboardHost, loopbackListenHint } from "./lib/config"; export { preAuthBodyLimit } from "./lib/auth/pre-auth";',
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}
const { dashboardHost, loopbackListenHint, preAuthBodyLimit } = await importServerModules();
const { values } = parseArgs({ options: { port: { type: "string", default: process.env.PORT ?? "3000" }, host: { type: "string" } } });
const host = dashboardHost(values.host);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number (got ${JSON.stringify(values.port)})`);
  process.exit(2);
}
const trusted = Number(process.env.CAMPUSWATCH_TRUSTED_PROXIES ?? 0);
if (!Number.isInteger(trusted) || trusted < 0) {
  console.error(`CAMPUSWATCH_TRUSTED_PROXIES must be a whole number of reverse proxies (got ${JSON.stringify(process.env.CAMPUSWATCH_TRUSTED_PROXIES)})`);
  process.exit(2);
}
installTestClock();

/** The client's address as described above. */
function clientAddress(req) {
  const socketAddress = (req.socket.remoteAddress ?? "").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
  if (trusted === 0) return socketAddress;
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, socketAddress];
  return chain[Math.max(0, chain.length - 1 - trusted)];
}

/**
 * A request that counts the bytes of its body as the HTTP parser hands them over (`push`), whether
 * or not anyone reads them yet, and stops passing them on past `bodyLimit`: Next.js then never holds
 * more than the limit, and the server answers 413 ("body-limit" event).
 */
class CountedRequest extends http.IncomingMessage {
  bodyBytes = 0;
  bodyLimit = Infinity;
  overLimit = false;

  push(chunk, encoding) {
    // Past the limit nothing more reaches Next.js, not even the end: a cut-off body must never
    // look like a whole one to a server action.
    if (this.overLimit) return true;
    if (chunk !== null && chunk !== undefined) {
      this.bodyBytes += chunk.length;
      if (this.bodyBytes > this.bodyLimit) {
        this.overLimit = true;
        this.emit("body-limit");
        return true;
      }
    }
    return super.push(chunk, encoding);
  }
}

/** How long a refused client may go on sending (discarded) after the 413, before the socket is cut. */
const LINGER_MS = 2000;

/**
 * Answer 413 and close the connection: the rest of the body never reaches Next.js, and a handler
 * still waiting for it gets an aborted request. Why not destroy at once: a client still uploading
 * would then meet a TCP reset, which can discard the 413 before it reads it (it sees only
 * "connection reset"). So the server half-closes after the answer, drops what still arrives
 * (CountedRequest), and cuts the socket when the client closes or after LINGER_MS.
 */
function tooLarge(req, res, limit) {
  if (res.headersSent) {
    req.destroy();
    return;
  }
  const body = `Request body too large: at most ${limit / 1024} KB before sign-in.\n`;
  res.writeHead(413, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body, () => {
    const socket = req.socket;
    if (!socket || socket.destroyed) return req.destroy();
    socket.end();
    const cut = setTimeout(() => req.destroy(), LINGER_MS);
    cut.unref();
    socket.once("close", () => {
      clearTimeout(cut);
      req.destroy();
    });
  });
}

const app = next({ dev: false, dir: root, hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();
const server = http.createServer({ IncomingMessage: CountedRequest }, async (req, res) => {
  req.headers["x-campuswatch-client"] = clientAddress(req);
  // With no trusted proxy in front, a client's own forwarding headers are not believed either.
  if (trusted === 0) {
    delete req.headers["x-forwarded-for"];
    delete req.headers["x-forwarded-proto"];
    delete req.headers["x-forwarded-host"];
  }
  try {
    const limit = await preAuthBodyLimit(req.url ?? "/", req.headers.cookie);
    if (limit !== null) {
      if (Number(req.headers["content-length"] ?? 0) > limit) return tooLarge(req, res, limit);
      req.bodyLimit = limit;
      if (req.bodyBytes > limit) return tooLarge(req, res, limit);
      req.once("body-limit", () => tooLarge(req, res, limit));
    }
    await handle(req, res);
  } catch (err) {
    // A request cut off at the limit makes Next.js's read of its body fail: that is no server error.
    if (!req.overLimit) console.error(err);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});
server.listen(port, host, () => {
  const hint = loopbackListenHint(host);
  // One write, so that whoever watches for the first line sees the hint with it.
  console.log([`dashboard listening on http://${host.includes(":") ? `[${host}]` : host}:${port}`, ...(hint ? [hint] : [])].join("\n"));
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
