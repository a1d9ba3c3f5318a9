/**
 * One node:http server that routes by path shape to the four local platforms, with scripted
 * faults and a request log. See index.ts for the public API.
 *
 * Its parts: router.ts (which page a path asks for, entry URLs and platformIds), faults.ts
 * (scripted misbehaviour), request-log.ts (what was asked and answered), captures.ts (the real
 * captures on origins of their own) and login.ts (member sessions). This file starts the servers
 * and wires the parts to each request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import iconv from "iconv-lite";
import { answerCapture, CAPTURE_SITES, locateCaptures, type CaptureSite, type CaptureSiteName } from "./captures";
import type { LocalAccount, LocalPost, LocalReply, ModelOptions } from "./entities";
import { answerFault, createFaults, type Fault, type FaultHandle, type FaultMatch } from "./faults";
import { createLogins, type LocalLogins } from "./login";
import { PlatformModel } from "./model";
import { createRequestLog, type RequestFilter, type RequestLogEntry } from "./request-log";
import { DEFAULT_PAGE_SIZES, notFound, type PageSizes, type Rendered } from "./responses";
import { createRouter, entryPath, platformIdOf, type Routed } from "./router";
import type { WeiboDateStyle } from "./weibo";
import { createValidators, type ValidatorMode } from "./validators";

export type { Fault, FaultHandle, FaultMatch } from "./faults";
export type { RequestFilter, RequestLogEntry } from "./request-log";

/** Options of {@link startLocalPlatforms}: the generated world plus how it is served. */
export interface LocalPlatformsOptions extends ModelOptions {
  /** Smaller pages make pagination cheap to test. @default DEFAULT_PAGE_SIZES (the real sizes) */
  pageSizes?: Partial<PageSizes>;
  /** Weibo timeline dates: the short list forms or the full RFC form. @default "short" */
  weiboDates?: WeiboDateStyle;
  /** Served at /robots.txt. @default allow everything */
  robotsTxt?: string;
  /** GBK boards declare their charset in the header and `<meta>` ("both"), or only in `<meta>`. @default "both" */
  gbkDeclared?: "both" | "meta-only";
  /**
   * Also serve the real captures (one extra origin per captured site, see `captures`). `true`
   * uses ../shared/fixtures/real beside the repo; a string is another folder. When the folder is
   * missing, `captures` is null and `capturesSkipReason` says why (also printed once).
   * @default false
   */
  realCaptures?: boolean | string;
  /**
   * List pages carry an ETag, a Last-Modified or both, and answer 304 to a conditional request
   * that still holds (./validators.ts). @default off
   */
  validators?: ValidatorMode;
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
}

/** A running set of local platforms. See index.ts for the API overview. */
export interface LocalPlatforms {
  /** `http://127.0.0.1:PORT`: every generated account's entry URL is on it. */
  readonly origin: string;
  readonly model: PlatformModel;
  readonly clock: PlatformModel["clock"];
  readonly accounts: readonly LocalAccount[];
  readonly pageSizes: PageSizes;
  account(key: string): LocalAccount;
  /** The entry URL to register for an account: /u/{uid}, /f?kw=, /bbs/forum.php?mod=forumdisplay&fid=, /blog/{slug}/. */
  entryUrl(key: string): string;
  /** The platformId the adapters give this post or reply. */
  platformIdOf(item: LocalPost | LocalReply): string;
  addPost: PlatformModel["addPost"];
  addReply: PlatformModel["addReply"];
  editPost: PlatformModel["editPost"];
  editReply: PlatformModel["editReply"];
  pin: PlatformModel["pin"];
  /** Delete a post (`removePost(id, false)` restores it). */
  removePost: PlatformModel["removePost"];
  /** Delete a reply (`removeReply(id, false)` restores it). */
  removeReply: PlatformModel["removeReply"];
  setEncoding: PlatformModel["setEncoding"];
  simulateActivity: PlatformModel["simulateActivity"];
  fault(match: FaultMatch, fault: Fault): FaultHandle;
  clearFaults(): void;
  requests(filter?: RequestFilter): RequestLogEntry[];
  /** Sequence number of the last logged request (0 before any). */
  lastSeq(): number;
  clearRequests(): void;
  /** Member logins: sign in, expire sessions, members-only boards (./login.ts). */
  readonly logins: LocalLogins;
  /** The real capture sites, or null (see `capturesSkipReason`). */
  readonly captures: Readonly<Record<CaptureSiteName, CaptureSite>> | null;
  readonly capturesSkipReason: string | null;
  close(): Promise<void>;
}

