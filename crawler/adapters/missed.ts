/**
 * A failed sub-request of a thread page (Weibo child comments, Tieba 楼中楼, Discuz! 点评):
 * it costs only what it would have read. The page is kept with everything else it carries (the
 * previews that came with the parent), the failure becomes a warning on the run naming the URL
 * that failed, and the page is yielded `missed` so the worker reads the thread again next run.
 */
import { FatalError, LoginExpiredError } from "../errors";
import type { AdapterContext } from "../types";

/**
 * Record a failed sub-request as a warning on the run. Errors that end the run (an expired
 * login, a fatal one) and anything that is not an Error are rethrown: they are not one request's.
 * @param url the URL requested, used when the error names none
 * @param kept what was kept instead, for the warning ("the 2 child comments shown with it")
 */
export function missedRequest(ctx: AdapterContext, e: unknown, url: string, kept: string): void {
  if (!(e instanceof Error) || e instanceof FatalError || e instanceof LoginExpiredError) throw e;
  const own = (e as { url?: unknown }).url;
  ctx.warn({
    url: typeof own === "string" && own !== "" ? own : url,
    field: "comments",
    raw: `${e.name}: ${e.message}`,
    reason: `kept ${kept}; the next run reads the thread again`,
  });
}
