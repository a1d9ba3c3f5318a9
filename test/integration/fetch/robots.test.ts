import { describe, expect, it } from "vitest";
import { NonRetryableError } from "../../../crawler/errors";
import { htmlPage } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

describe("robots.txt", () => {
  it("refuses a disallowed URL without requesting it, and fetches robots.txt once per origin", async () => {
    const s = await server();
    s.route("/robots.txt", { body: "User-agent: *\nDisallow: /private/\n", headers: { "content-type": "text/plain" } });
    s.route("/public", htmlPage("public"));
    s.route("/private/x", htmlPage("secret"));
    const f = fetcher();

    const [pub, priv] = await Promise.allSettled([f.get(s.url("/public")), f.get(s.url("/private/x")), f.get(s.url("/public"))]);
    expect(pub.status).toBe("fulfilled");
    expect(priv.status).toBe("rejected");
    const err = (priv as PromiseRejectedResult).reason as unknown;
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as NonRetryableError).message).toBe("disallowed by robots.txt");
    expect(s.requestsTo("/private/x")).toHaveLength(0);
    expect(s.requestsTo("/robots.txt")).toHaveLength(1);
  });

  it("matches rules against our User-Agent's product token", async () => {
    const s = await server();
    s.route("/robots.txt", { body: "User-agent: CampusWatch\nDisallow: /\n\nUser-agent: *\nAllow: /\n" });
    s.route("/", htmlPage("home"));
    await expect(fetcher().get(s.url("/"))).rejects.toThrow("disallowed by robots.txt");
    await expect(fetcher({ userAgent: "OtherBot/2.0 (+https://example.org)" }).get(s.url("/"))).resolves.toMatchObject({ status: 200 });
    // Every request, robots.txt included, carries the configured User-Agent.
    expect(s.requests.at(-1)?.headers["user-agent"]).toBe("OtherBot/2.0 (+https://example.org)");
  });

  it("honours Crawl-delay when it is longer than hostDelayMs", async () => {
    const s = await server();
    s.route("/robots.txt", { body: "User-agent: *\nCrawl-delay: 0.1\n" });
    s.route("/a", htmlPage("a"));
    const f = fetcher({ hostDelayMs: 20 });
    await Promise.all([f.get(s.url("/a")), f.get(s.url("/a")), f.get(s.url("/a"))]);
    const pageGaps = s.gaps().slice(1); // the first gap follows robots.txt itself
    expect(pageGaps).toHaveLength(2);
    expect(Math.min(...pageGaps)).toBeGreaterThanOrEqual(100 - 2);
  });

  it.each([
    [404, false],
    [403, false],
    [500, true],
  ])("allows everything when robots.txt answers %i (logged: %s)", async (status, logged) => {
    const s = await server();
    s.route("/robots.txt", { status, body: "User-agent: *\nDisallow: /\n" });
    s.route("/", htmlPage("home"));
    const f = fetcher();
    await expect(f.get(s.url("/"))).resolves.toMatchObject({ status: 200 });
    expect(f.logs.some((l) => l.includes("robots.txt"))).toBe(logged);
  });

  it("allows everything, with a log line, when robots.txt cannot be fetched at all", async () => {
    const s = await server();
    s.route("/robots.txt", { delayMs: 1_000 });
    s.route("/", htmlPage("home"));
    const f = fetcher({ requestTimeoutMs: 100 });
    await expect(f.get(s.url("/"))).resolves.toMatchObject({ status: 200 });
    expect(f.logs.join("\n")).toMatch(/robots\.txt .* could not be fetched \(timed out after 100 ms\)/);
  });

  it("does not ask for robots.txt when respectRobots is false", async () => {
    const s = await server();
    s.route("/robots.txt", { body: "User-agent: *\nDisallow: /\n" });
    s.route("/", htmlPage("home"));
    await fetcher({ respectRobots: false }).get(s.url("/"));
    expect(s.requestsTo("/robots.txt")).toHaveLength(0);
  });
});
