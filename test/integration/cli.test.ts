/**
 * The `campuswatch` CLI as a user runs it: a real process, a real database file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { startLocalPlatforms, type LocalPlatforms } from "../support/platforms";

let dir = "";
let env: NodeJS.ProcessEnv = { ...process.env };

/** Run the CLI without blocking this process (the local platform server answers from it). */
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-"));
  env = { ...process.env, DATABASE_URL: "file:./scratch/x.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data"), BCRYPT_COST: "4" };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("campuswatch CLI", async () => {
  it("--help lists the subcommands", async () => {
    const r = await cw("--help");
    expect(r.code).toBe(0);
    for (const c of ["db", "user", "accounts", "crawl", "start", "serve", "topics", "posts", "discover", "run"])
      expect(r.out).toMatch(new RegExp(`^\\s+${c}\\b`, "m"));
  });

  it("db migrate creates a working database at DATABASE_URL (relative to the working directory)", async () => {
    const r = await cw("db", "migrate");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dir, "scratch/x.db"))).toBe(true);
    expect((await cw("db", "migrate")).out).toMatch(/already up to date/);
  });

  it("user add creates a user and refuses an unknown role in one line", async () => {
    expect((await cw("user", "add", "--username", "alice", "--password", "password-1", "--role", "admin")).code).toBe(0);
    const bad = await cw("user", "add", "--username", "bob", "--password", "password-1", "--role", "owner");
    expect(bad.code).not.toBe(0);
    expect(bad.err.trim().split("\n")).toHaveLength(1);
    expect(bad.err).toMatch(/role must be admin, reviewer or viewer/);
    const dup = await cw("user", "add", "--username", "alice", "--password", "password-2", "--role", "reviewer");
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already exists/);
  });

  it("user disable/enable: the last admin is kept, an unknown name is refused, list shows who is disabled", async () => {
    const last = await cw("user", "disable", "alice");
    expect(last.code).toBe(1);
    expect(last.err.trim()).toBe("campuswatch: This is the last admin: disabling them would leave nobody able to manage CampusWatch.");
    expect((await cw("user", "disable", "nobody")).err).toMatch(/no user named "nobody"/);
    expect((await cw("user", "add", "--username", "carol", "--password", "password-1", "--role", "reviewer")).code).toBe(0);
    expect((await cw("user", "disable", "carol")).out.trim()).toBe("disabled reviewer carol");
    expect((await cw("user", "list")).out).toMatch(/\tcarol\treviewer\tlast sign-in never\tdisabled since \d{4}-/);
    expect((await cw("user", "enable", "carol")).out.trim()).toBe("enabled reviewer carol");
    expect((await cw("user", "list")).out).not.toMatch(/disabled/);
  });

  it("wrong arguments exit non-zero with a one-line reason", async () => {
    for (const args of [["nonsense"], ["accounts", "add"], ["crawl", "once", "--account", "x"], ["posts", "export", "--format", "xml"]]) {
      const r = await cw(...args);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
  });

  it("accounts add refuses a malformed URL and a bad cron expression with a message", async () => {
    const url = await cw("accounts", "add", "not a url");
    expect(url.code).toBe(1);
    expect(url.err).toMatch(/not a valid URL/);
    const cron = await cw("accounts", "add", "https://tieba.baidu.com/f?kw=test", "--cron", "61 * * * *");
    expect(cron.code).toBe(1);
    expect(cron.err).toMatch(/invalid cron expression/);
  });

  describe("with a local platform", async () => {
    let site: LocalPlatforms;
    beforeAll(async () => {
      site = await startLocalPlatforms({
        seed: 61,
        now: new Date(),
        accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 },
        postsPerAccount: 6,
        repliesPerPost: [0, 2],
      });
    });
    afterAll(async () => site?.close());

    it("accounts add / list, crawl once, posts export, accounts remove", async () => {
      const add = await cw("accounts", "add", site.entryUrl("tieba-1"), "--name", "南苑吧");
      expect(add.code).toBe(0);
      expect(add.out).toMatch(/added tieba account 1 "南苑吧"/);
      expect((await cw("accounts", "add", site.entryUrl("tieba-1"))).err).toMatch(/already registered/);
      expect((await cw("accounts", "list")).out).toMatch(/^1\ttieba\ton\t/m);

      // A parse thread, as on a machine with cores to spare: the built CLI's worker must load.
      const crawl = await runCli(["crawl", "once", "--host-delay-ms", "0", "--quiet"], {
        cwd: dir,
        env: { ...env, CAMPUSWATCH_PARSE_THREADS: "1", CAMPUSWATCH_PROFILE: "1" },
      });
      expect(crawl.code).toBe(0);
      const expected = site.model.visiblePosts(site.account("tieba-1")).reduce((n, p) => n + 1 + site.model.visibleReplies(p).length, 0);
      expect(crawl.out).toMatch(new RegExp(`account 1 南苑吧: ok .* ${expected} new, 0 changed`));
      const line = crawl.err.split("\n").find((l) => l.startsWith('{"campuswatchProfile"'))!;
      const { parseThreads } = (JSON.parse(line) as { campuswatchProfile: { parseThreads: { threads: number; answered: number; fellBack: number } } })
        .campuswatchProfile;
      // Every page was parsed on the thread: the list and each thread page.
      expect(parseThreads.threads).toBe(1);
      expect(parseThreads.answered).toBeGreaterThan(site.model.visiblePosts(site.account("tieba-1")).length);
      expect(parseThreads.fellBack).toBe(0);

      const jsonl = await cw("posts", "export", "--format", "jsonl");
      expect(jsonl.code).toBe(0);
      const records = jsonl.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records).toHaveLength(expected);
      const r0 = records[0]!;
      for (const k of [
        "accountUrl",
        "platform",
        "platformId",
        "parentPlatformId",
        "url",
        "title",
        "author",
        "authorId",
        "publishedAt",
        "text",
        "sha1",
        "version",
        "firstSeenAt",
        "lastSeenAt",
        "deletedAt",
        "incomplete",
        "flags",
      ])
        expect(r0).toHaveProperty(k);
      expect(r0.accountUrl).toBe(site.entryUrl("tieba-1"));
      expect(String(r0.publishedAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(records.filter((r) => r.parentPlatformId !== null).length).toBeGreaterThan(0);

      const csv = await cw("posts", "export", "--format", "csv", "--account", "1");
      expect(csv.out.split("\r\n")[0]).toBe(
        "accountUrl,platform,platformId,parentPlatformId,kind,url,title,author,authorId,publishedAt,text,sha1,version,firstSeenAt,lastSeenAt,deletedAt,incomplete,flags,sources,incidentId",
      );

      const rm = await cw("accounts", "remove", "1");
      expect(rm.out).toMatch(new RegExp(`removed account 1 "南苑吧" and its ${expected} posts`));
    });
  });
  it("accounts set --cookie-file stores login cookies without printing them; bad files are refused and change nothing", async () => {
    const add = await cw("accounts", "add", "https://weibo.com/u/1234567890", "--name", "校团委");
    expect(add.code).toBe(0);
    const id = /account (\d+)/.exec(add.out)![1]!;
    const future = Math.floor(Date.now() / 1000) + 86_400;
    const file = path.join(dir, "cookies.txt");
    fs.writeFileSync(
      file,
      `# Netscape HTTP Cookie File\n.weibo.cn\tTRUE\t/\tTRUE\t${future}\tSUB\tsecret-sub-value\n.google.com\tTRUE\t/\tFALSE\t${future}\tNID\tg\n`,
    );
    const set = await cw("accounts", "set", id, "--cookie-file", file);
    expect(set.err).toBe("");
    expect(set.out).toMatch(/1 login cookies stored encrypted \(read as netscape\)/);
    expect(set.out).toMatch(/weibo\.cn\t1 cookies\texpire /);
    expect(set.out).toMatch(/left out 1 cookies of other sites \(google\.com\)/);
    expect(set.out).not.toContain("secret-sub-value");
    const list = await cw("accounts", "list", "--json");
    expect(list.out).not.toContain("secret-sub-value");
    expect(list.out).not.toContain('"cookies"');

    fs.writeFileSync(file, "sid=1; broken");
    const bad = await cw("accounts", "set", id, "--cookie-file", file);
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe('campuswatch: cookies: cookie 2: expected name=value, got "broken"');
    const missing = await cw("accounts", "set", id, "--cookie-file", path.join(dir, "nope.txt"));
    expect(missing.err.trim()).toMatch(/^campuswatch: cannot read .*nope\.txt: ENOENT$/);
    expect((await cw("accounts", "set", id)).err).toMatch(/nothing to set/);
    // The refused files left the stored cookies as they were.
    expect((await cw("accounts", "list", "--json")).out).toMatch(/"cookieSummary":"\[\{\\"domain\\":\\"weibo\.cn\\"/);
    expect((await cw("accounts", "set", id, "--clear-cookies")).out).toMatch(/login cookies removed/);
    // robots.txt policy: refused when unknown, recorded with who set it.
    const badPolicy = await cw("accounts", "set", id, "--robots", "sometimes");
    expect(badPolicy.code).toBe(1);
    expect(badPolicy.err.trim()).toBe('campuswatch: robots: must be obey or ignore (got "sometimes")');
    expect((await cw("accounts", "set", id, "--robots", "ignore")).out).toMatch(/Disallow rules ignored \(Crawl-delay still honoured\)/);
    expect((await cw("accounts", "list", "--json")).out).toMatch(/"robotsPolicy":"ignore","robotsPolicySetBy":"cli \([^)]+\)"/);
    const refusedAdd = await cw("accounts", "add", "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=9", "--robots", "maybe");
    expect(refusedAdd.code).toBe(1);
    expect((await cw("accounts", "list", "--json")).out).not.toContain("fid=9");
    expect((await cw("accounts", "remove", id)).code).toBe(0);
  });
});
