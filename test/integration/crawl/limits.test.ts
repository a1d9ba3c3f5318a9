/**
 * The account's crawl limits: backfill (days or pages) on the first crawl, the re-check window
 * that reopens recent items to catch edits, and a clean stop on SIGTERM.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { crawlFixture, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});
const DAY = 86_400_000;

describe("crawl limits", () => {
  it("backfill in days: the first crawl keeps only posts of the last N days", async () => {
    f = await crawlFixture({
      seed: 71,
      accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 30,
      repliesPerPost: [0, 0],
      spanDays: 30,
      weiboDates: "rfc",
      pinOldest: false,
    });
    await f.t.db.account.update({ where: { id: f.ids.get("weibo-1")! }, data: { backfillDays: 7 } });
    await f.crawl("weibo-1");
    const now = f.site.clock.now().getTime();
    const stored = await f.stored("weibo-1");
    const recent = f.site.model.visiblePosts(f.site.account("weibo-1")).filter((p) => p.publishedAt.getTime() >= now - 7 * DAY);
    expect([...stored.keys()].sort()).toEqual(recent.map((p) => f!.site.platformIdOf(p)).sort());
    expect(recent.length).toBeLessThan(30);
  });

  it("backfill in pages: the first crawl reads at most N list pages", async () => {
    f = await crawlFixture({ seed: 72, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, postsPerAccount: 30, blogFeeds: false, pageSizes: { blog: 5 } });
    await f.t.db.account.update({ where: { id: f.ids.get("blog-1")! }, data: { backfillPages: 2 } });
    await f.crawl("blog-1");
    // Two listing pages of five posts; page 3 is never asked for (feed probes aside).
    expect((await f.stored("blog-1")).size).toBe(10);
    const paths = f.site.requests().map((r) => r.path);
    expect(paths.some((p) => /\/page\/2\/$/.test(p))).toBe(true);
    expect(paths.some((p) => /\/page\/3\/$/.test(p))).toBe(false);
  });

  it("the re-check window reopens recent threads and catches an edit the list does not show", async () => {
    f = await crawlFixture({ seed: 73, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 8, repliesPerPost: [0, 2] });
    await f.crawl("discuz-1");
    const acc = f.site.account("discuz-1");
    const recent = f.site.model.visiblePosts(acc).filter((p) => !p.pinned)[0]!;
    f.site.editPost(recent.id, { text: "（编辑）楼主补充：报名截止时间改到周五。" });
    // Without the window, the list (titles and last-reply times only) shows nothing new.
    const quiet = await f.crawl("discuz-1");
    expect(quiet.changedPosts).toBe(0);
    await f.t.db.account.update({ where: { id: f.ids.get("discuz-1")! }, data: { recheckDays: 365 } });
    const run = await f.crawl("discuz-1");
    expect(run.changedPosts).toBe(1);
    const row = (await f.stored("discuz-1")).get(f.site.platformIdOf(recent))!;
    expect(row.version).toBe(2);
    expect(row.text).toContain("报名截止时间改到周五");
  });

  it("`campuswatch start` stops on SIGTERM after the page in flight and closes its run", async () => {
    f = await crawlFixture({ seed: 74, now: new Date(), accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 20, repliesPerPost: [0, 3] });
    f.site.fault((u) => u.searchParams.get("mod") === "viewthread", { type: "slow", delayMs: 100 });
    await f.t.db.account.update({ where: { id: f.ids.get("discuz-1")! }, data: { crawlRequestedAt: new Date() } });
    const root = path.resolve(import.meta.dirname, "../../..");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-start-"));
    // --workers 1: on PostgreSQL the scheduler only enqueues and this runs one worker beside it
    // (SQLite crawls in-process and ignores it).
    const child = spawn(process.execPath, [path.join(root, "bin/campuswatch.mjs"), "start", "--poll-ms", "200", "--host-delay-ms", "0", "--workers", "1"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: f.t.url, CAMPUSWATCH_DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (f.site.requests({ kind: "item" }).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toMatch(/SIGTERM: stopping/);
    expect(out).toMatch(/stopped/);
    const runs = await f.t.db.crawlRun.findMany();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).not.toBe("running");
    expect(runs[0]!.finishedAt).not.toBeNull();
    // Nothing half-written: every stored reply has its thread.
    const orphans = await f.t.db.post.count({ where: { kind: "reply", parentId: null } });
    expect(orphans).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
