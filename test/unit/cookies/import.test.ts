/**
 * Login cookies as operators hand them over (a Cookie header, cookies.txt, a JSON export): only
 * the account's site's cookies are kept, bad input is refused with the line at fault, and the
 * sealed form opens only with the same secret.
 */
import { describe, expect, it } from "vitest";
import { cookieDomainsFor, CookieInputError, jsonListEntryLines, parseCookieInput, summariseCookies } from "@/lib/cookies/import";
import { isCurrentSeal, isSealed, seal, SealError, unseal } from "@/lib/secret-box";
import { ACCOUNT_COOKIES, ACCOUNT_PROXY, TOPIC_DINGTALK_SECRET, TOPIC_FEISHU_SECRET } from "@/lib/sealed-columns";
import { CookieJar } from "@/crawler/fetch/cookies";

const NOW = Date.parse("2026-12-01T00:00:00Z");
const future = Math.floor(NOW / 1000) + 30 * 86_400;
const weibo = { entryUrl: "https://weibo.com/u/1234567890", platform: "weibo" as const };
const board = { entryUrl: "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2", platform: "discuz" as const };

describe("which sites an account's cookies may be for", () => {
  it("the entry's registrable domain, plus the platform's own other sites", () => {
    expect(cookieDomainsFor(weibo.entryUrl, "weibo")).toEqual(["weibo.com", "weibo.cn", "sina.com.cn"]);
    expect(cookieDomainsFor("https://tieba.baidu.com/f?kw=x", "tieba")).toEqual(["baidu.com"]);
    expect(cookieDomainsFor(board.entryUrl, "discuz")).toEqual(["example.edu.cn"]);
    expect(cookieDomainsFor("http://127.0.0.1:8080/forum.php?mod=forumdisplay&fid=2", "discuz")).toEqual(["127.0.0.1"]);
  });
});

