/**
 * Redirects over plain HTTP, followed by the fetcher itself rather than by undici, so every hop
 * passes the address policy, robots.txt, the host queue and retries like a first request, and a
 * loop is caught. (Chromium follows its own redirects; its hops are checked by the browser gate.)
 */
import { NonRetryableError } from "../errors";
import { AddressRefusedError } from "./address-policy";
import { httpUrl, type Exchange } from "./exchange";

/** Options of {@link followRedirects}. */
export interface RedirectOptions {
  /** Redirects followed per `get()`; more is a NonRetryableError "redirect loop". */
  maxRedirects: number;
  /**
   * What makes two requests "the same" for loop detection: the URL together with the cookies we
   * would send it. "Set a cookie and come back" is a normal pattern; the same request twice is a loop.
   */
  loopKey(url: string): string;
}

/**
 * Where a response redirects to: its Location resolved against the URL that answered and
 * normalized, or undefined when it is not a redirect (304 included), came through Chromium, or
 * points nowhere usable (no Location, not http(s), unparseable).
 */
export function redirectTarget(ex: Exchange): string | undefined {
  if (ex.viaBrowser || ex.status < 300 || ex.status >= 400 || ex.status === 304) return undefined;
  const location = ex.headers["location"];
  if (!location) return undefined;
  try {
    return httpUrl(new URL(location, ex.url).href);
  } catch {
    return undefined;
  }
}

/**
 * Request `url` through `exchange` (one URL, retries included) and follow redirects until a
 * response that is not one. Throws a NonRetryableError on a loop or too many hops; an address
 * refusal of a redirect target names the page that redirected to it.
 */
export async function followRedirects(url: string, exchange: (url: string) => Promise<Exchange>, options: RedirectOptions): Promise<Exchange> {
  const chain = [url];
  const seen = new Set<string>([options.loopKey(url)]);
  let current = url;
  for (;;) {
    let ex: Exchange;
    try {
      ex = await exchange(current);
    } catch (err) {
      // Say where a refused redirect came from: the run records the URL the crawl asked for.
      if (err instanceof AddressRefusedError && current !== url && !err.redirectedFrom) throw err.viaRedirect(chain.at(-2) ?? url);
      throw err;
    }
    const location = redirectTarget(ex);
    if (!location) return ex;
    if (chain.length > options.maxRedirects) {
      throw new NonRetryableError(`redirect loop: more than ${options.maxRedirects} redirects from ${url}`, url, ex.status);
    }
    const key = options.loopKey(location);
    if (seen.has(key)) throw new NonRetryableError(`redirect loop: ${[...chain, location].join(" -> ")}`, url, ex.status);
    seen.add(key);
    chain.push(location);
    current = location;
  }
}
