/**
 * An account's own proxy: sealed at rest and shown only masked, refused with a clear message when
 * its scheme is unknown (changing nothing, in the library and the CLI), preferred over the global
 * proxy, and — when it is down — recorded on the crawl run as a ProxyError naming it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FatalError } from "../../../crawler/errors";
import { runCli } from "../../support/cli";
import { parseProxyUrl } from "../../../crawler/fetch";
import { createServices, type RuntimeOptions, type RuntimeServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { clearAccountProxy, loadAccountProxy, ProxyRefusal, setAccountProxy } from "../../../server/account-proxy";
import { createAccount, listAccounts } from "../../../server/accounts";
import { seal } from "../../../lib/secret-box";
import { ACCOUNT_PROXY } from "../../../lib/sealed-columns";
import { createTestDb, type TestDb } from "../../support/db";
import { deadPort, startHttpProxy, startSocksProxy, type TestProxy } from "../../support/proxies";
import { startScriptedServer, type ScriptedServer } from "../../support/scripted-server";
import { CLI_ACTOR } from "../../../lib/audit";

function feed(s: ScriptedServer): void {
  s.route("/robots.txt", { status: 404 });
  s.route("/feed.atom", {
    headers: { "content-type": "application/atom+xml; charset=utf-8" },
    body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>信息中心</title><updated>2026-11-30T10:00:00Z</updated>
<entry><title>校园网出口调整</title><link href="${s.url("/p/1")}"/><id>${s.url("/p/1")}</id><updated>2026-11-30T10:00:00Z</updated><content type="html">&lt;p&gt;今晚起经代理访问校外站点&lt;/p&gt;</content></entry>
</feed>`,
  });
}

describe("an account's own proxy", () => {
  let t: TestDb;
  let s: ScriptedServer;
  const proxies: TestProxy[] = [];
  const made: RuntimeServices[] = [];
  /** Services whose notifications are awaited before the database goes away. */
  const services = (opts: Omit<RuntimeOptions, "db">) => {
    const made1 = createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false, ...opts });
    made.push(made1);
    return made1;
  };
  beforeEach(async () => {
    t = await createTestDb();
    s = await startScriptedServer();
    feed(s);
  });
  afterEach(async () => {
    await Promise.all(made.splice(0).map((m) => m.flush()));
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await s.close();
    await t.cleanup();
  });

  it("is stored sealed, shown masked, never listed, and can be removed", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog" }, CLI_ACTOR);
    const { display } = await setAccountProxy(t.db, account.id, "socks5://ops:hunter2@10.1.2.3:1080", CLI_ACTOR);
    expect(display).toBe("socks5://ops:***@10.1.2.3:1080");
    const row = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.proxy).toMatch(/^v2\./);
    expect(row.proxy).not.toContain("hunter2");
    expect(row.proxyDisplay).toBe("socks5://ops:***@10.1.2.3:1080");
    expect(JSON.stringify(await listAccounts(t.db))).not.toContain("hunter2");
    expect(await loadAccountProxy(t.db, account.id)).toMatchObject({ scheme: "socks5", host: "10.1.2.3", port: 1080, username: "ops", password: "hunter2" });

    await clearAccountProxy(t.db, account.id, CLI_ACTOR);
    expect(await t.db.account.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ proxy: null, proxyDisplay: null });
    expect(await loadAccountProxy(t.db, account.id)).toBeNull();
  });

  it("refuses an unknown scheme with a clear message and changes nothing", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog" }, CLI_ACTOR);
    await setAccountProxy(t.db, account.id, "http://proxy.campus:3128", CLI_ACTOR);
    const err = await setAccountProxy(t.db, account.id, "ftp://u:pw@proxy.campus:21", CLI_ACTOR).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyRefusal);
    expect(err).toMatchObject({
      detail: { code: "proxy.scheme", values: { scheme: "ftp" } },
      fieldErrors: { proxy: ['unsupported proxy scheme "ftp://": use http://, https://, socks5:// or socks5h://'] },
    });
    expect((await t.db.account.findUniqueOrThrow({ where: { id: account.id } })).proxyDisplay).toBe("http://proxy.campus:3128");
    await expect(setAccountProxy(t.db, 9999, "http://proxy.campus:3128", CLI_ACTOR)).rejects.toMatchObject({ detail: { code: "accountGone" } });
  });

  it("a proxy sealed under another secret fails the crawl rather than going out directly", async () => {
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    await t.db.account.update({
      where: { id: account.id },
      data: { proxy: seal("http://127.0.0.1:1", ACCOUNT_PROXY, account.id, new TextEncoder().encode("x".repeat(40))), proxyDisplay: "http://127.0.0.1:1" },
    });
    await expect(loadAccountProxy(t.db, account.id)).rejects.toBeInstanceOf(FatalError);

    const run = await crawlAccount(services({ proxy: null }), account.id);
    expect(run.status).toBe("failed");
    expect(run.errors[0]).toMatchObject({ kind: "FatalError", reason: expect.stringMatching(/stored proxy cannot be used .*set it again/) });
    expect(s.requests).toHaveLength(0);
  });

  it("wins over the global proxy; without it the global proxy is used", async () => {
    const [own, global] = [await startSocksProxy({ username: "acct", password: "pw" }), await startHttpProxy()];
    proxies.push(own, global);
    const withOwn = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    await setAccountProxy(t.db, withOwn.id, own.url(), CLI_ACTOR);
    const shared = services({ proxy: parseProxyUrl(global.url()) });

    const first = await crawlAccount(shared, withOwn.id);
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBe(1);
    expect(own.passed().length).toBeGreaterThanOrEqual(1);
    expect(global.attempts).toHaveLength(0);

    await clearAccountProxy(t.db, withOwn.id, CLI_ACTOR);
    const before = own.attempts.length;
    const second = await crawlAccount(shared, withOwn.id);
    expect(second.errors).toEqual([]);
    expect(global.passed().length).toBeGreaterThanOrEqual(1);
    expect(own.attempts).toHaveLength(before);
  });

  it("a dead proxy is recorded on the run as a ProxyError naming it (masked), not as the site failing", async () => {
    const port = await deadPort();
    const account = await createAccount(t.db, { url: s.url("/feed.atom"), platform: "blog", fetchMode: "http" }, CLI_ACTOR);
    await setAccountProxy(t.db, account.id, `http://ops:hunter2@127.0.0.1:${port}`, CLI_ACTOR);

    const run = await crawlAccount(services({ proxy: null }), account.id);

    expect(run.status).toBe("failed");
    expect(run.errors.map((e) => e.kind)).toContain("ProxyError");
    const stored = await t.db.crawlRun.findUniqueOrThrow({ where: { id: run.runId } });
    expect(stored.errors).toContain(`proxy http://ops:***@127.0.0.1:${port} could not be reached: connection refused (ECONNREFUSED)`);
    expect(stored.errors).not.toContain("hunter2");
    expect(s.requests).toHaveLength(0);
    const acc = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(acc.lastError).toMatch(/^ProxyError: proxy http:\/\/ops:\*\*\*@127\.0\.0\.1:\d+ could not be reached/);
  }, 30_000);
});

