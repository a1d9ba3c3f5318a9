/**
 * Local proxies for tests, on loopback, that count what passes through them: an HTTP proxy
 * (CONNECT tunnels and absolute-form forwarding) and a SOCKS5 proxy (RFC 1928 CONNECT, RFC 1929
 * username/password). Each may require credentials and records every attempt — the target it
 * was asked for, whether the credentials were accepted — so a test can assert that a request
 * really went through the proxy, with the right credentials, and where it was going.
 */
import http from "node:http";
import net from "node:net";

/** One request to a proxy (a tunnel, or a forwarded HTTP request). */
export interface ProxyAttempt {
  /** `host:port` the client asked for, as it asked (a name, or an address for socks5). */
  target: string;
  /** "connect" (HTTP CONNECT), "forward" (absolute-form HTTP request) or "socks". */
  kind: "connect" | "forward" | "socks";
  /** Whether the credentials were accepted (true when none are required). */
  authorized: boolean;
  /** For socks: whether the target was sent as a domain name (socks5h) rather than an address. */
  byName?: boolean;
}

/** A running test proxy. */
export interface TestProxy {
  /** The proxy URL, with the credentials passed at start (or others given here). */
  url(credentials?: { username: string; password: string } | null): string;
  port: number;
  attempts: ProxyAttempt[];
  /** Attempts that were let through. */
  passed(): ProxyAttempt[];
  /** Bytes relayed from targets back to clients. */
  bytesRelayed(): number;
  close(): Promise<void>;
}

/** Options of both proxies. */
export interface TestProxyOptions {
  /** Require these credentials. */
  username?: string;
  password?: string;
  /** Names the proxy resolves itself (for socks5h / CONNECT by name): host → address. Unknown names go to the system resolver. */
  hosts?: Record<string, string>;
}

function splitHostPort(target: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
  if (!m) throw new Error(`bad target ${target}`);
  return { host: m[1]!, port: Number(m[2]) };
}

/** Track sockets so close() does not wait for keep-alive tunnels. */
function tracker() {
  const sockets = new Set<net.Socket>();
  return {
    add(s: net.Socket) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    },
    destroyAll() {
      for (const s of sockets) s.destroy();
    },
  };
}

