/**
 * An account's login cookies, from the CLI's store to the wire: a members-only feed is crawled
 * with them (plain HTTP and Chromium), they are stored sealed, and they never reach another host,
 * not even through a redirect.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { closeSharedBrowser, createFetcher, HostScheduler } from "../../../crawler/fetch";
import { createAccount } from "../../../server/accounts";
import { clearAccountCookies, loadAccountCookies, setAccountCookies } from "../../../server/account-access";
import { createTestDb, type TestDb } from "../../support/db";
import { redirect, startScriptedServer, type RequestRecord, type ScriptedServer } from "../../support/scripted-server";
import { CLI_ACTOR } from "../../../lib/audit";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = fs.existsSync(chromiumPath);
if (!haveChromium) console.warn(`[login-cookies] browser case skipped: no Chromium at ${chromiumPath}`);

const loggedIn = (req: RequestRecord) => /(^|;\s*)sid=member-7/.test(req.headers.cookie ?? "");

/** An Atom feed only members see; visitors get the board's "login required" page. */
function membersFeed(s: ScriptedServer): void {
  s.route("/robots.txt", { status: 404 });
  s.route("/feed.atom", (req) =>
    loggedIn(req)
      ? {
          headers: { "content-type": "application/atom+xml; charset=utf-8" },
          body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>会员区</title><updated>2026-11-30T10:00:00Z</updated>
<entry><title>内部通知一</title><link href="${s.url("/p/1")}"/><id>${s.url("/p/1")}</id><updated>2026-11-30T10:00:00Z</updated><content type="html">&lt;p&gt;只有会员能看到的第一条&lt;/p&gt;</content></entry>
<entry><title>内部通知二</title><link href="${s.url("/p/2")}"/><id>${s.url("/p/2")}</id><updated>2026-11-29T10:00:00Z</updated><content type="html">&lt;p&gt;只有会员能看到的第二条&lt;/p&gt;</content></entry>
</feed>`,
        }
      : {
          status: 403,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: "<html><body><div class='alert_error'>抱歉，您需要登录才能访问</div></body></html>",
        },
  );
}

describe("login cookies", () => {
  let t: TestDb;
  let s: ScriptedServer;
  beforeEach(async () => {
    t = await createTestDb();
    s = await startScriptedServer();
    membersFeed(s);
  });
  afterEach(async () => {
    await s.close();
    await t.cleanup();
  });
  afterAll(closeSharedBrowser);

  it("a members-only feed is crawled with the account's cookies, which are stored sealed", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    const services = createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false });

    // Without cookies: the run fails on the login page, nothing is stored.
    const visitor = await crawlAccount(services, account.id);
    expect(visitor.newPosts).toBe(0);
    expect(visitor.errors[0]).toMatchObject({ url: s.url("/feed.atom") });

    const stored = await setAccountCookies(t.db, account.id, "Cookie: sid=member-7; theme=dark", CLI_ACTOR);
    expect(stored).toMatchObject({ format: "header", count: 2, summary: [{ domain: "127.0.0.1", count: 2, expiresAt: null }] });
    const row = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.cookies).toMatch(/^v2\./);
    expect(row.cookies).not.toContain("member-7");
    expect(row.cookieSummary).not.toContain("member-7");

    const member = await crawlAccount(services, account.id);
    expect(member.errors).toEqual([]);
    expect(member.newPosts).toBe(2);
    expect(s.requestsTo("/feed.atom").at(-1)!.headers.cookie).toBe("sid=member-7; theme=dark");
    expect((await t.db.post.findMany({ orderBy: { publishedAt: "desc" } })).map((p) => p.title)).toEqual(["内部通知一", "内部通知二"]);

    await clearAccountCookies(t.db, account.id, CLI_ACTOR);
    expect(await loadAccountCookies(t.db, account.id)).toEqual([]);
  });

  it("cookies sealed under another secret are reported and the crawl goes on as a visitor", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    await t.db.account.update({ where: { id: account.id }, data: { cookies: "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    const messages: string[] = [];
    expect(await loadAccountCookies(t.db, account.id, (m) => messages.push(m))).toEqual([]);
    expect(messages[0]).toMatch(/stored cookies cannot be used .*set them again/);
  });

  it("never sends them to another host, not even through a redirect", async () => {
    const port = new URL(s.url("/")).port;
    s.route("/go", redirect(`http://localhost:${port}/elsewhere`));
    s.route("/elsewhere", { body: "ok" });
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog" }, CLI_ACTOR);
    await setAccountCookies(t.db, account.id, "sid=member-7", CLI_ACTOR);
    const f = createFetcher({
      mode: "http",
      scheduler: new HostScheduler(),
      hostDelayMs: 0,
      retries: 0,
      cookies: () => loadAccountCookies(t.db, account.id),
      log: () => undefined,
    });
    try {
      await f.get(s.url("/go"));
    } finally {
      await f.close();
    }
    expect(s.requestsTo("/go")[0]!.headers.cookie).toBe("sid=member-7");
    expect(s.requestsTo("/elsewhere")[0]!.host).toBe(`localhost:${port}`);
    expect(s.requestsTo("/elsewhere")[0]!.headers.cookie).toBeUndefined();
  });

  it.skipIf(!haveChromium)(
    "Chromium sends them too",
    async () => {
      const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog" }, CLI_ACTOR);
      await setAccountCookies(t.db, account.id, "sid=member-7", CLI_ACTOR);
      const f = createFetcher({
        mode: "browser",
        scheduler: new HostScheduler(),
        hostDelayMs: 0,
        retries: 0,
        requestTimeoutMs: 15_000,
        cookies: () => loadAccountCookies(t.db, account.id),
        log: () => undefined,
      });
      try {
        const page = await f.get(s.url("/feed.atom"));
        expect(page.status).toBe(200);
      } finally {
        await f.close();
      }
      expect(s.requestsTo("/feed.atom").some((r) => r.headers.cookie === "sid=member-7")).toBe(true);
    },
    60_000,
  );
});
