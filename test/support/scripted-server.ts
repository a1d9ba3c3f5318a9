/**
 * A real HTTP server on 127.0.0.1 whose routes play scripted responses, for testing anything that
 * goes through the fetcher: status sequences ("418, then 200"), Retry-After, slow or huge bodies,
 * redirect loops, GBK bodies, captcha pages, robots.txt, cookies. It logs every request with start
 * and end times and tracks how many were in flight per Host, so politeness is measured where it
 * matters: at the server.
 *
 * @example
 * const server = await startScriptedServer();
 * server.route("/robots.txt", { body: "User-agent: *\nDisallow: /private" });
 * server.route("/flaky", [{ status: 418, headers: { "retry-after": "1" } }, { body: "ok" }]);
 * server.route("/gbk", { body: "<p>你好</p>", encoding: "gbk", headers: { "content-type": "text/html; charset=gbk" } });
 * await fetcher.get(server.url("/flaky"));
 * expect(server.requestsTo("/flaky")).toHaveLength(2);
 * await server.close();
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import iconv from "iconv-lite";

/** One scripted response. Every field is optional: `{}` is an empty 200. */
export interface ScriptedResponse {
  /** @default 200 */
  status?: number;
  /** Response headers; an array value sends the header several times (e.g. Set-Cookie). */
  headers?: Record<string, string | string[]>;
  /** The body. A string is encoded with `encoding`. */
  body?: string | Buffer;
  /** iconv-lite encoding for a string body, e.g. `"gbk"`, `"big5"`. @default "utf-8" */
  encoding?: string;
  /** Instead of `body`: this many bytes of filler, streamed in 64 KiB chunks (huge pages). */
  bodyBytes?: number;
  /** Wait this long before sending the status line (slow server). @default 0 */
  delayMs?: number;
  /**
   * Send the body in `chunks` pieces with this pause between them (slow body: headers arrive,
   * then the body trickles). @default 0
   */
  chunkDelayMs?: number;
  /** How many pieces a trickled body is cut into. @default 10 */
  chunks?: number;
  /** Gzip the body and send `Content-Encoding: gzip`. @default false */
  gzip?: boolean;
}

/** What a route's handler or a test sees of one request. */
export interface RequestRecord {
  method: string;
  /** Path with query, as sent. */
  path: string;
  /** The Host header (host:port), the politeness key. */
  host: string;
  /** Lower-case request headers. */
  headers: http.IncomingHttpHeaders;
  /** 0-based index of this request among those to the same route. */
  index: number;
  /** performance.now() when the request arrived. */
  start: number;
  /** performance.now() when the response finished or the client went away; undefined while in flight. */
  end?: number;
  /** Status sent (once the response started). */
  status?: number;
  /** True when the client closed the connection before the response was complete (timeout, size cap). */
  aborted?: boolean;
}

/** A function computing the response from the request (cookies, headers, call count…). */
export type RouteHandler = (req: RequestRecord) => ScriptedResponse | Promise<ScriptedResponse>;

/**
 * What a route plays: one response for every request, a sequence (the n-th request gets the n-th
 * response; the last one repeats), or a handler.
 */
export type RouteScript = ScriptedResponse | readonly ScriptedResponse[] | RouteHandler;

/** Options of {@link startScriptedServer}. */
export interface ScriptedServerOptions {
  /** Interface to listen on. @default "127.0.0.1" */
  host?: string;
}

/** A running scripted server. Create with {@link startScriptedServer}. */
export interface ScriptedServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Absolute URL of `path` on this server. */
  url(path: string): string;
  /** Script `path` (exact match on the path without query). Later calls replace earlier ones. */
  route(path: string, script: RouteScript): ScriptedServer;
  /** Every request received, in arrival order. */
  readonly requests: readonly RequestRecord[];
  /** Requests whose path (without query) is `path`. */
  requestsTo(path: string): RequestRecord[];
  /** The most requests that were ever in flight at once for `host` (a Host header), or for any single host when omitted. */
  maxInFlight(host?: string): number;
  /**
   * Gaps in ms between the end of each request and the start of the next one to the same host,
   * in order. Requests still in flight are ignored. With polite clients all gaps are ≥ the delay.
   */
  gaps(host?: string): number[];
  /** Forget logged requests and in-flight maxima (routes stay). */
  clearLog(): void;
  /** Stop the server, cutting open connections (slow responses included). */
  close(): Promise<void>;
}

/** Headers and body of a redirect to `location`. */
export function redirect(location: string, status = 302): ScriptedResponse {
  return { status, headers: { location } };
}

/** A page with a title and body, as an HTML ScriptedResponse (UTF-8 unless `encoding` is given). */
export function htmlPage(title: string, bodyHtml = "", extra: ScriptedResponse = {}): ScriptedResponse {
  const charset = extra.encoding ?? "utf-8";
  return {
    ...extra,
    headers: { "content-type": `text/html; charset=${charset}`, ...extra.headers },
    body: `<!doctype html><html><head><title>${title}</title></head><body>${bodyHtml}</body></html>`,
  };
}

