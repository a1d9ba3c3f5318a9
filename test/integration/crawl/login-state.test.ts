/**
 * Login state is watched (issue 14, item 2). For Weibo, Discuz! and Tieba, an account with login
 * cookies is crawled as a member; then the local platform expires the session and answers the
 * same cookies as a visitor. The next run records LoginExpired with the URL that showed it, marks
 * the account "relogin" (需要重新登录), stores nothing, leaves the history mark and every stored
 * post alone, and tells the topics' channels once (a local webhook counts deliveries: two failing
 * runs, one notice). New cookies clear the state and the next run reads the new posts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import type { Platform } from "../../../crawler/types";
import { loadAccountCookies, setAccountCookies } from "../../../server/account-access";
import { notifyNewFlags } from "../../../lib/notify";
import type { LoginExpiredPayload } from "../../../lib/notify";
import { crawlFixture, type CrawlFixture } from "./support";
import { createTopicWithChannels } from "../../support/topics";
import { CLI_ACTOR } from "../../../lib/audit";

/** A webhook receiver that keeps every JSON body POSTed to it. */
async function startReceiver(): Promise<{ url: string; received: unknown[]; close(): Promise<void> }> {
  const received: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push(JSON.parse(body) as unknown);
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fixture whose fetchers carry the accounts' stored cookies, with notifications the test can wait for. */
async function loginFixture(platform: Platform) {
  const f = await crawlFixture({ seed: 14, accounts: { [platform]: 1 }, postsPerAccount: 6, repliesPerPost: [0, 2], pageSizes: { weibo: 5, discuz: 5 } });
  const scheduler = new HostScheduler();
  f.services.createFetcher = (account, onRequest) =>
    createFetcher({
      mode: account.fetchMode,
      scheduler,
      hostDelayMs: 0,
      retries: 1,
      backoffBaseMs: 10,
      onRequest,
      log: () => undefined,
      cookies: () => loadAccountCookies(f.t.db, account.id),
    });
  const deliveries: Promise<unknown>[] = [];
  f.services.notify = (db, runId) => {
    const p = notifyNewFlags(db, runId, { attempts: 1, baseUrl: "https://cw.example.edu.cn", allowInternal: ["127.0.0.1"] });
    deliveries.push(p);
    return p;
  };
  const flush = async () => {
    // The worker hands the run to `notify` on a microtask after it returns.
    await new Promise((r) => setImmediate(r));
    await Promise.all(deliveries);
  };
  return { f, flush };
}

/** What the database holds for an account, to compare before and after a logged-out run. */
async function snapshot(f: CrawlFixture, id: number) {
  const posts = await f.t.db.post.findMany({
    where: { accountId: id },
    select: { platformId: true, version: true, deletedAt: true },
    orderBy: { platformId: "asc" },
  });
  const marks = await f.t.db.historyMark.findMany({
    where: { accountId: id },
    select: { scope: true, newestAt: true, resume: true },
    orderBy: { scope: "asc" },
  });
  return { posts, marks };
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

describe.each(["weibo", "discuz", "tieba"] as const)("login state on %s", (platform) => {
  it("an expired login marks the account relogin, stores nothing, notifies once; new cookies clear it", async () => {
    const { f, flush } = await loginFixture(platform);
    open.push(() => f.close());
    const receiver = await startReceiver();
    open.push(() => receiver.close());
    await createTopicWithChannels(f.t.db, { name: "考试", keywords: '["考试"]' }, { webhookUrl: receiver.url });
    // A disabled topic hears nothing.
    await createTopicWithChannels(f.t.db, { name: "停用", enabled: false }, { webhookUrl: receiver.url });
    const key = `${platform}-1`;
    const id = f.ids.get(key)!;
    // The Discuz! board is for members: a visitor gets "抱歉，您尚未登录…" instead of the list.
    if (platform === "discuz") f.site.logins.membersOnly(key);

    await setAccountCookies(f.t.db, id, f.site.logins.signIn(platform), CLI_ACTOR);
    const member = await f.crawl(key);
    await flush();
    expect(member.errors).toEqual([]);
    expect(member.status).toBe("ok");
    expect(member.newPosts).toBeGreaterThan(0);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id } })).status).toBe("idle");
    const before = await snapshot(f, id);

    // The session expires on the platform; meanwhile something new is posted.
    f.site.clock.advance(60 * 60_000);
    const fresh = f.site.addPost(key, { title: "登录失效后发的新帖", text: "登录失效后发的新帖，访客看得到也不该保存", pinned: false });
    f.site.logins.expire(platform);
    const seq = f.site.lastSeq();
    const expired = await f.crawl(key);
    await flush();
    const shownAt = f.site.requests({ afterSeq: seq }).at(-1)!;
    expect(expired.status).toBe("failed");
    expect(expired.errors).toHaveLength(1);
    expect(expired.errors[0]).toMatchObject({ kind: "LoginExpired", url: f.site.origin + shownAt.url });
    expect(expired.errors[0]!.reason).toMatch(/login cookies expired/);
    expect(expired.newPosts + expired.changedPosts + expired.deletedPosts).toBe(0);
    expect(await snapshot(f, id)).toEqual(before);
    const row = await f.t.db.account.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("relogin");
    expect(row.lastError).toMatch(/^LoginExpired: /);
    const run = await f.t.db.crawlRun.findUniqueOrThrow({ where: { id: expired.runId } });
    expect(run.status).toBe("failed");
    expect(JSON.parse(run.errors)).toMatchObject([{ kind: "LoginExpired", url: f.site.origin + shownAt.url }]);
    expect(run.note).toMatch(/login expired .*re-login/);

    expect(receiver.received).toHaveLength(1);
    const notice = receiver.received[0] as LoginExpiredPayload;
    expect(notice).toMatchObject({
      event: "campuswatch.login-expired",
      topic: { name: "考试" },
      account: { id, platform },
      crawlRun: { id: expired.runId },
      url: f.site.origin + shownAt.url,
      accountUrl: `https://cw.example.edu.cn/accounts/${id}`,
    });

    // Still expired: the run fails the same way, and nobody is told again.
    const again = await f.crawl(key);
    await flush();
    expect(again.errors.map((e) => e.kind)).toEqual(["LoginExpired"]);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id } })).status).toBe("relogin");
    expect(receiver.received).toHaveLength(1);
    expect(await snapshot(f, id)).toEqual(before);

    // The operator signs in again and sets the new cookies: the state is cleared at once.
    await setAccountCookies(f.t.db, id, f.site.logins.signIn(platform), CLI_ACTOR);
    expect(await f.t.db.account.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "idle", lastError: null });
    const back = await f.crawl(key);
    await flush();
    expect(back.errors).toEqual([]);
    expect(back.status).toBe("ok");
    expect((await f.crawl(key)).status).toBe("ok");
    expect((await f.t.db.post.findMany({ where: { accountId: id, platformId: f.site.platformIdOf(fresh) } })).length).toBe(1);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id } })).status).toBe("idle");
    expect(receiver.received).toHaveLength(1);

    // The new session expires too: that is a new expiry, told again.
    f.site.logins.expire(platform);
    await f.crawl(key);
    await flush();
    expect(receiver.received).toHaveLength(2);
  }, 60_000);
});

