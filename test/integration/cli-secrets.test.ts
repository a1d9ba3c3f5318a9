/**
 * Nothing secret is echoed by the CLI (a real process, a real database file): a proxy password
 * however spelled, a database password, a cookie value. `--cookie-file -` reads standard input,
 * `--cookie VALUE` warns about shell history, and a cookie JSON with an absurd expiry is refused
 * with its line, changing nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";

let dir = "";
let env: NodeJS.ProcessEnv = { ...process.env };
const cw = (args: string[], input?: string, extra: Record<string, string> = {}) => runCli(args, { cwd: dir, env: { ...env, ...extra }, input });

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-secrets-"));
  env = { ...process.env, DATABASE_URL: "file:./x.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
  delete env.CAMPUSWATCH_PROXY;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the CLI never echoes a secret", () => {
  let id = "";
  it("refuses malformed proxy URLs without the password, however it is spelled", async () => {
    expect((await cw(["db", "migrate"])).code).toBe(0);
    const add = await cw(["accounts", "add", "http://127.0.0.1:9/forum.php?mod=forumdisplay&fid=2", "--name", "board"]);
    expect(add.code).toBe(0);
    id = /account (\d+)/.exec(add.out)![1]!;
    const spellings = [
      "http://u:SEC@RET9@h:1 bad",
      "http://u:pa/ss/RET9@h:3128",
      "socks5://u:SEC%40RET9@h:1080/x",
      "u:SEC@RET9@h:3128",
      "gopher://u:RET9@h:70",
    ];
    for (const raw of spellings) {
      const r = await cw(["accounts", "set", id, "--proxy", raw]);
      expect(r.code, raw).toBe(1);
      expect(r.err, raw).toMatch(/^campuswatch: --proxy: /);
      expect(r.out + r.err, raw).not.toContain("RET9");
    }
    const first = await cw(["accounts", "set", id, "--proxy", spellings[0]!]);
    expect(first.err.trim()).toBe(
      'campuswatch: --proxy: not a proxy URL: "http://***@h:1 bad" (expected e.g. http://proxy.example:3128 or socks5://127.0.0.1:1080)',
    );
    // Nothing was stored by the refusals.
    expect((await cw(["accounts", "list", "--json"])).out).toContain('"proxyDisplay":null');
    // A space inside the password is percent-encoded by the URL parser: accepted, and shown masked.
    const spaced = await cw(["accounts", "set", id, "--proxy", "http://u:SEC RET9@127.0.0.1:3128"]);
    expect(spaced.out.trim()).toBe(`account ${id}: crawled through http://u:***@127.0.0.1:3128 (stored encrypted)`);
    expect((await cw(["accounts", "list", "--json"])).out).not.toContain("RET9");
    expect((await cw(["accounts", "set", id, "--clear-proxy"])).code).toBe(0);
  }, 60_000);

  it("a malformed CAMPUSWATCH_PROXY or DATABASE_URL is named without its password", async () => {
    const proxy = await cw(["crawl", "once"], undefined, { CAMPUSWATCH_PROXY: "http://ops:SEC@RET9@gw.campus:1 x" });
    expect(proxy.code).not.toBe(0);
    expect(proxy.err).toContain("CAMPUSWATCH_PROXY: not a proxy URL");
    expect(proxy.out + proxy.err).not.toContain("RET9");
    const database = await cw(["db", "migrate"], undefined, { DATABASE_URL: "mysql://cw:SEC@RET9@db.campus/cw" });
    expect(database.code).toBe(1);
    expect(database.err).toContain("DATABASE_URL must start with file: (SQLite) or postgresql://");
    expect(database.out + database.err).not.toContain("RET9");
  }, 60_000);

  it("--cookie warns about shell history; --cookie-file - reads standard input", async () => {
    const inline = await cw(["accounts", "set", id, "--cookie", "sid=inline-secret-1"]);
    expect(inline.code).toBe(0);
    expect(inline.err).toMatch(/warning: --cookie leaves the cookie value in your shell history; next time use --cookie-file -/);
    expect(inline.out).toMatch(/1 login cookies stored encrypted \(read as header\)/);
    expect(inline.out + inline.err).not.toContain("inline-secret-1");

    const piped = await cw(["accounts", "set", id, "--cookie-file", "-"], "Cookie: sid=piped-secret-2; uid=7\n");
    expect(piped.err).toBe("");
    expect(piped.code).toBe(0);
    expect(piped.out).toMatch(/2 login cookies stored encrypted \(read as header\)/);
    expect(piped.out).not.toContain("piped-secret-2");

    const future = Math.floor(Date.now() / 1000) + 86_400;
    const json = `[\n  {"domain": "127.0.0.1", "name": "a", "value": "1", "expirationDate": ${future}},\n  {"domain": "127.0.0.1", "name": "b", "value": "2",\n   "expirationDate": 1e308}\n]\n`;
    const absurd = await cw(["accounts", "set", id, "--cookie-file", "-"], json);
    expect(absurd.code).toBe(1);
    expect(absurd.err.trim()).toBe('campuswatch: cookies: entry 2 (line 3): the expiry "1e+308" is not a date between 1970 and 9999');
    // The refusal kept the piped cookies.
    expect((await cw(["accounts", "list", "--json"])).out).toMatch(/"cookieSummary":"\[\{\\"domain\\":\\"127\.0\.0\.1\\",\\"count\\":2/);
  }, 60_000);
});
