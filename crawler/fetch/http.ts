/**
 * One HTTP GET on the wire, nothing else: no redirects, retries or politeness (the fetcher adds
 * those around it). Reads the whole body under a size cap and a deadline that covers headers and
 * body, because a server that trickles bytes must not hold a host slot forever.
 */
import zlib from "node:zlib";
import { request, type Dispatcher } from "undici";

/** Raised when the body exceeds the cap; the fetcher turns it into a NonRetryableError. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`page larger than ${limit} bytes`);
  }
}

/** Raised when the deadline passes; the fetcher retries it like a network error. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** One response as it came off the wire, body already un-gzipped but not decoded to text. */
export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (Set-Cookie kept apart in `setCookies`). */
  headers: Record<string, string>;
  setCookies: string[];
  body: Buffer;
}

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  maxBodyBytes: number;
  dispatcher?: Dispatcher;
}

/** GET `url` once. Throws {@link TimeoutError}, {@link BodyTooLargeError} or the network error. */
export async function httpGet(url: string, options: HttpGetOptions): Promise<RawResponse> {
  const controller = new AbortController();
  // Made when the deadline passes, not for every request: an Error captures a stack trace.
  let timeout: TimeoutError | undefined;
  const timer = setTimeout(() => controller.abort((timeout = new TimeoutError(options.timeoutMs))), options.timeoutMs);
  try {
    const res = await request(url, {
      method: "GET",
      headers: options.headers,
      signal: controller.signal,
      dispatcher: options.dispatcher,
    });
    const headers: Record<string, string> = {};
    const setCookies: string[] = [];
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      const key = name.toLowerCase();
      if (key === "set-cookie") {
        setCookies.push(...(Array.isArray(value) ? value : [value]));
        continue;
      }
      headers[key] = Array.isArray(value) ? value.join(", ") : value;
    }
    const declared = Number(headers["content-length"]);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      // No point downloading what we will refuse; destroying the body also drops the connection.
      res.body.destroy();
      throw new BodyTooLargeError(options.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > options.maxBodyBytes) {
        res.body.destroy();
        throw new BodyTooLargeError(options.maxBodyBytes);
      }
      chunks.push(chunk);
    }
    const body = decompress(Buffer.concat(chunks), headers["content-encoding"], options.maxBodyBytes);
    return { status: res.statusCode, headers, setCookies, body };
  } catch (err) {
    if (timeout && controller.signal.aborted && controller.signal.reason === timeout) throw timeout;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Undo Content-Encoding. Synchronous with `maxOutputLength` so a small gzip bomb cannot expand past
 * the same cap as a plain body; a few MiB inflate in milliseconds.
 */
function decompress(raw: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const enc = (encoding ?? "").trim().toLowerCase();
  if (!enc || enc === "identity" || raw.length === 0) return raw;
  const opts = { maxOutputLength: maxBytes };
  try {
    if (enc === "gzip" || enc === "x-gzip") return zlib.gunzipSync(raw, opts);
    if (enc === "br") return zlib.brotliDecompressSync(raw, opts);
    if (enc === "deflate") {
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
      try {
        return zlib.inflateSync(raw, opts);
      } catch (err) {
        if (isTooLarge(err)) throw err;
        return zlib.inflateRawSync(raw, opts);
      }
    }
  } catch (err) {
    if (isTooLarge(err)) throw new BodyTooLargeError(maxBytes);
    throw err;
  }
  // An encoding we did not ask for: hand the bytes over untouched rather than failing the page.
  return raw;
}

function isTooLarge(err: unknown): boolean {
  return err instanceof RangeError || (err instanceof Error && "code" in err && err.code === "ERR_BUFFER_TOO_LARGE");
}