describe("login state inside a thread", () => {
  it("a Tieba thread page that answers logged out ends the run: the new thread is not stored, the mark stays", async () => {
    const { f } = await loginFixture("tieba");
    open.push(() => f.close());
    const id = f.ids.get("tieba-1")!;
    await setAccountCookies(f.t.db, id, f.site.logins.signIn("tieba"), CLI_ACTOR);
    expect((await f.crawl("tieba-1")).status).toBe("ok");
    const before = await snapshot(f, id);
    f.site.clock.advance(60 * 60_000);
    const fresh = f.site.addPost("tieba-1", { title: "新开的帖子", text: "列表里看得到，帖子页却是未登录", pinned: false });
    // The list still says is_login: true; the thread page is a visitor's.
    f.site.fault(`/p/${fresh.id}`, {
      type: "body",
      body: `<!DOCTYPE html><html><head><script>PageData.user = {        "id": "",        "is_login": 0,        "portrait": ""};</script></head><body><div class="p_postlist"><div class="l_post j_l_post" data-field="{}"></div></div></body></html>`,
    });
    const s = await f.crawl("tieba-1");
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ kind: "LoginExpired" });
    expect(s.errors[0]!.url).toMatch(new RegExp(`/p/${fresh.id}(\\?|$)`));
    expect(s.status).not.toBe("ok");
    expect(await snapshot(f, id)).toEqual(before);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id } })).status).toBe("relogin");
  }, 60_000);
});

describe("login state without cookies", () => {
  it("an anonymous account is not checked: logged-out pages of a public board are read", async () => {
    const { f } = await loginFixture("tieba");
    open.push(() => f.close());
    f.site.logins.signIn("tieba");
    const s = await f.crawl("tieba-1");
    expect(s.errors).toEqual([]);
    expect(s.newPosts).toBeGreaterThan(0);
    expect((await f.t.db.account.findUniqueOrThrow({ where: { id: f.ids.get("tieba-1")! } })).status).toBe("idle");
  }, 60_000);

  it("a members-only Discuz! board refuses a visitor: an error saying so, not an empty board", async () => {
    const { f } = await loginFixture("discuz");
    open.push(() => f.close());
    f.site.logins.membersOnly("discuz-1");
    const s = await f.crawl("discuz-1");
    expect(s.status).toBe("failed");
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ kind: "NonRetryableError" });
    expect(s.errors[0]!.reason).toMatch(/members only .*抱歉，您尚未登录，没有权限访问该版块.*login cookies/);
    const row = await f.t.db.account.findUniqueOrThrow({ where: { id: f.ids.get("discuz-1")! } });
    expect(row.status).toBe("error");
    expect(await f.t.db.historyMark.count({ where: { accountId: row.id } })).toBe(0);
  }, 60_000);
});
