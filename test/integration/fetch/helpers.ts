/**
 * Shared set-up for the fetcher's integration tests: fetchers with small, fast settings and their
 * own scheduler (so no state leaks between tests), closed automatically after each test.
 * Concurrent tests pass their test context, so each closes only what it opened.
 */
import { afterEach, type TestContext } from "vitest";
import { createFetcher, HostScheduler, type FetcherOptions, type PoliteFetcher } from "../../../crawler/fetch";
import { startScriptedServer, type ScriptedServer } from "../../support/scripted-server";

const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function closeAfterTest<T extends { close(): Promise<void> }>(resource: T, ctx?: Pick<TestContext, "onTestFinished">): T {
  if (ctx) ctx.onTestFinished(() => resource.close());
  else open.push(resource);
  return resource;
}

/** A started scripted server, closed after the test. */
export async function server(ctx?: Pick<TestContext, "onTestFinished">): Promise<ScriptedServer> {
  return closeAfterTest(await startScriptedServer(), ctx);
}

/** A fetcher tuned for tests, with log lines collected in `logs`, closed after the test. */
export function fetcher(options: FetcherOptions = {}, ctx?: Pick<TestContext, "onTestFinished">): PoliteFetcher & { logs: string[] } {
  const logs: string[] = [];
  const f = createFetcher({
    scheduler: new HostScheduler(),
    hostDelayMs: 0,
    retries: 2,
    backoffBaseMs: 10,
    requestTimeoutMs: 5_000,
    mode: "http",
    log: (m) => logs.push(m),
    ...options,
  });
  return closeAfterTest(Object.assign(f, { logs }), ctx);
}
