/**
 * One address policy for every outgoing request (issue 29 item 4), with real servers on
 * 127.0.0.x: a notification webhook and an SMTP server on loopback are refused unless
 * CAMPUSWATCH_ALLOW_INTERNAL (or the notifier's `allowInternal`) lists them; a host registered on
 * a public address that later resolves to 127.0.0.x is refused at crawl time with the reason on
 * the run (DNS rebinding), while a host registered on loopback still crawls. Host names are
 * answered by injected resolvers: no DNS query leaves the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { allowInternalFromEnv } from "../../../lib/config";
import type { Resolver } from "../../../lib/net/address";
import { deliverNotification } from "../../../lib/notify";
import { createAccount } from "../../../server/accounts";
import { createTestDb, type TestDb } from "../../support/db";
import { createTopicWithChannels } from "../../support/topics";
import { htmlPage, startScriptedServer, type ScriptedServer } from "../../support/scripted-server";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await t?.cleanup();
  t = undefined;
});

/** A resolver from a fixed table; a list of answers is handed out in turn (the last repeats). */
function resolverOf(table: Record<string, string[][]>): Resolver {
  const calls = new Map<string, number>();
  return async (host) => {
    const n = calls.get(host) ?? 0;
    calls.set(host, n + 1);
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return (answers[Math.min(n, answers.length - 1)] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

/** A topic with one channel and a pending notification of a (flag-less) run for it. */
async function pendingNotification(db: TestDb["db"], channel: "webhook" | "email", target: string): Promise<number> {
  const account = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.9/blog/", name: "校园博客" } });
  const topic = await createTopicWithChannels(
    db,
    { name: "考试", ...(channel === "email" ? { notifyEmail: target } : {}) },
    channel === "webhook" ? { webhookUrl: target } : {},
  );
  const run = await db.crawlRun.create({ data: { accountId: account.id, status: "ok", finishedAt: new Date() } });
  const payload = {
    event: "campuswatch.flags",
    topic: { id: topic.id, name: topic.name },
    topicUrl: null,
    crawlRun: { id: run.id, accountId: account.id, account: account.name, platform: "blog", startedAt: run.startedAt.toISOString(), finishedAt: null },
    total: 0,
    flags: [],
  };
  const n = await db.notification.create({ data: { topicId: topic.id, crawlRunId: run.id, channel, target, payload: JSON.stringify(payload) } });
  return n.id;
}

const fast = { attempts: 3, backoffMs: () => 5, timeoutMs: 2000 };

describe("notifications obey the address policy", () => {
  async function hook(): Promise<{ url: string; bodies: string[] }> {
    const bodies: string[] = [];
    const server = http.createServer((req, res) => {
      let b = "";
      req.on("data", (d: Buffer) => (b += d.toString("utf8")));
      req.on("end", () => (bodies.push(b), res.writeHead(204).end()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise((r) => server.close(r)));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
  }

  it("a webhook on 127.0.0.1 is refused (once, not retried, nothing sent) without the allow list, and delivered with it", async () => {
    t = await createTestDb();
    const { url, bodies } = await hook();
    const id = await pendingNotification(t.db, "webhook", url);
    expect(await deliverNotification(t.db, id, fast)).toBe("failed");
    const refused = await t.db.notification.findUniqueOrThrow({ where: { id } });
    expect(refused.attempts).toBe(1);
    // The recorded URL is masked past its host (lib/mask.ts); the address and the way out are named.
    expect(refused.lastError).toMatch(/^refused http:\/\/127\.0\.0\.1:\d+\/\S* 127\.0\.0\.1 is a loopback address \(.*CAMPUSWATCH_ALLOW_INTERNAL\)$/);
    expect(bodies).toEqual([]);

    // The environment variable, as an operator sets it for an in-house receiver.
    const saved = process.env.CAMPUSWATCH_ALLOW_INTERNAL;
    process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.1";
    try {
      expect(await deliverNotification(t.db, id, fast)).toBe("sent");
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_ALLOW_INTERNAL;
      else process.env.CAMPUSWATCH_ALLOW_INTERNAL = saved;
    }
    expect(bodies).toHaveLength(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ event: "campuswatch.flags", topic: { name: "考试" } });
  });

  it("a webhook host whose name resolves inside is refused; a CIDR entry allows it", async () => {
    t = await createTestDb();
    const { url, bodies } = await hook();
    const named = url.replace("127.0.0.1", "hooks.campus.test");
    const resolve = resolverOf({ "hooks.campus.test": [["127.0.0.1"]] });
    const id = await pendingNotification(t.db, "webhook", named);
    expect(await deliverNotification(t.db, id, { ...fast, resolve })).toBe("failed");
    expect((await t.db.notification.findUniqueOrThrow({ where: { id } })).lastError).toMatch(
      /hooks\.campus\.test resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(bodies).toEqual([]);
    expect(await deliverNotification(t.db, id, { ...fast, resolve, allowInternal: ["127.0.0.0/8"] })).toBe("sent");
    expect(bodies).toHaveLength(1);
  });

  it("the SMTP host on 127.0.0.1 is refused without the allow list; listed by name (any port) the mail is sent to the checked address", async () => {
    t = await createTestDb();
    const mails: string[] = [];
    const smtp = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      logger: false,
      onData(stream, session, cb) {
        stream.on("data", () => undefined);
        stream.on("end", () => (mails.push(session.envelope.rcptTo.map((r) => r.address).join(",")), cb()));
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise<void>((r) => smtp.close(() => r())));
    const port = (smtp.server.address() as AddressInfo).port;
    const id = await pendingNotification(t.db, "email", "duty@campus.test");

    const direct = { host: "127.0.0.1", port, user: "", pass: "", from: "cw@campus.test" };
    expect(await deliverNotification(t.db, id, { ...fast, smtp: direct })).toBe("failed");
    const refused = await t.db.notification.findUniqueOrThrow({ where: { id } });
    expect(refused.attempts).toBe(1);
    expect(refused.lastError).toMatch(/^refused smtp:\/\/127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address \(.*CAMPUSWATCH_ALLOW_INTERNAL\)$/);
    expect(mails).toEqual([]);

    // The relay by name, listed without a port: any port of that host.
    const relay = { ...direct, host: "relay.campus.test" };
    const resolve = resolverOf({ "relay.campus.test": [["127.0.0.1"]] });
    expect(await deliverNotification(t.db, id, { ...fast, smtp: relay, resolve, allowInternal: ["relay.campus.test"] })).toBe("sent");
    expect(mails).toEqual(["duty@campus.test"]);
  });

  it("CAMPUSWATCH_ALLOW_INTERNAL: hosts and CIDRs; a malformed entry is refused naming the variable and the entry", () => {
    const saved = process.env.CAMPUSWATCH_ALLOW_INTERNAL;
    try {
      process.env.CAMPUSWATCH_ALLOW_INTERNAL = " relay.campus.edu , 10.20.0.0/16,,[fd00::25]:2525 ";
      expect(allowInternalFromEnv()).toEqual(["relay.campus.edu", "10.20.0.0/16", "[fd00::25]:2525"]);
      process.env.CAMPUSWATCH_ALLOW_INTERNAL = "relay.campus.edu,10.0.0.0/33";
      expect(() => allowInternalFromEnv()).toThrow('CAMPUSWATCH_ALLOW_INTERNAL: trusted host "10.0.0.0/33" is not a valid CIDR range');
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_ALLOW_INTERNAL;
      else process.env.CAMPUSWATCH_ALLOW_INTERNAL = saved;
    }
  });
});

describe("a registered host keeps its address class", () => {
  /** A blog page on `host` (127.0.0.x) that counts requests. */
  async function blogOn(host: string): Promise<ScriptedServer> {
    const s = await startScriptedServer({ host });
    s.route("/robots.txt", { body: "User-agent: *\nAllow: /\n" });
    s.route("/blog/", htmlPage("校园博客", "<p>暂无文章</p>"));
    closers.push(() => s.close());
    return s;
  }
  /** One crawl as the CLI wires it, with `resolve` standing for DNS; waits for its notifications. */
  async function crawl(resolve: Resolver, accountId: number) {
    const services = createServices({ db: t!.db, hostDelayMs: 0, classify: false, archive: false, resolve });
    const run = await crawlAccount(services, accountId, "cli");
    await services.flush();
    return run;
  }

  it("DNS rebinding: a host registered on a public address that now resolves to 127.0.0.5 is refused, the run says why, nothing is sent", async () => {
    t = await createTestDb();
    const blog = await blogOn("127.0.0.5");
    const entryUrl = `http://blog.rebind.test:${blog.port}/blog/`;
    const account = await createAccount(t.db, { url: entryUrl, fetchMode: "http" }, CLI_ACTOR, {
      resolve: resolverOf({ "blog.rebind.test": [["93.184.216.34"]] }),
    });
    expect(account.addressClass).toBe("public");

    const run = await crawl(resolverOf({ "blog.rebind.test": [["127.0.0.5"]] }), account.id);
    expect(blog.requests).toEqual([]);
    const refusal = run.errors.find((e) => e.kind === "AddressRefused");
    expect(refusal?.reason).toMatch(
      /blog\.rebind\.test resolves to 127\.0\.0\.5, a loopback address \(registered on a public address: refused as DNS rebinding/,
    );
    const stored = await t.db.crawlRun.findFirstOrThrow({ where: { accountId: account.id } });
    expect(stored.errors).toContain("registered on a public address: refused as DNS rebinding or a taken-over domain");
  });

  it("a host registered on loopback (the demo, an intranet board) still crawls", async () => {
    t = await createTestDb();
    const blog = await blogOn("127.0.0.6");
    const byName = await createAccount(t.db, { url: `http://bbs.intranet.test:${blog.port}/blog/`, fetchMode: "http" }, CLI_ACTOR, {
      resolve: resolverOf({ "bbs.intranet.test": [["127.0.0.6"]] }),
    });
    expect(byName.addressClass).toBe("internal");
    const run = await crawl(resolverOf({ "bbs.intranet.test": [["127.0.0.6"]] }), byName.id);
    expect(run.errors.filter((e) => e.kind === "AddressRefused")).toEqual([]);
    expect(blog.requestsTo("/blog/").length).toBeGreaterThan(0);

    const literal = await createAccount(t.db, { url: `${blog.origin}/blog/?literal=1`, fetchMode: "http" }, CLI_ACTOR);
    expect(literal.addressClass).toBe("internal");
  });

  it("a row without a class (registered before classes) is classified at its first crawl, and kept", async () => {
    t = await createTestDb();
    const blog = await blogOn("127.0.0.7");
    const inside = await t.db.account.create({
      data: { platform: "blog", entryUrl: `http://old.intranet.test:${blog.port}/blog/`, name: "old", fetchMode: "http" },
    });
    await crawl(resolverOf({ "old.intranet.test": [["127.0.0.7"]] }), inside.id);
    expect((await t.db.account.findUniqueOrThrow({ where: { id: inside.id } })).addressClass).toBe("internal");
    expect(blog.requestsTo("/blog/").length).toBeGreaterThan(0);

    // Public when first crawled (the classification's answer), inside at the request: refused.
    const outside = await t.db.account.create({
      data: { platform: "blog", entryUrl: `http://old.public.test:${blog.port}/blog/`, name: "pub", fetchMode: "http" },
    });
    const before = blog.requests.length;
    const run = await crawl(resolverOf({ "old.public.test": [["93.184.216.34"], ["127.0.0.7"]] }), outside.id);
    expect((await t.db.account.findUniqueOrThrow({ where: { id: outside.id } })).addressClass).toBe("public");
    expect(run.errors.some((e) => e.reason.includes("registered on a public address"))).toBe(true);
    expect(blog.requests.length).toBe(before);
  });
});
