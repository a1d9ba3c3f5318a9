/**
 * A crawl killed at an arbitrary moment (SIGKILL, no clean-up) and run again loses nothing and
 * duplicates nothing: pages are written in transactions, and the history mark moves only after
 * the pages that prove it are committed.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crawlFixture, type CrawlFixture } from "./support";

const root = path.resolve(import.meta.dirname, "../../..");

describe("a crawl killed mid-run", () => {
  let f: CrawlFixture | undefined;
  afterAll(async () => f?.close());

  it("is re-run to exactly the same posts as an uninterrupted crawl", async () => {
    // The CLI crawls with the wall clock, so the site's clock follows it.
    f = await crawlFixture({ seed: 31, now: new Date(), accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 30, repliesPerPost: [1, 8] });
    f.site.fault((u) => u.searchParams.get("mod") === "viewthread", { type: "slow", delayMs: 40 });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-kill-"));
    const child = spawn(
      process.execPath,
      [path.join(root, "bin/campuswatch.mjs"), "crawl", "once", "--account", String(f.ids.get("discuz-1")), "--host-delay-ms", "0", "--quiet"],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: f.t.url, CAMPUSWATCH_DATA_DIR: dataDir },
        stdio: "ignore",
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Kill it once it has read a dozen threads: somewhere in the middle of the board.
    const deadline = Date.now() + 60_000;
    while (f.site.requests({ kind: "item" }).length < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await exited;
    const partial = await f.stored("discuz-1");
    const expected = f.expected("discuz-1");
    expect(partial.size).toBeGreaterThan(0);
    expect(partial.size).toBeLessThan(expected.size);
    expect(await f.t.db.crawlRun.count({ where: { status: "running" } })).toBe(1);

    f.site.clearFaults();
    const rerun = await f.crawl("discuz-1");
    expect(rerun.errors).toEqual([]);
    const stored = await f.stored("discuz-1");
    expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, row] of stored) {
      expect(row.version, id).toBe(1);
      expect(row.text, id).toBe(expected.get(id)!.text);
    }
    expect(await f.t.db.postVersion.count()).toBe(0);
    // The dead run is closed, not left "running" forever.
    const runs = await f.t.db.crawlRun.findMany({ orderBy: { id: "asc" } });
    expect(runs.map((r) => r.status)).toEqual(["failed", "ok"]);
    expect(runs[0]!.note).toMatch(/interrupted/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