/** Start the local platforms (and, if asked, the capture sites). Always `close()` them. */
export async function startLocalPlatforms(options: LocalPlatformsOptions = {}): Promise<LocalPlatforms> {
  const model = new PlatformModel(options);
  const sizes: PageSizes = { ...DEFAULT_PAGE_SIZES, ...options.pageSizes };
  const host = options.host ?? "127.0.0.1";
  const log = createRequestLog();
  const faults = createFaults();
  const logins = createLogins(model);
  let origin = "";
  const conditional = options.validators ? createValidators(options.validators, () => model.clock.now()) : null;
  const route = createRouter({
    model,
    sizes,
    weiboDates: options.weiboDates ?? "short",
    robotsTxt: options.robotsTxt ?? "User-agent: *\nAllow: /\n",
    origin: () => origin,
  });

  function send(res: http.ServerResponse, r: Rendered): void {
    const gbk = r.charset === "gbk";
    const body = gbk ? iconv.encode(r.body, "gbk") : Buffer.from(r.body, "utf8");
    const contentType = gbk && options.gbkDeclared === "meta-only" ? "text/html" : r.contentType;
    res.writeHead(r.status, { "content-type": contentType, "content-length": String(body.length), ...r.headers });
    res.end(body);
  }

  /** Handles one request: faults first, then the router (`answer` differs for capture sites). */
  function handler(answer: (url: URL, cookie?: string) => Routed, serverOrigin: () => string): http.RequestListener {
    return (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? "/", serverOrigin());
        const entry = log.begin(req.method ?? "GET", url, serverOrigin(), model.clock.now());
        // A request ends for the host when its answer has been handed to the OS ("finish"), which
        // on a busy machine can be well before "close" runs; "close" covers answers never finished.
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          log.end(entry);
        };
        res.once("finish", end);
        res.once("close", end);
        let routed: Routed;
        try {
          routed = answer(url, req.headers.cookie);
        } catch (err) {
          routed = { rendered: { status: 500, contentType: "text/plain", body: String(err) }, platform: null, accountKey: null, kind: "other" };
        }
        entry.platform = routed.platform;
        entry.accountKey = routed.accountKey;
        entry.kind = routed.kind;
        const fault = faults.take(url);
        let rendered = routed.rendered;
        if (conditional && routed.kind === "list") rendered = conditional(url, req, rendered);
        if (fault) {
          entry.fault = fault.type;
          rendered = await answerFault(fault, url, rendered);
        }
        entry.status = rendered.status;
        if (!res.destroyed) send(res, rendered);
      })();
    };
  }

  const servers: http.Server[] = [];
  const listen = async (server: http.Server): Promise<string> => {
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    return `http://${host}:${addr.port}`;
  };

  // Member logins decorate the main server's answers (./login.ts); capture sites stay as captured.
  const main = http.createServer(
    handler(
      (url, cookie) => logins.apply(route(url), url, cookie),
      () => origin,
    ),
  );
  origin = await listen(main);

  // Real captures: one origin per captured site.
  let captures: Record<CaptureSiteName, CaptureSite> | null = null;
  let capturesSkipReason: string | null = null;
  if (options.realCaptures) {
    const found = locateCaptures(typeof options.realCaptures === "string" ? options.realCaptures : undefined);
    if ("reason" in found) {
      capturesSkipReason = found.reason;
      console.warn(`[local platforms] ${found.reason}: real captures are not served`);
    } else {
      const sites: Partial<Record<CaptureSiteName, CaptureSite>> = {};
      for (const name of Object.keys(CAPTURE_SITES) as CaptureSiteName[]) {
        const def = CAPTURE_SITES[name];
        let siteOrigin = "";
        const answer = (url: URL): Routed => {
          const hit = answerCapture(name, found.dir, url);
          return hit
            ? { rendered: hit.rendered, platform: def.platform, accountKey: `capture:${name}`, kind: hit.kind }
            : { rendered: notFound(), platform: def.platform, accountKey: `capture:${name}`, kind: "other" };
        };
        siteOrigin = await listen(http.createServer(handler(answer, () => siteOrigin)));
        sites[name] = { name, platform: def.platform, origin: siteOrigin, entryUrl: siteOrigin + def.entryPath };
      }
      captures = sites as Record<CaptureSiteName, CaptureSite>;
    }
  }

  return {
    origin,
    model,
    clock: model.clock,
    accounts: model.accounts,
    pageSizes: sizes,
    account: (key) => model.account(key),
    entryUrl: (key) => origin + entryPath(model.account(key)),
    platformIdOf: (item) => platformIdOf(model, item),
    addPost: (...args) => model.addPost(...args),
    addReply: (...args) => model.addReply(...args),
    editPost: (...args) => model.editPost(...args),
    editReply: (...args) => model.editReply(...args),
    pin: (...args) => model.pin(...args),
    removePost: (...args) => model.removePost(...args),
    removeReply: (...args) => model.removeReply(...args),
    setEncoding: (...args) => model.setEncoding(...args),
    simulateActivity: (...args) => model.simulateActivity(...args),
    fault: (match, fault) => faults.add(match, fault),
    clearFaults: () => faults.clear(),
    requests: (filter = {}) => log.filter(filter),
    lastSeq: () => log.lastSeq(),
    clearRequests: () => log.clear(),
    logins,
    captures,
    capturesSkipReason,
    async close() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
