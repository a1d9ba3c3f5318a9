/**
 * 删帖提醒 (issue 33 item 7): when a run marks deleted a post with an open or confirmed flag, or a
 * post in an open incident, one notice per deletion goes to the topic's channels, sent by the
 * run's notifyRun job like the flag batches, and never again on later runs; the evidence package
 * of the post carries its deletion time. Wired as the scheduler wires a crawl (crawler/runtime.ts
 * createServices, the jobs runner), against the local Weibo copy with the site's clock, and a
 * local webhook receiving every message.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../../../lib/audit";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { createJobRunner } from "../../../crawler/jobs";
import { buildPostEvidence } from "../../../crawler/evidence";
import { loadEvidenceKey } from "../../../lib/evidence/key";
import { createAccount } from "../../../server/accounts";
import type { DeletionPayload } from "../../../lib/notify";
import { deletionEmail, deletionMarkdown } from "../../../lib/notify/deletion";
import { testDbs } from "../../support/db";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { createTopicWithChannels } from "../../support/topics";
import { startWebhook, type RobotServer } from "../../support/chat-robots";

const openDb = testDbs();
let site: LocalPlatforms | undefined;
let hook: RobotServer<{ event: string }> | undefined;
let tmp = "";
afterEach(async () => {
  await site?.close();
  await hook?.close();
  site = hook = undefined;
});

// The receiver is on loopback: allowed as an in-house one would be. Links need the public URL.
const envBefore = { allow: process.env.CAMPUSWATCH_ALLOW_INTERNAL, url: process.env.CAMPUSWATCH_PUBLIC_URL };
const PUBLIC_URL = "https://cw.example.edu.cn";
beforeAll(() => {
  process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.0/8";
  process.env.CAMPUSWATCH_PUBLIC_URL = PUBLIC_URL;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-deletion-"));
});
afterAll(() => {
  for (const [name, value] of [
    ["CAMPUSWATCH_ALLOW_INTERNAL", envBefore.allow],
    ["CAMPUSWATCH_PUBLIC_URL", envBefore.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

const HOUR = 3_600_000;
// 10:00 in Shanghai, a weekday.
const T0 = new Date("2026-12-03T02:00:00Z");

describe("删帖提醒", () => {
  it("a deleted flagged post and a deleted post of an open incident are each notified once; a dismissed flag is not; the evidence keeps the time", async () => {
    const { db } = await openDb();
    site = await startLocalPlatforms({
      seed: 334,
      now: T0,
      accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 15,
      repliesPerPost: [0, 0],
      spanDays: 5,
    });
    hook = await startWebhook();
    const received = hook.received;
    const topic = await createTopicWithChannels(db, { name: "校园安全", keywords: JSON.stringify(["不会出现的词"]) }, { webhookUrl: hook.webhook });
    const accountId = (await createAccount(db, { url: site.entryUrl("weibo-1"), name: "某大学微博", fetchMode: "http" }, CLI_ACTOR)).id;
    const services = createServices({ db, hostDelayMs: 0, archive: false, parseThreads: 0, classify: false, now: () => site!.clock.now() });
    const runner = createJobRunner({ db });
    /** Crawl as the scheduler's queue does, then run the jobs the run asked for. */
    const crawl = async () => {
      const summary = await crawlAccount(services, accountId, "schedule");
      await services.flush();
      for (const job of await db.job.findMany({ where: { status: "queued" }, orderBy: { id: "asc" } })) await runner.run(job.id);
      return summary;
    };

    await crawl();
    const listed = site.model
      .visiblePosts(site.account("weibo-1"))
      .filter((p) => !p.pinned)
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    const rowOf = (i: number) => db.post.findUniqueOrThrow({ where: { accountId_platformId: { accountId, platformId: site!.platformIdOf(listed[i]!) } } });
    const [flagged, inIncident, dismissed, untouched] = [await rowOf(1), await rowOf(2), await rowOf(3), await rowOf(4)];
    await db.flag.create({ data: { postId: flagged.id, topicId: topic.id, reasons: JSON.stringify([{ kind: "keyword", detail: "宿舍" }]), score: 0.91 } });
    await db.flag.create({ data: { postId: dismissed.id, topicId: topic.id, reasons: "[]", score: 0.5, status: "dismissed" } });
    const incident = await db.incident.create({
      data: { status: "open", title: "宿舍停电", topicId: topic.id, firstSeenAt: inIncident.publishedAt, lastSeenAt: inIncident.publishedAt, size: 1 },
    });
    await db.incidentPost.create({ data: { postId: inIncident.id, incidentId: incident.id, reason: "seed" } });

    site.clock.advance(HOUR);
    for (const i of [1, 2, 3]) site.removePost(listed[i]!.id);
    const noticedAt = site.clock.now();
    const run = await crawl();
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(3);

    const notices = received.filter((p): p is DeletionPayload => p.event === "campuswatch.deletion");
    expect(notices.map((n) => n.post.id).sort()).toEqual([flagged.id, inIncident.id].sort());
    const byPost = new Map(notices.map((n) => [n.post.id, n]));
    expect(byPost.get(flagged.id)).toMatchObject({
      topic: { id: topic.id, name: "校园安全" },
      locale: "zh-CN",
      post: { url: flagged.url, deletedAt: noticedAt.toISOString(), platform: "weibo", account: "某大学微博" },
      flag: { status: "open", score: 0.91 },
      incident: null,
      postUrl: `${PUBLIC_URL}/posts/${flagged.id}`,
      crawlRunId: run.runId,
    });
    expect(byPost.get(inIncident.id)).toMatchObject({
      flag: null,
      incident: { id: incident.id, title: "宿舍停电" },
      incidentUrl: `${PUBLIC_URL}/incidents/${incident.id}`,
    });
    const rows = await db.notification.findMany({ where: { payload: { startsWith: '{"event":"campuswatch.deletion"' } } });
    expect(rows.map((r) => [r.channel, r.status, r.crawlRunId])).toEqual([
      ["webhook", "sent", run.runId],
      ["webhook", "sent", run.runId],
    ]);
    expect((await db.post.findUniqueOrThrow({ where: { id: untouched.id } })).deletedAt).toBeNull();

    // The texts say it in the topic's language, with the post's address and its dashboard page.
    const zh = deletionMarkdown(byPost.get(flagged.id)!, { lineBreak: "\n" }).text;
    expect(zh).toContain("删帖提醒");
    expect(zh).toContain(`${PUBLIC_URL}/posts/${flagged.id}`);
    expect(zh).toContain("原帖地址：http:／／127.0.0.1");
    const en = deletionEmail({ ...byPost.get(inIncident.id)!, locale: "en" });
    expect(en.subject).toBe("[CampusWatch] 校园安全: a post was deleted");
    expect(en.text).toContain("It belongs to the open incident “宿舍停电”");

    // Later runs tell nothing again: the deletion is notified once.
    for (let i = 0; i < 2; i++) {
      site.clock.advance(HOUR);
      const later = await crawl();
      expect(later.deletedPosts).toBe(0);
    }
    expect(received.filter((p) => p.event === "campuswatch.deletion")).toHaveLength(2);
    expect(await db.notification.count({ where: { payload: { startsWith: '{"event":"campuswatch.deletion"' } } })).toBe(2);

    // The evidence package of the deleted post carries the time its deletion was noticed.
    const built = (await buildPostEvidence(db, flagged.id, {
      renderer: null,
      key: loadEvidenceKey(tmp),
      archiveDir: path.join(tmp, "archive"),
      now: site.clock.now(),
    }))!;
    expect(built.manifest.posts).toHaveLength(1);
    expect(built.manifest.posts[0]!.deletedAt).toBe(noticedAt.toISOString());
    // And the notice: who was told, on which channel, and that it was sent.
    const notes = built.manifest.posts[0]!.notes.join("\n");
    expect(notes).toContain(`CampusWatch noticed it gone at ${noticedAt.toISOString()}`);
    expect(notes).toMatch(/deletion notice \(删帖提醒\) for the topic "校园安全" on webhook: sent at /);
  }, 120_000);
});
