/**
 * `campuswatch secrets rotate` and the data directory's permissions, through the real CLI (a child
 * process, test/support/cli.ts) on a real SQLite file:
 * - rotation re-seals every stored credential under a new secret, switches the data directory's
 *   session-secret, never prints a secret, and refuses to guess when CAMPUSWATCH_SECRET is set;
 * - `db migrate` seals a plaintext secret left by an older version;
 * - as root, the unprivileged user Chromium runs as (crawler/fetch/chromium-launch.ts:
 *   CAMPUSWATCH_BROWSER_USER, default nobody) cannot read the database, its WAL and SHM, the raw
 *   archive or the session secret, while a control file beside them is readable to it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { archiveSync } from "../../crawler/archive";
import { createDb } from "../../lib/db";
import { unseal, SealError } from "../../lib/secret-box";
import { ACCOUNT_COOKIES, ACCOUNT_PROXY, TOPIC_FEISHU_SECRET, TOPIC_FEISHU_WEBHOOK } from "../../lib/sealed-columns";
import { browserUserName } from "../../crawler/fetch/chromium-launch";

const PROXY_PASSWORD = "Pr0xyPassw0rd-7f3a";
const COOKIE = "cookie-value-9c1e";
const FEISHU = "feishu-legacy-secret-4d2b";

/** A scratch install: its own directory (reachable by other users, so that only CampusWatch's modes protect it). */
function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-secrets-"));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  const { CAMPUSWATCH_SECRET: _unset, ...rest } = process.env;
  const env: NodeJS.ProcessEnv = { ...rest, DATABASE_URL: "file:./data/cw.db", CAMPUSWATCH_DATA_DIR: data, BCRYPT_COST: "4" };
  const cw = (args: string[], extra: Record<string, string> = {}) => runCli(args, { cwd: dir, env: { ...env, ...extra } });
  return { dir, data, db: path.join(data, "cw.db"), cw, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const key = (text: string) => new TextEncoder().encode(text.trim());

describe("campuswatch secrets rotate", () => {
  const s = scratch();
  afterAll(() => s.cleanup());

  it("re-seals every credential under a new secret, switches session-secret, prints no secret", { timeout: 180_000 }, async () => {
    expect((await s.cw(["db", "migrate"])).code).toBe(0);
    expect((await s.cw(["accounts", "add", "http://127.0.0.1:9/feed.atom", "--platform", "blog"])).code).toBe(0);
    expect((await s.cw(["accounts", "set", "1", "--proxy", `http://ops:${PROXY_PASSWORD}@127.0.0.1:3128`])).code).toBe(0);
    expect((await s.cw(["accounts", "set", "1", "--cookie", `sid=${COOKIE}`])).code).toBe(0);
    // A topic secret as a version before sealing stored it: in plaintext. db migrate seals it.
    const legacy = createDb(`file:${s.db}`);
    const hook = "http://127.0.0.1:9/open-apis/bot/v2/hook/2f5a4e7c-8b1d-4c3e-9a6f-0d1e2b3c4d5e";
    const topic = await legacy.topic.create({ data: { name: "旧", feishuWebhook: hook, feishuSecret: FEISHU } });
    // …and a notification logged with the robot's whole URL.
    await legacy.notification.create({ data: { topicId: topic.id, channel: "feishu", target: hook, payload: "{}" } });
    // Closed while the CLI migrates (Prisma's migrate wants the file to itself).
    await legacy.$disconnect();
    const db = createDb(`file:${s.db}`);
    try {
      const migrate = await s.cw(["db", "migrate"]);
      expect(migrate.err).toBe("");
      expect(migrate.code).toBe(0);
      expect(migrate.out).toContain("secrets at rest: Topic.feishuSecret: 1 sealed");
      expect(migrate.out).toContain("secrets at rest: Topic.feishuWebhook: 1 sealed");
      expect(migrate.out).toContain("secrets at rest: Notification.target: 1 robot URLs masked");
      expect(await db.notification.findFirstOrThrow()).toMatchObject({ target: "http://127.0.0.1:9/…" });
      const oldSecret = fs.readFileSync(path.join(s.data, "session-secret"), "utf8");
      const before = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
      expect(unseal(before.feishuSecret!, TOPIC_FEISHU_SECRET, topic.id, key(oldSecret))).toBe(FEISHU);

      const r = await s.cw(["secrets", "rotate"]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Account\.cookies: 1 re-sealed, 0 already under the new secret$/m);
      expect(r.out).toMatch(/^Account\.proxy: 1 re-sealed/m);
      expect(r.out).toMatch(/^Topic\.feishuSecret: 1 re-sealed/m);
      expect(r.out).toMatch(/^Topic\.feishuWebhook: 1 re-sealed/m);
      expect(r.out).toMatch(/every dashboard session has ended/);
      const newSecret = fs.readFileSync(path.join(s.data, "session-secret"), "utf8");
      expect(newSecret.trim()).not.toBe(oldSecret.trim());
      expect(fs.existsSync(path.join(s.data, "session-secret.new"))).toBe(false);
      expect((fs.statSync(path.join(s.data, "session-secret")).mode & 0o777).toString(8)).toBe("600");
      for (const text of [oldSecret.trim(), newSecret.trim(), PROXY_PASSWORD, COOKIE, FEISHU, "2f5a4e7c"])
        expect(r.out + r.err + migrate.out).not.toContain(text);

      const account = await db.account.findUniqueOrThrow({ where: { id: 1 } });
      const after = await db.topic.findUniqueOrThrow({ where: { id: topic.id } });
      expect(unseal(account.proxy!, ACCOUNT_PROXY, 1, key(newSecret))).toContain(PROXY_PASSWORD);
      expect(unseal(account.cookies!, ACCOUNT_COOKIES, 1, key(newSecret))).toContain(COOKIE);
      expect(unseal(after.feishuSecret!, TOPIC_FEISHU_SECRET, topic.id, key(newSecret))).toBe(FEISHU);
      expect(unseal(after.feishuWebhook!, TOPIC_FEISHU_WEBHOOK, topic.id, key(newSecret))).toBe(hook);
      expect(() => unseal(after.feishuWebhook!, TOPIC_FEISHU_WEBHOOK, topic.id, key(oldSecret))).toThrow(SealError);
      expect(after.feishuWebhookDisplay).toBe("http://127.0.0.1:9/…");
      expect(() => unseal(account.proxy!, ACCOUNT_PROXY, 1, key(oldSecret))).toThrow(SealError);
      expect(() => unseal(after.feishuSecret!, TOPIC_FEISHU_SECRET, topic.id, key(oldSecret))).toThrow(SealError);
    } finally {
      await db.$disconnect();
    }
  });

  it("with CAMPUSWATCH_SECRET set: refuses without --new-secret-file and changes nothing; with it, re-seals", { timeout: 120_000 }, async () => {
    const current = fs.readFileSync(path.join(s.data, "session-secret"), "utf8").trim();
    const env = { CAMPUSWATCH_SECRET: current };
    const refused = await s.cw(["secrets", "rotate"], env);
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toMatch(/^campuswatch: CAMPUSWATCH_SECRET is set: .*--new-secret-file FILE$/);
    const short = path.join(s.dir, "short");
    fs.writeFileSync(short, "too-short", { mode: 0o600 });
    expect((await s.cw(["secrets", "rotate", "--new-secret-file", short], env)).err).toMatch(/at least 32 characters/);

    const file = path.join(s.dir, "new-secret");
    const next = "n3w-secret-".padEnd(48, "x");
    fs.writeFileSync(file, `${next}\n`, { mode: 0o600 });
    const r = await s.cw(["secrets", "rotate", "--new-secret-file", file], env);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/^Account\.proxy: 1 re-sealed/m);
    expect(r.out).toMatch(/now set CAMPUSWATCH_SECRET to the new secret/);
    expect(r.out).not.toContain(next);
    const db = createDb(`file:${s.db}`);
    try {
      const account = await db.account.findUniqueOrThrow({ where: { id: 1 } });
      expect(unseal(account.proxy!, ACCOUNT_PROXY, 1, key(next))).toContain(PROXY_PASSWORD);
    } finally {
      await db.$disconnect();
    }
    // The file is the data directory's affair only when CAMPUSWATCH_SECRET is unset: untouched.
    expect(fs.readFileSync(path.join(s.data, "session-secret"), "utf8").trim()).toBe(current);
  });
});