describe("campuswatch accounts set --proxy", () => {
  let dir = "";
  let env: NodeJS.ProcessEnv = { ...process.env };
  const cw = (...args: string[]) => runCli(args, { cwd: dir, env });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-proxy-cli-"));
    env = { ...process.env, DATABASE_URL: "file:./x.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
    delete env.CAMPUSWATCH_PROXY;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("stores a proxy masked, refuses an unknown scheme without changing anything, and clears it", async () => {
    expect((await cw("db", "migrate")).code).toBe(0);
    const add = await cw("accounts", "add", "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", "--name", "校园论坛");
    const id = /account (\d+)/.exec(add.out)![1]!;

    const set = await cw("accounts", "set", id, "--proxy", "socks5h://ops:hunter2@gw.campus:1080");
    expect(set.err).toBe("");
    expect(set.out.trim()).toBe(`account ${id}: crawled through socks5h://ops:***@gw.campus:1080 (stored encrypted)`);
    const listed = (await cw("accounts", "list", "--json")).out;
    expect(listed).toContain('"proxyDisplay":"socks5h://ops:***@gw.campus:1080"');
    expect(listed).not.toContain("hunter2");

    const bad = await cw("accounts", "set", id, "--proxy", "socks4://ops:pw@gw.campus:1080", "--robots", "ignore");
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe('campuswatch: --proxy: unsupported proxy scheme "socks4://": use http://, https://, socks5:// or socks5h://');
    const after = (await cw("accounts", "list", "--json")).out;
    expect(after).toContain('"proxyDisplay":"socks5h://ops:***@gw.campus:1080"');
    // Nothing else given with the bad proxy was applied either.
    expect(after).toContain('"robotsPolicy":"obey"');

    expect((await cw("accounts", "set", id, "--proxy", "http://p:3128", "--clear-proxy")).err).toMatch(/give one of --proxy and --clear-proxy/);
    expect((await cw("accounts", "set", id, "--clear-proxy")).out.trim()).toBe(`account ${id}: own proxy removed`);
    expect((await cw("accounts", "list", "--json")).out).toContain('"proxyDisplay":null');
  }, 60_000);

  it("a malformed CAMPUSWATCH_PROXY stops a crawl at start with a message naming it", async () => {
    const r = await runCli(["crawl", "once"], { cwd: dir, env: { ...env, CAMPUSWATCH_PROXY: "gopher://ops:hunter2@gw.campus:70" } });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('CAMPUSWATCH_PROXY: unsupported proxy scheme "gopher://"');
    expect(r.err).not.toContain("hunter2");
  }, 60_000);
});
