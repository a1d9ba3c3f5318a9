#!/usr/bin/env node
// The dashboard's HTTP server: Next.js's production request handler behind a plain node:http
// server (what `campuswatch serve`/`run` start; `node bin/dashboard-server.mjs --port P --host H`).
//
// Why not `next start`: Next.js passes a client's own `X-Forwarded-For` header through untouched,
// so the sign-in throttle could not tell who is asking. Here the socket's address is known, and the
// client address is decided once and handed on in `x-campuswatch-client` (any such header sent
// by the client is replaced):
// - CAMPUSWATCH_TRUSTED_PROXIES=0 (default): the socket's address; X-Forwarded-For is ignored.
// - CAMPUSWATCH_TRUSTED_PROXIES=N: behind N reverse proxies of yours, the address the outermost
//   one saw, i.e. the N-th entry from the right of X-Forwarded-For followed by the socket address.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import next from "next";
import { installTestClock } from "./test-clock.mjs";

// Files this server creates (the session secret, SQLite's WAL and SHM) are readable by its user
// only: lib/private-files.ts says why.
process.umask(0o077);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { port: { type: "string", default: process.env.PORT ?? "3000" }, host: { type: "string", default: "0.0.0.0" } } });
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

const app = next({ dev: false, dir: root, hostname: values.host, port });
const handle = app.getRequestHandler();
await app.prepare();
const server = http.createServer((req, res) => {
  req.headers["x-campuswatch-client"] = clientAddress(req);
  // With no trusted proxy in front, a client's own forwarding headers are not believed either.
  if (trusted === 0) {
    delete req.headers["x-forwarded-for"];
    delete req.headers["x-forwarded-proto"];
    delete req.headers["x-forwarded-host"];
  }
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(port, values.host, () => console.log(`dashboard listening on http://${values.host}:${port}`));
const stop = () => server.close(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