/** A JSON ScriptedResponse. */
export function jsonBody(value: unknown, extra: ScriptedResponse = {}): ScriptedResponse {
  return { ...extra, headers: { "content-type": "application/json; charset=utf-8", ...extra.headers }, body: JSON.stringify(value) };
}

/** Start a scripted server on an ephemeral port. */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const routes = new Map<string, RouteScript>();
  const counts = new Map<string, number>();
  const requests: RequestRecord[] = [];
  const inFlight = new Map<string, number>();
  const maxima = new Map<string, number>();

  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    const bare = path.split("?")[0] ?? "/";
    const host = req.headers.host ?? "";
    const index = counts.get(bare) ?? 0;
    counts.set(bare, index + 1);
    const record: RequestRecord = { method: req.method ?? "GET", path, host, headers: req.headers, index, start: performance.now() };
    requests.push(record);

    const now = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, now);
    maxima.set(host, Math.max(maxima.get(host) ?? 0, now));
    let done = false;
    const finish = (aborted: boolean) => {
      if (done) return;
      done = true;
      record.end = performance.now();
      if (aborted) record.aborted = true;
      inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
    };
    res.on("finish", () => finish(false));
    res.on("close", () => finish(!res.writableFinished));

    void respond(routes.get(bare), record, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`scripted server error: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${options.host ?? "127.0.0.1"}:${port}`;

  const api: ScriptedServer = {
    port,
    origin,
    url: (path) => new URL(path, origin).href,
    route(path, script) {
      routes.set(path, script);
      return api;
    },
    requests,
    requestsTo: (path) => requests.filter((r) => (r.path.split("?")[0] ?? "") === path),
    maxInFlight(host) {
      if (host !== undefined) return maxima.get(host) ?? 0;
      return Math.max(0, ...maxima.values());
    },
    gaps(host) {
      const byHost = new Map<string, RequestRecord[]>();
      for (const r of requests) {
        if (host !== undefined && r.host !== host) continue;
        byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
      }
      const gaps: number[] = [];
      for (const list of byHost.values()) {
        const sorted = [...list].sort((a, b) => a.start - b.start);
        for (let i = 1; i < sorted.length; i++) {
          const prevEnd = sorted[i - 1]?.end;
          const start = sorted[i]?.start;
          if (prevEnd !== undefined && start !== undefined) gaps.push(start - prevEnd);
        }
      }
      return gaps;
    },
    clearLog() {
      requests.length = 0;
      maxima.clear();
      counts.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

async function respond(script: RouteScript | undefined, record: RequestRecord, res: http.ServerResponse): Promise<void> {
  const scripted = await pick(script, record);
  if (scripted.delayMs) await pause(scripted.delayMs);
  if (res.destroyed) return;

  let body: Buffer | undefined =
    scripted.body === undefined ? undefined : typeof scripted.body === "string" ? iconv.encode(scripted.body, scripted.encoding ?? "utf-8") : scripted.body;
  const headers: Record<string, string | string[]> = { ...scripted.headers };
  if (scripted.gzip && body) {
    body = zlib.gzipSync(body);
    headers["content-encoding"] = "gzip";
  }
  record.status = scripted.status ?? 200;
  res.writeHead(record.status, headers);

  if (scripted.bodyBytes !== undefined) {
    await streamFiller(res, scripted.bodyBytes);
    return;
  }
  if (!body || body.length === 0) {
    res.end();
    return;
  }
  if (scripted.chunkDelayMs) {
    const pieces = Math.max(1, scripted.chunks ?? 10);
    const size = Math.ceil(body.length / pieces);
    for (let offset = 0; offset < body.length && !res.destroyed; offset += size) {
      res.write(body.subarray(offset, offset + size));
      await pause(scripted.chunkDelayMs);
    }
    if (!res.destroyed) res.end();
    return;
  }
  res.end(body);
}

async function pick(script: RouteScript | undefined, record: RequestRecord): Promise<ScriptedResponse> {
  if (script === undefined) return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
  if (typeof script === "function") return script(record);
  if (isSequence(script)) return script[Math.min(record.index, script.length - 1)] ?? {};
  return script;
}

function isSequence(script: ScriptedResponse | readonly ScriptedResponse[]): script is readonly ScriptedResponse[] {
  return Array.isArray(script);
}

/** Write `total` filler bytes, respecting back-pressure and stopping when the client hangs up. */
async function streamFiller(res: http.ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  while (sent < total && !res.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
    sent += piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        res.once("drain", resolve);
        res.once("close", resolve);
      });
    }
  }
  if (!res.destroyed) res.end();
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