/** Why the permission test cannot run here, or null. */
function cannotRunAsBrowserUser(user: string): string | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return "not running as root: cannot act as another user";
  try {
    execFileSync("id", ["-u", "--", user], { stdio: "ignore" });
  } catch {
    return `the browser user "${user}" does not exist`;
  }
  return null;
}

const browserUser = browserUserName();
const skipReason = cannotRunAsBrowserUser(browserUser);
if (skipReason) console.log(`skipping the file-permission test: ${skipReason}`);

describe.skipIf(skipReason !== null)(`the browser user (${browserUser}) cannot read CampusWatch's files`, () => {
  const s = scratch();
  afterAll(() => s.cleanup());

  /** `cat file` as the browser user: its exit code and error. */
  const catAs = (file: string) => spawnSync("runuser", ["-u", browserUser, "--", "cat", file], { encoding: "utf8" });

  it("database, WAL, SHM, raw archive and session secret: 0600 in a 0700 directory, and cat is refused", { timeout: 120_000 }, async () => {
    // An install from before: a data directory and session secret readable by all. Start fixes them.
    fs.mkdirSync(s.data, { mode: 0o755 });
    fs.chmodSync(s.data, 0o755);
    fs.writeFileSync(path.join(s.data, "session-secret"), "s".repeat(64), { mode: 0o644 });
    fs.chmodSync(path.join(s.data, "session-secret"), 0o644);
    // The control: a file beside the data directory, as readable as the old defaults made files.
    const control = path.join(s.dir, "control.txt");
    fs.writeFileSync(control, "readable", { mode: 0o644 });
    fs.chmodSync(control, 0o644);
    expect(catAs(control)).toMatchObject({ status: 0, stdout: "readable" });

    expect((await s.cw(["db", "migrate"])).code).toBe(0);
    expect((await s.cw(["accounts", "add", "http://127.0.0.1:9/feed.atom", "--platform", "blog"])).code).toBe(0);
    expect((await s.cw(["accounts", "set", "1", "--cookie", `sid=${COOKIE}`])).code).toBe(0);
    // A raw archive file as the crawler writes it (this test process keeps the usual umask 022:
    // the archive's modes do not depend on the CLI's umask).
    const archive = path.join(s.data, "archive");
    const rel = archiveSync(archive, 1, "http://127.0.0.1:9/feed.atom", "<feed>evidence</feed>");
    expect(rel).not.toBeNull();
    // A connection held open (the product's own client) keeps the WAL and SHM on disk meanwhile.
    const db = createDb(`file:${s.db}`);
    try {
      await db.topic.create({ data: { name: "wal" } });
      const files = [s.db, `${s.db}-wal`, `${s.db}-shm`, path.join(s.data, "session-secret"), path.join(archive, rel!)];
      for (const file of files) {
        expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe("600");
        const cat = catAs(file);
        expect(cat.status, file).not.toBe(0);
        expect(cat.stderr, file).toMatch(/Permission denied/);
      }
      for (const dir of [s.data, archive, path.join(archive, "1")]) expect((fs.statSync(dir).mode & 0o777).toString(8), dir).toBe("700");
    } finally {
      await db.$disconnect();
    }
  });
});
