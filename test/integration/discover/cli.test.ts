/**
 * `campuswatch discover` as a user runs it: a real process and database, against the
 * synthetic web served by this test (so the CLI runs asynchronously: the server must keep
 * answering while the child crawls).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import type { SyntheticWeb } from "../../support/synthetic-web";
import { createTestTopic, startTestWeb } from "./support";

const root = path.resolve(import.meta.dirname, "../../..");
let dir = "";
let env: NodeJS.ProcessEnv = { ...process.env };
let web: SyntheticWeb;
let tdb: TestDb | undefined;

function cw(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "bin/campuswatch.mjs"), ...args],
      { cwd: dir, env, encoding: "utf8", timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-discover-cli-"));
  web = await startTestWeb({ articlesPerLabel: 120 });
  // A copy of the migrated template database (test/support/global-setup.ts).
  tdb = await createTestDb();
  // The synthetic web spans several loopback hosts; only the seeds' two are registered. The
  // operator's way to admit the others is CAMPUSWATCH_TRUSTED_HOSTS (host:port entries here).
  const hosts = [...web.origins.sites, web.origins.farm].filter(Boolean).map((o) => new URL(o).host);
  env = { ...process.env, DATABASE_URL: tdb.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data"), CAMPUSWATCH_TRUSTED_HOSTS: hosts.join(",") };
  await createTestTopic(tdb.db);
  fs.writeFileSync(path.join(dir, "seeds.txt"), `# two home pages\n${web.homeUrl(0)}\n\n${web.homeUrl(1)}\n`);
});
afterAll(async () => {
  await web?.close();
  await tdb?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("campuswatch discover", () => {
  test("crawls from a seed file, then --report prints the harvest rate at fixed page counts", async () => {
    const run = await cw("discover", "--topic", "体育", "--seeds", "seeds.txt", "--max-pages", "110", "--host-delay-ms", "0", "--json");
    expect(run.err).toMatch(/discovery run \d+ \(focused\) started/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out.trim()) as { runId: number; status: string; crawled: number; relevant: number };
    expect(summary).toMatchObject({ status: "done", crawled: 110 });
    expect(summary.relevant).toBeGreaterThan(55);

    const report = await cw("discover", "--report", String(summary.runId));
    expect(report.code).toBe(0);
    expect(report.out).toMatch(/^pages\trelevant\tharvest rate$/m);
    expect(report.out).toMatch(/^100\t\d+\t[01]\.\d{3}$/m);
    expect(report.out).toMatch(new RegExp(`^110\\t${summary.relevant}\\t`, "m"));

    // A finished run resumes with a higher limit.
    const more = await cw("discover", "--resume", String(summary.runId), "--max-pages", "120", "--json");
    expect(more.code).toBe(0);
    expect(JSON.parse(more.out.trim())).toMatchObject({ runId: summary.runId, crawled: 120 });
  });

  test("bad input exits 1 with one line", async () => {
    for (const args of [
      ["discover", "--topic", "体育"],
      ["discover", "--topic", "no-such-topic", "--seeds", "seeds.txt"],
      ["discover", "--topic", "体育", "--seeds", "no-such-set"],
      ["discover", "--topic", "体育", "--seeds", "seeds.txt", "--strategy", "dfs"],
      ["discover", "--report", "999"],
    ]) {
      const r = await cw(...args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
  });
});