describe("parseCookieInput", () => {
  it("a Cookie header value (with or without 'Cookie:') is scoped to the account's site", () => {
    const r = parseCookieInput("Cookie: cdb_auth=abc%2Fdef; cdb_saltkey=Xy1; lastvisit=1700000000", board, NOW);
    expect(r.format).toBe("header");
    expect(r.cookies.map((c) => [c.name, c.value, c.domain, c.hostOnly])).toEqual([
      ["cdb_auth", "abc%2Fdef", "example.edu.cn", false],
      ["cdb_saltkey", "Xy1", "example.edu.cn", false],
      ["lastvisit", "1700000000", "example.edu.cn", false],
    ]);
  });

  it("a Netscape cookies.txt: HttpOnly lines read, other sites and expired cookies left out", () => {
    const txt = [
      "# Netscape HTTP Cookie File",
      "# https://curl.se/docs/http-cookies.html",
      "",
      `.weibo.cn\tTRUE\t/\tTRUE\t${future}\tSUB\t_2A25Kxyz`,
      `#HttpOnly_.weibo.com\tTRUE\t/\tFALSE\t${future}\tSUBP\t0033Wrs`,
      `m.weibo.cn\tFALSE\t/\tFALSE\t0\tMLOGIN\t1`,
      `.google.com\tTRUE\t/\tTRUE\t${future}\tNID\tgoogle-secret`,
      `.weibo.cn\tTRUE\t/\tFALSE\t1000\tOLD\tx`,
    ].join("\n");
    const r = parseCookieInput(txt, weibo, NOW);
    expect(r.format).toBe("netscape");
    expect(r.cookies.map((c) => `${c.domain}:${c.name}:${c.hostOnly}:${c.secure}:${c.httpOnly}`)).toEqual([
      "weibo.cn:SUB:false:true:false",
      "weibo.com:SUBP:false:false:true",
      "m.weibo.cn:MLOGIN:true:false:false",
    ]);
    expect(r.cookies[2]!.expires).toBeUndefined();
    expect(r.skipped).toEqual({ "google.com": 1 });
    expect(r.expired).toBe(1);
  });

  it("a browser extension's JSON export and Playwright's storage state", () => {
    const editor = JSON.stringify([
      { domain: ".baidu.com", name: "BDUSS", value: "abc-123", path: "/", secure: false, httpOnly: true, hostOnly: false, expirationDate: future + 0.5 },
      { domain: "tieba.baidu.com", name: "TIEBAUID", value: "u1", path: "/", hostOnly: true, session: true },
    ]);
    const r = parseCookieInput(editor, { entryUrl: "https://tieba.baidu.com/f?kw=北江大学", platform: "tieba" }, NOW);
    expect(r.format).toBe("json");
    expect(r.cookies.map((c) => [c.domain, c.name, c.hostOnly, c.expires === undefined])).toEqual([
      ["baidu.com", "BDUSS", false, false],
      ["tieba.baidu.com", "TIEBAUID", true, true],
    ]);
    const state = JSON.stringify({ cookies: [{ name: "sid", value: "v", domain: "bbs.example.edu.cn", path: "/", expires: -1, secure: false }], origins: [] });
    expect(parseCookieInput(state, board, NOW).cookies).toHaveLength(1);
  });

  it("refuses bad input with the line or entry at fault, and input with nothing for this site", () => {
    const refuse = (text: string, account = board) => {
      try {
        parseCookieInput(text, account, NOW);
      } catch (e) {
        expect(e).toBeInstanceOf(CookieInputError);
        return (e as Error).message;
      }
      throw new Error("expected a refusal");
    };
    expect(refuse("")).toBe("no cookies given");
    expect(refuse("sid=1; broken")).toBe('cookie 2: expected name=value, got "broken"');
    expect(refuse("sid=a b")).toBe("cookie 1: the value of sid has characters a cookie cannot carry");
    expect(refuse(`.example.edu.cn\tTRUE\t/\tFALSE\t${future}\tsid\n`)).toMatch(/^line 1: expected 7 tab-separated fields/);
    expect(refuse(`.example.edu.cn\tyes\t/\tFALSE\t${future}\tsid\tv`)).toBe("line 1: the 2nd and 4th fields are TRUE or FALSE");
    expect(refuse("[{")).toMatch(/^not valid JSON/);
    expect(refuse('[{"name":"a","value":"b"}]')).toBe("entry 1 (line 1): no domain");
    expect(refuse('{"a":1}')).toMatch(/expected a JSON array of cookies/);
    expect(refuse(`.google.com\tTRUE\t/\tFALSE\t${future}\tNID\tx`)).toBe("none of the cookies is for example.edu.cn (found: google.com)");
    expect(refuse(`.example.edu.cn\tTRUE\t/\tFALSE\t1000\tsid\tx`)).toMatch(/^all 1 cookies have expired/);
    expect(refuse("x".repeat(600 * 1024))).toMatch(/larger than 512 KiB/);
  });

  it("refuses an absurd expiry with the entry and the line it starts on, never guessing a session cookie", () => {
    const entry = (expiry: string) => `{"domain": ".example.edu.cn", "name": "sid", "value": "v", "expirationDate": ${expiry}}`;
    // Pretty-printed like Cookie-Editor's export, after a blank line: entry 2 starts on line 6.
    const exported = (expiry: string) =>
      `\n[\n  ${entry(String(future))},\n  {"domain": ".example.edu.cn", "name": "a",\n   "value": "1"},\n  ${entry(expiry)}\n]\n`;
    const cases: [string, string][] = [
      ["1e308", "1e+308"],
      ["-5", "-5"],
      ['"NaN"', "NaN"],
      ['"Infinity"', "Infinity"],
      ['"not a date"', "not a date"],
      ["253402300800", "253402300800"],
      [String(NOW), String(NOW)], // milliseconds taken for seconds: year 58,000
      ['"99999-01-01"', "99999-01-01"],
      ['{"s": 1}', '{"s":1}'],
    ];
    for (const [expiry, shown] of cases) {
      let error: CookieInputError | undefined;
      try {
        parseCookieInput(exported(expiry), board, NOW);
      } catch (e) {
        error = e as CookieInputError;
      }
      expect(error, expiry).toBeInstanceOf(CookieInputError);
      expect(error!.message).toBe(`entry 3 (line 6): the expiry ${JSON.stringify(shown)} is not a date between 1970 and 9999`);
      expect(error!.code).toBe("expiry");
      expect(error!.values).toMatchObject({ kind: "entry", n: 3, line: 6 });
    }
    // Playwright's storage state: the list under "cookies", -1 and 0 mean a session cookie.
    const state = (exp: string) => `{\n "origins": [],\n "cookies": [\n  {"name": "a", "value": "1", "domain": "bbs.example.edu.cn", "expires": ${exp}}\n ]\n}`;
    expect(parseCookieInput(state("-1"), board, NOW).cookies[0]!.expires).toBeUndefined();
    expect(parseCookieInput(state("0"), board, NOW).cookies[0]!.expires).toBeUndefined();
    expect(parseCookieInput(state('"2027-01-01T00:00:00Z"'), board, NOW).cookies[0]!.expires).toBe(Date.parse("2027-01-01T00:00:00Z"));
    expect(() => parseCookieInput(state("-2"), board, NOW)).toThrow("entry 1 (line 4): the expiry");
    // cookies.txt: a number too large for a date is refused with its line.
    expect(() => parseCookieInput(`# Netscape HTTP Cookie File\n\n.example.edu.cn\tTRUE\t/\tFALSE\t99999999999999999999\tsid\tv`, board, NOW)).toThrow(
      /^line 3: the expiry is seconds since 1970/,
    );
  });

  it("finds the line of each entry of a cookie list, strings with brackets and escapes included", () => {
    const text = '[\n {"name": "a]\\"}", "v": [1, {"x": "["}]},\n\n 7, "s",\n {}\n]';
    expect(jsonListEntryLines(text)).toEqual([2, 4, 4, 5]);
    expect(jsonListEntryLines('{"cookies": {"x": []}, "other": [1], "cookies2": [2]}')).toEqual([]);
  });

  it("summarises by domain with the earliest expiry, never the values", () => {
    const r = parseCookieInput(`.weibo.cn\tTRUE\t/\tFALSE\t${future}\tSUB\tsecret1\n.weibo.cn\tTRUE\t/\tFALSE\t${future - 60}\tSUBP\tsecret2\n`, weibo, NOW);
    const summary = summariseCookies(r.cookies);
    expect(summary).toEqual([{ domain: "weibo.cn", count: 2, expiresAt: new Date((future - 60) * 1000).toISOString() }]);
    expect(JSON.stringify(summary)).not.toContain("secret");
  });
});

