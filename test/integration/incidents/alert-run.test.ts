/**
 * Issue 32 item 3, end to end with a fixed clock: crawls of local Weibo, Tieba and BBS copies
 * (test/support/platforms, the site's clock as the crawl's clock), wired as the scheduler wires
 * them (crawler/runtime.ts createServices: the classifier flags, the online clustering forms the
 * incident as the posts are stored, the end of the run evaluates the alert rules and asks for the
 * run's notifyRun job), the job run by the jobs runner, and a local webhook receiving every message.
 *
 * - The alert fires in the same run that stores the post crossing a rule (a flagged post): the
 *   Notification belongs to that run and its notifyRun job delivers it.
 * - 30 more posts in the next hour, crawled every ten minutes, give at most one update per
 *   configured period (30 minutes here: at most 2), not one message per post or per run.
 *
 * This test needs the online clustering (crawler/incidents/cluster*.ts, issue 32 item 1) that
 * turns stored posts into incidents; without it no incident forms and the first expectation fails.
 */
import { CLI_ACTOR } from "../../../lib/audit";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { createJobRunner } from "../../../crawler/jobs";
import { createAccount } from "../../../server/accounts";
import type { IncidentAlertPayload } from "../../../lib/notify";
import { testDbs } from "../../support/db";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { createTopicWithChannels } from "../../support/topics";

const openDb = testDbs();
let site: LocalPlatforms | undefined;
let hook: http.Server | undefined;
afterEach(async () => {
  await site?.close();
  await new Promise((r) => (hook ? hook.close(r) : r(undefined)));
  site = hook = undefined;
});

// The receiver is on loopback: allowed as an in-house one would be.
const allowInternalBefore = process.env.CAMPUSWATCH_ALLOW_INTERNAL;
beforeAll(() => {
  process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.0/8";
});
afterAll(() => {
  if (allowInternalBefore === undefined) delete process.env.CAMPUSWATCH_ALLOW_INTERNAL;
  else process.env.CAMPUSWATCH_ALLOW_INTERNAL = allowInternalBefore;
});

const MINUTE = 60_000;
// 10:00 in Shanghai, a weekday.
const T0 = new Date("2026-12-03T02:00:00Z");

/** Variations of one report of the same event, as different people write it. */
const REPORTS = [
  "二食堂今天中午的饭菜变质了，吃出了虫子，好几个同学拉肚子",
  "二食堂饭菜变质，中午吃完好几个同学肚子疼，学校管不管",
  "又是二食堂！饭菜变质还有虫子，同学拉肚子去了校医院",
  "二食堂中午的菜是馊的，变质了，已经有同学去校医院",
  "听说二食堂饭菜变质导致多名同学腹泻，食堂回应了吗",
];

describe("one alert per incident, in the run that stores the post crossing a rule", () => {
  it("alerts in that run, then 30 more posts in the next hour give at most the configured updates", async () => {
    const { db } = await openDb();
    site = await startLocalPlatforms({ seed: 32, now: T0, accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 0 }, postsPerAccount: 3, repliesPerPost: [0, 0] });
    const messages: IncidentAlertPayload[] = [];
    const batches: unknown[] = [];
    hook = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        const p = JSON.parse(body) as { event: string };
        if (p.event === "campuswatch.incident") messages.push(p as IncidentAlertPayload);
        else batches.push(p);
        res.end("ok");
      });
    });
    await new Promise<void>((r) => hook!.listen(0, "127.0.0.1", r));
    await createTopicWithChannels(
      db,
      { name: "食品安全", keywords: JSON.stringify(["二食堂"]), alertMinPosts: null, alertUpdateMinutes: 30 },
      { webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` },
    );
    const ids = new Map<string, number>();
    for (const a of site.accounts) ids.set(a.key, (await createAccount(db, { url: site.entryUrl(a.key), name: a.name, fetchMode: "http" }, CLI_ACTOR)).id);
    const services = createServices({ db, hostDelayMs: 0, archive: false, parseThreads: 0, now: () => site!.clock.now() });
    const runner = createJobRunner({ db });

    /** Crawl one account as the scheduler's queue does, then run the jobs it asked for. */
    const crawl = async (key: string) => {
      const summary = await crawlAccount(services, ids.get(key)!, "schedule");
      await services.flush();
      for (const job of await db.job.findMany({ where: { status: "queued" }, orderBy: { id: "asc" } })) await runner.run(job.id);
      return summary;
    };

    // Background: every account crawled once, nothing about the canteen.
    for (const key of ids.keys()) await crawl(key);
    expect(messages).toHaveLength(0);

    // The first post about it (a keyword hit: flagged) — the rule "an incident with a flagged post".
    site.addPost("weibo-1", { text: REPORTS[0], at: new Date(T0.getTime() - 5 * MINUTE) });
    const first = await crawl("weibo-1");
    const incident = await db.incident.findFirst({ where: { status: "open" }, orderBy: { id: "asc" } });
    expect(incident, "the online clustering formed an open incident of the flagged post").not.toBeNull();
    const alerts = await db.notification.findMany({ where: { incidentId: incident!.id } });
    expect(alerts.map((n) => [n.channel, n.crawlRunId, n.status])).toEqual([["webhook", first.runId, "sent"]]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: "alert", crawlRunId: first.runId, incident: { id: incident!.id, platforms: ["weibo"] } });
    expect(messages[0]!.reasons.map((r) => r.rule)).toContain("flagged");

    // The next hour: 30 more posts, five per crawl every ten minutes, spreading to Tieba and the BBS.
    const keys = ["weibo-1", "tieba-1", "discuz-1"];
    let n = 0;
    for (let step = 1; step <= 6; step++) {
      site.clock.set(new Date(T0.getTime() + step * 10 * MINUTE));
      const touched = new Set<string>();
      for (let i = 0; i < 5; i++, n++) {
        const key = keys[n % 3]!;
        site.addPost(key, { text: `${REPORTS[n % REPORTS.length]}（${n + 1}）`, at: new Date(site.clock.now().getTime() - (5 - i) * MINUTE) });
        touched.add(key);
      }
      for (const key of touched) await crawl(key);
    }
    const final = await db.incident.findUniqueOrThrow({ where: { id: incident!.id } });
    expect(final.size).toBeGreaterThanOrEqual(31);
    expect(final.platformCount).toBe(3);
    const updates = messages.filter((m) => m.kind === "update");
    // One hour, one update per 30 minutes at most; and something did change, so at least one.
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(2);
    expect(messages.filter((m) => m.kind === "alert")).toHaveLength(1);
    // Updates at least 30 minutes apart, by the crawl's clock.
    const times = messages.map((m) => new Date(m.at).getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(updates.at(-1)!.incident.platforms.length).toBeGreaterThanOrEqual(2);
    // Flags of the incident's posts were not sent again one batch per run.
    expect(batches).toHaveLength(0);
  }, 180_000);
});
