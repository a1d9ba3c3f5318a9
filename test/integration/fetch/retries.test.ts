import { describe, expect, it, vi } from "vitest";
import { BlockedError, NonRetryableError, RetryableError } from "../../../crawler/errors";
import { HostScheduler } from "../../../crawler/fetch";
import { htmlPage } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

describe("retries and back-off", () => {
  it("waits out Retry-After on 418, for every fetcher sharing the host, then succeeds", async () => {
    const s = await server();
    s.route("/list", [{ status: 418, headers: { "retry-after": "1" } }, htmlPage("list")]);
    s.route("/other", htmlPage("other"));
    const scheduler = new HostScheduler();
    const a = fetcher({ scheduler, respectRobots: false });
    const b = fetcher({ scheduler, respectRobots: false });

    const first = a.get(s.url("/list"));
    // Let the 418 arrive, then another account asks the same host for something else.
    await new Promise((r) => setTimeout(r, 50));
    const [res] = await Promise.all([first, b.get(s.url("/other"))]);

    expect(res.status).toBe(200);
    const [teapot, retried] = s.requestsTo("/list");
    const [other] = s.requestsTo("/other");
    expect(retried!.start - teapot!.end!).toBeGreaterThanOrEqual(1_000 - 2);
    expect(other!.start - teapot!.end!).toBeGreaterThanOrEqual(1_000 - 2);
    expect(a.stats().retries).toBe(1);
  });

  it("gives up at once with BlockedError when Retry-After exceeds the cap", async () => {
    const s = await server();
    s.route("/", { status: 429, headers: { "retry-after": "120" } });
    const f = fetcher({ respectRobots: false, maxRetryAfterMs: 60_000 });
    const err = await f.get(s.url("/")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(s.requests).toHaveLength(1);
    expect(f.stats().blocks).toBe(1);
  });

  it("throws BlockedError when throttling outlasts the retries", async () => {
    const s = await server();
    s.route("/", { status: 503, headers: { "retry-after": "0" } });
    const err = await fetcher({ respectRobots: false, retries: 2 })
      .get(s.url("/"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect(s.requests).toHaveLength(3);
  });

  it("retries a 500 and returns the page that follows", async () => {
    const s = await server();
    s.route("/", [{ status: 500 }, { status: 502 }, htmlPage("fine")]);
    const f = fetcher({ respectRobots: false, retries: 3 });
    await expect(f.get(s.url("/"))).resolves.toMatchObject({ status: 200 });
    expect(s.requests).toHaveLength(3);
    expect(f.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  it("throws RetryableError after a persistent 500, backing off exponentially", async () => {
    const s = await server();
    s.route("/", { status: 500 });
    const err = await fetcher({ respectRobots: false, retries: 2, backoffBaseMs: 40 })
      .get(s.url("/"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err).toMatchObject({ status: 500 });
    expect(s.requests).toHaveLength(3);
    const gaps = s.gaps();
    expect(gaps[0]).toBeGreaterThanOrEqual(40 - 2);
    expect(gaps[1]).toBeGreaterThanOrEqual(80 - 2);
  });

  it.each([404, 410, 403, 400])("fails %i with NonRetryableError without retrying", async (status) => {
    const s = await server();
    s.route("/", { status });
    const err = await fetcher({ respectRobots: false })
      .get(s.url("/"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect(err).toMatchObject({ status });
    expect(s.requests).toHaveLength(1);
  });

  it("times out a page that does not answer, and retries it", async () => {
    const s = await server();
    s.route("/slow", { delayMs: 2_000, body: "late" });
    const err = await fetcher({ respectRobots: false, requestTimeoutMs: 100, retries: 1 })
      .get(s.url("/slow"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(/timed out after 100 ms/);
    expect(s.requests).toHaveLength(2);
  });

  it("times out a body that trickles in too slowly", async () => {
    const s = await server();
    s.route("/trickle", { body: "x".repeat(1_000), chunks: 20, chunkDelayMs: 50 });
    const err = await fetcher({ respectRobots: false, requestTimeoutMs: 150, retries: 0 })
      .get(s.url("/trickle"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(/timed out/);
    // The connection is cut, not left trickling: the server notices shortly after.
    await vi.waitFor(() => expect(s.requests[0]?.aborted).toBe(true), { timeout: 1_000 });
  });

  it("turns a refused connection into RetryableError after retries", async () => {
    const s = await server();
    const url = s.url("/");
    await s.close();
    const f = fetcher({ respectRobots: false, retries: 1 });
    const err = await f.get(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(/network error/);
    expect(f.stats()).toMatchObject({ requests: 2, retries: 1 });
  });
});