describe("the jar sends imported cookies only where they belong", () => {
  it("a weibo.cn cookie goes to m.weibo.cn, not to weibo.com or an unrelated host", () => {
    const jar = new CookieJar();
    for (const c of parseCookieInput(`.weibo.cn\tTRUE\t/\tTRUE\t${future}\tSUB\tv1\nm.weibo.cn\tFALSE\t/api\tFALSE\t0\tH\tv2\n`, weibo, NOW).cookies)
      jar.put(c);
    expect(jar.headerFor("https://m.weibo.cn/api/container/getIndex")).toBe("H=v2; SUB=v1");
    expect(jar.headerFor("http://m.weibo.cn/api/x")).toBe("H=v2"); // Secure: https only
    expect(jar.headerFor("https://weibo.com/u/1")).toBeUndefined();
    expect(jar.headerFor("https://evil.example/")).toBeUndefined();
    expect(jar.headerFor("https://m.weibo.cn.evil.example/")).toBeUndefined();
  });

  it("a server cannot set a cookie for a public suffix or another site", () => {
    const jar = new CookieJar();
    jar.setFromResponse("https://bbs.example.edu.cn/", ["a=1; Domain=edu.cn", "b=2; Domain=example.com", "c=3; Domain=example.edu.cn"]);
    expect(jar.headerFor("https://www.example.edu.cn/")).toBe("c=3");
    expect(jar.headerFor("https://other.edu.cn/")).toBeUndefined();
  });
});

describe("sealed at rest", () => {
  const key = new TextEncoder().encode("k".repeat(40));
  it("opens with the same secret, column and row only; a changed byte fails", () => {
    const sealed = seal('[{"name":"SUB","value":"secret"}]', ACCOUNT_COOKIES, 42, key);
    expect(sealed).toMatch(/^v2\./);
    expect(sealed).not.toContain("secret");
    expect(unseal(sealed, ACCOUNT_COOKIES, 42, key)).toBe('[{"name":"SUB","value":"secret"}]');
    // Another column (another purpose: another key), another row (the associated data), another secret.
    expect(() => unseal(sealed, ACCOUNT_PROXY, 42, key)).toThrow(SealError);
    expect(() => unseal(sealed, ACCOUNT_COOKIES, 43, key)).toThrow(/belongs to another row/);
    expect(() => unseal(sealed, ACCOUNT_COOKIES, 42, new TextEncoder().encode("x".repeat(40)))).toThrow(/another CAMPUSWATCH_SECRET/);
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1);
    expect(() => unseal(flipped, ACCOUNT_COOKIES, 42, key)).toThrow(SealError);
    expect(seal("same", ACCOUNT_COOKIES, 1, key)).not.toBe(seal("same", ACCOUNT_COOKIES, 1, key)); // a fresh IV every time
    expect(() => unseal("plain text", ACCOUNT_COOKIES, 42, key)).toThrow(/not sealed/);
  });

  it("a v2 value bound to one topic's column does not open in another column of the same row", () => {
    const sealed = seal("SECabc", TOPIC_DINGTALK_SECRET, 7, key);
    expect(unseal(sealed, TOPIC_DINGTALK_SECRET, 7, key)).toBe("SECabc");
    expect(() => unseal(sealed, TOPIC_FEISHU_SECRET, 7, key)).toThrow(SealError);
  });

  it("still opens v1 values, written by versions before row binding (for any row: v1 had none)", () => {
    // Sealed by the v1 code (HKDF purpose "account-cookies", no associated data) with key "k" × 40.
    const v1 = "v1.BwcHBwcHBwcHBwcHA0Hf-vSIjwPL1lC_eyIxFfPbysybD3L_LKelU_GT_7oSPvc";
    expect(isSealed(v1)).toBe(true);
    expect(isCurrentSeal(v1)).toBe(false);
    expect(unseal(v1, ACCOUNT_COOKIES, 1, key)).toBe("legacy-cookie-value");
    expect(unseal(v1, ACCOUNT_COOKIES, 99, key)).toBe("legacy-cookie-value");
    expect(() => unseal(v1, ACCOUNT_PROXY, 1, key)).toThrow(SealError);
  });
});
