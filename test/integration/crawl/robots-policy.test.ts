/**
 * The robots.txt policy of an account: "obey" (the default) refuses what robots.txt disallows;
 * "ignore", set by an operator for a board they may crawl, crawls it, still keeps Crawl-delay
 * between requests, and every run it governs records who set it and when.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { createAccount } from "../../../server/accounts";
import { parseRobotsPolicy, setRobotsPolicy } from "../../../server/account-access";
import { ValidationError } from "../../../lib/validation";
import { createTestDb, type TestDb } from "../../support/db";
import { startScriptedServer, type ScriptedServer } from "../../support/scripted-server";
import { CLI_ACTOR } from "../../../lib/audit";

function feed(s: ScriptedServer): void {
  s.route("/robots.txt", { body: "User-agent: *\nDisallow: /\nCrawl-delay: 0.3\n" });
  s.route("/feed.atom", {
    headers: { "content-type": "application/atom+xml; charset=utf-8" },
    body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>网络中心</title><updated>2026-11-30T10:00:00Z</updated>
<entry><title>机房维护通知</title><link href="${s.url("/p/1")}"/><id>${s.url("/p/1")}</id><updated>2026-11-30T10:00:00Z</updated><content type="html">&lt;p&gt;本周六机房维护&lt;/p&gt;</content></entry>
</feed>`,
  });
}

describe("robots.txt policy per account", () => {
  let t: TestDb;
  let s: ScriptedServer;
  beforeEach(async () => {
    t = await createTestDb();
    s = await startScriptedServer();
    feed(s);
  });
  afterEach(async () => {
    await s.close();
    await t.cleanup();
  });

  it("obey refuses; ignore crawls with Crawl-delay kept, and the run shows who set it and when", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    const services = createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false });

    const obeyed = await crawlAccount(services, account.id);
    expect(obeyed.newPosts).toBe(0);
    expect(obeyed.errors[0]).toMatchObject({ url: s.url("/feed.atom"), reason: "disallowed by robots.txt" });
    expect(s.requestsTo("/feed.atom")).toHaveLength(0);
    expect(await t.db.crawlRun.findUniqueOrThrow({ where: { id: obeyed.runId } })).toMatchObject({ robotsPolicy: "obey", robotsPolicySetBy: null });

    const setAt = new Date("2026-12-01T02:00:00Z");
    await setRobotsPolicy(t.db, account.id, "ignore", "wangli", CLI_ACTOR, setAt);
    s.clearLog();
    // Fresh services: robots.txt is read again (the first services cached it), so the gap it asks for shows.
    const ignored = await crawlAccount(createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false }), account.id);
    expect(ignored.errors).toEqual([]);
    expect(ignored.newPosts).toBe(1);
    expect(await t.db.crawlRun.findUniqueOrThrow({ where: { id: ignored.runId } })).toMatchObject({
      robotsPolicy: "ignore",
      robotsPolicySetBy: "wangli",
      robotsPolicySetAt: setAt,
    });
    // Crawl-delay (0.3 s) still separates the requests to the host: robots.txt, then the feed.
    const [robots, page] = [s.requestsTo("/robots.txt")[0], s.requestsTo("/feed.atom")[0]];
    expect(robots && page).toBeTruthy();
    expect(page!.start - robots!.end!).toBeGreaterThanOrEqual(290);

    await setRobotsPolicy(t.db, account.id, "obey", "wangli", CLI_ACTOR);
    expect(await t.db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({
      robotsPolicy: "obey",
      robotsPolicySetBy: null,
      robotsPolicySetAt: null,
    });
  });

  it("a policy other than obey or ignore is refused", () => {
    expect(() => parseRobotsPolicy("sometimes")).toThrow(ValidationError);
    expect(() => parseRobotsPolicy("sometimes")).toThrow('robots: must be obey or ignore (got "sometimes")');
    expect(parseRobotsPolicy(" IGNORE ")).toBe("ignore");
  });
});
