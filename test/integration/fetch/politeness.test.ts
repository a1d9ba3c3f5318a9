import { describe, expect, it } from "vitest";
import { HostScheduler } from "../../../crawler/fetch";
import { htmlPage } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

const DELAY = 60;
/** Timers and clocks have ~1 ms granularity; gaps are measured at the server, which sees them later, not earlier. */
const SLACK = 2;

describe("politeness", () => {
  it("never has two requests in flight to one host, and spaces them by the delay, across fetchers", async () => {
    const s = await server();
    s.route("/robots.txt", { status: 404 });
    for (let i = 0; i < 4; i++) s.route(`/p${i}`, htmlPage(`page ${i}`, "", { delayMs: 15 }));
    const scheduler = new HostScheduler();
    const accounts = [1, 2, 3].map(() => fetcher({ scheduler, hostDelayMs: DELAY }));

    // Every account asks for every page at once.
    await Promise.all(accounts.flatMap((f) => [0, 1, 2, 3].map((i) => f.get(s.url(`/p${i}`)))));

    expect(s.requests).toHaveLength(1 + 12);
    expect(s.maxInFlight()).toBe(1);
    const gaps = s.gaps();
    expect(gaps).toHaveLength(12);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(DELAY - SLACK);
  });

  it("lets different hosts proceed in parallel", async () => {
    const a = await server();
    const b = await server();
    for (const s of [a, b]) s.route("/slow", htmlPage("slow", "", { delayMs: 150 }));
    const f = fetcher({ respectRobots: false, hostDelayMs: 1_000 });

    await Promise.all([f.get(a.url("/slow")), f.get(b.url("/slow"))]);

    const [ra] = a.requests;
    const [rb] = b.requests;
    // Each request began before the other one ended: they overlapped.
    expect(ra!.start).toBeLessThan(rb!.end!);
    expect(rb!.start).toBeLessThan(ra!.end!);
  });

  it("keeps the queue moving after a failed request", async () => {
    const s = await server();
    s.route("/gone", { status: 404 });
    s.route("/ok", htmlPage("ok"));
    const f = fetcher({ respectRobots: false, hostDelayMs: DELAY });
    const results = await Promise.allSettled([f.get(s.url("/gone")), f.get(s.url("/ok")), f.get(s.url("/ok"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(s.maxInFlight()).toBe(1);
    expect(Math.min(...s.gaps())).toBeGreaterThanOrEqual(DELAY - SLACK);
  });
});