/** Pipe two sockets, counting the bytes that flow back to the client. */
function splice(client: net.Socket, upstream: net.Socket, count: (n: number) => void): void {
  upstream.on("data", (chunk: Buffer) => count(chunk.length));
  client.once("close", () => upstream.destroy());
  upstream.once("close", () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
}

/** Start an HTTP proxy on 127.0.0.1 (CONNECT and forwarding). */
export async function startHttpProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const attempts: ProxyAttempt[] = [];
  let relayed = 0;
  const sockets = tracker();
  const expected = options.username !== undefined ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ""}`).toString("base64")}` : undefined;
  const authorized = (header: string | undefined) => expected === undefined || header === expected;
  const resolve = (host: string) => options.hosts?.[host] ?? host;

  const server = http.createServer((req, res) => {
    // Absolute-form forwarding ("GET http://host/path HTTP/1.1").
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("absolute URL expected");
      return;
    }
    const ok = authorized(req.headers["proxy-authorization"]);
    attempts.push({ target: `${target.hostname}:${target.port || 80}`, kind: "forward", authorized: ok });
    if (!ok) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = http.request(
      { host: resolve(target.hostname), port: target.port || 80, path: target.pathname + target.search, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on("data", (c: Buffer) => (relayed += c.length));
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on("connection", (s: net.Socket) => sockets.add(s));
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    const ok = authorized(req.headers["proxy-authorization"]);
    const target = req.url ?? "";
    attempts.push({ target, kind: "connect", authorized: ok });
    if (!ok) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    let host: string;
    let port: number;
    try {
      ({ host, port } = splitHostPort(target));
    } catch {
      client.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const upstream = net.connect({ host: resolve(host), port });
    sockets.add(upstream);
    upstream.once("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"));
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      splice(client, upstream, (n) => (relayed += n));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as net.AddressInfo).port;
  return handle(
    "http",
    port,
    options,
    attempts,
    () => relayed,
    async () => {
      sockets.destroyAll();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  );
}

/** Start a SOCKS5 proxy on 127.0.0.1 (CONNECT only; username/password when options ask for it). */
export async function startSocksProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const attempts: ProxyAttempt[] = [];
  let relayed = 0;
  const sockets = tracker();
  const needAuth = options.username !== undefined;

  const server = net.createServer((client) => {
    sockets.add(client);
    let buffer = Buffer.alloc(0);
    let stage: "greeting" | "auth" | "request" = "greeting";
    let ok = !needAuth;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === "greeting") {
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
        const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
        buffer = buffer.subarray(2 + buffer[1]!);
        const method = needAuth ? 2 : 0;
        if (!methods.includes(method)) {
          attempts.push({ target: "", kind: "socks", authorized: false });
          client.end(Buffer.from([5, 0xff]));
          return;
        }
        client.write(Buffer.from([5, method]));
        stage = needAuth ? "auth" : "request";
      }
      if (stage === "auth") {
        if (buffer.length < 2) return;
        const ulen = buffer[1]!;
        if (buffer.length < 3 + ulen || buffer.length < 3 + ulen + buffer[2 + ulen]!) return;
        const user = buffer.subarray(2, 2 + ulen).toString();
        const plen = buffer[2 + ulen]!;
        const pass = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
        buffer = buffer.subarray(3 + ulen + plen);
        ok = user === options.username && pass === (options.password ?? "");
        client.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) {
          attempts.push({ target: "", kind: "socks", authorized: false });
          client.end();
          return;
        }
        stage = "request";
      }
      if (buffer.length < 5) return;
      const type = buffer[3];
      let host: string;
      let end: number;
      if (type === 1) {
        if (buffer.length < 10) return;
        host = [...buffer.subarray(4, 8)].join(".");
        end = 8;
      } else if (type === 3) {
        if (buffer.length < 7 + buffer[4]!) return;
        host = buffer.subarray(5, 5 + buffer[4]!).toString();
        end = 5 + buffer[4]!;
      } else if (type === 4) {
        if (buffer.length < 22) return;
        const groups: string[] = [];
        for (let i = 0; i < 16; i += 2) groups.push(buffer.readUInt16BE(4 + i).toString(16));
        host = groups.join(":");
        end = 20;
      } else {
        client.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
        return;
      }
      const port = buffer.readUInt16BE(end);
      const rest = buffer.subarray(end + 2);
      client.off("data", onData);
      client.pause();
      attempts.push({ target: `${host}:${port}`, kind: "socks", authorized: ok, byName: type === 3 });
      const upstream = net.connect({ host: options.hosts?.[host] ?? host, port });
      sockets.add(upstream);
      upstream.once("error", (err: NodeJS.ErrnoException) => client.end(Buffer.from([5, err.code === "ECONNREFUSED" ? 5 : 4, 0, 1, 0, 0, 0, 0, 0, 0])));
      upstream.once("connect", () => {
        client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
        if (rest.length > 0) upstream.write(rest);
        splice(client, upstream, (n) => (relayed += n));
        client.resume();
      });
    };
    client.on("data", onData);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as net.AddressInfo).port;
  return handle(
    "socks5",
    port,
    options,
    attempts,
    () => relayed,
    async () => {
      sockets.destroyAll();
      await new Promise<void>((done) => server.close(() => done()));
    },
  );
}

function handle(
  scheme: string,
  port: number,
  options: TestProxyOptions,
  attempts: ProxyAttempt[],
  relayed: () => number,
  close: () => Promise<void>,
): TestProxy {
  return {
    port,
    attempts,
    url(credentials) {
      const creds =
        credentials === undefined ? (options.username !== undefined ? { username: options.username, password: options.password ?? "" } : null) : credentials;
      const userinfo = creds ? `${encodeURIComponent(creds.username)}:${encodeURIComponent(creds.password)}@` : "";
      return `${scheme}://${userinfo}127.0.0.1:${port}`;
    },
    passed: () => attempts.filter((a) => a.authorized),
    bytesRelayed: relayed,
    close,
  };
}

/** A port on loopback where nothing listens (a dead proxy). */
export async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((done) => s.listen(0, "127.0.0.1", done));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}
