/**
 * Proxy URLs as operators write them: what is accepted (four schemes, credentials, default
 * ports, IPv6), what is refused with which code, and that a password never shows.
 */
import { afterEach, describe, expect, it } from "vitest";
import { maskProxyUrl, parseProxyUrl, ProxyUrlError } from "../../../crawler/fetch/proxy-url";
import { proxyFromEnv } from "../../../lib/config";

function refusal(raw: string): ProxyUrlError {
  try {
    parseProxyUrl(raw);
  } catch (e) {
    if (e instanceof ProxyUrlError) return e;
    throw e;
  }
  throw new Error(`${raw} was accepted`);
}

describe("parseProxyUrl", () => {
  it("reads the four schemes, with curl's default ports", () => {
    expect(parseProxyUrl("http://proxy.example.edu")).toMatchObject({
      scheme: "http",
      host: "proxy.example.edu",
      port: 80,
      url: "http://proxy.example.edu:80",
    });
    expect(parseProxyUrl("https://proxy.example.edu")).toMatchObject({ scheme: "https", port: 443 });
    expect(parseProxyUrl("socks5://127.0.0.1")).toMatchObject({ scheme: "socks5", host: "127.0.0.1", port: 1080 });
    expect(parseProxyUrl(" SOCKS5H://gw.lan:9050/ ")).toMatchObject({ scheme: "socks5h", host: "gw.lan", port: 9050, display: "socks5h://gw.lan:9050" });
  });

  it("decodes credentials and masks the password in the display form only", () => {
    const p = parseProxyUrl("socks5://li%40lab:p%3Aw%20d@10.0.0.2:1081");
    expect(p).toMatchObject({ username: "li@lab", password: "p:w d", host: "10.0.0.2", port: 1081 });
    expect(p.url).toBe("socks5://li%40lab:p%3Aw%20d@10.0.0.2:1081");
    expect(p.display).toBe("socks5://li%40lab:***@10.0.0.2:1081");
    expect(parseProxyUrl("http://user@proxy:3128")).toMatchObject({ username: "user", display: "http://user@proxy:3128" });
    expect(parseProxyUrl("http://user@proxy:3128").password).toBeUndefined();
  });

  it("keeps a password given with an empty user for HTTP proxies, and refuses it for SOCKS5", () => {
    const p = parseProxyUrl("http://:pw@h");
    expect(p).toMatchObject({ username: "", password: "pw", host: "h", port: 80, url: "http://:pw@h:80", display: "http://:***@h:80" });
    expect(parseProxyUrl("https://:p%40ss@proxy:8443")).toMatchObject({ username: "", password: "p@ss", url: "https://:p%40ss@proxy:8443" });
    // A bare ":" names neither: nothing to send.
    expect(parseProxyUrl("http://:@h:3128")).not.toHaveProperty("username");
    for (const raw of ["socks5://:pw@127.0.0.1:1080", "socks5h://:hunter2@gw.lan"]) {
      const e = refusal(raw);
      expect(e.code).toBe("socksUser");
      expect(e.message).toBe("a SOCKS5 proxy password needs a user name (RFC 1929): write socks5://user:password@host:port");
      expect(e.message).not.toContain("hunter2");
    }
    expect(maskProxyUrl("socks5h://:hunter2@gw.lan")).not.toContain("hunter2");
  });

  it("keeps IPv6 hosts without brackets, and puts them back in the URL", () => {
    const p = parseProxyUrl("socks5://[::1]:1080");
    expect(p.host).toBe("::1");
    expect(p.url).toBe("socks5://[::1]:1080");
  });

  it("refuses other schemes, non-URLs, paths and bad ports, with codes and without the password", () => {
    expect(refusal("ftp://proxy:21")).toMatchObject({ code: "scheme", values: { scheme: "ftp" } });
    expect(refusal("socks4://proxy:1080").message).toBe('unsupported proxy scheme "socks4://": use http://, https://, socks5:// or socks5h://');
    expect(refusal("")).toMatchObject({ code: "empty" });
    expect(refusal("proxy.example:3128")).toMatchObject({ code: "invalid" });
    const noScheme = refusal("user:hunter2@proxy.example:3128");
    expect(noScheme.code).toBe("invalid");
    expect(noScheme.message).not.toContain("hunter2");
    expect(refusal("http://proxy.example:3128/pac.js")).toMatchObject({ code: "path" });
    expect(refusal("http://proxy.example:3128?x=1")).toMatchObject({ code: "path" });
    expect(refusal("socks5://proxy:0")).toMatchObject({ code: "port" });
    expect(refusal("http://proxy:99999")).toMatchObject({ code: "invalid" });
    expect(refusal("socks5://:1080")).toMatchObject({ code: "invalid" });
    expect(refusal("socks5:///")).toMatchObject({ code: "host" });
    expect(refusal("http://u:hunter2@/").message).not.toContain("hunter2");
  });

  it("masks what it can of a URL it cannot parse", () => {
    expect(maskProxyUrl("http://u:hunter2@proxy:3128")).toBe("http://u:***@proxy:3128");
    expect(maskProxyUrl("gopher://u:hunter2@proxy:70")).toBe("gopher://***@proxy:70");
  });
});

describe("CAMPUSWATCH_PROXY", () => {
  const saved = process.env.CAMPUSWATCH_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.CAMPUSWATCH_PROXY;
    else process.env.CAMPUSWATCH_PROXY = saved;
  });

  it("is null when unset or blank, parsed when set", () => {
    delete process.env.CAMPUSWATCH_PROXY;
    expect(proxyFromEnv()).toBeNull();
    process.env.CAMPUSWATCH_PROXY = "  ";
    expect(proxyFromEnv()).toBeNull();
    process.env.CAMPUSWATCH_PROXY = "http://ops:s3cret@proxy.campus:3128";
    expect(proxyFromEnv()).toMatchObject({ scheme: "http", host: "proxy.campus", port: 3128, display: "http://ops:***@proxy.campus:3128" });
  });

  it("stops start-up with a message naming the variable, never the password", () => {
    process.env.CAMPUSWATCH_PROXY = "socks4://ops:s3cret@proxy.campus:1080";
    expect(() => proxyFromEnv()).toThrow('CAMPUSWATCH_PROXY: unsupported proxy scheme "socks4://": use http://, https://, socks5:// or socks5h://');
    process.env.CAMPUSWATCH_PROXY = "ops:s3cret@proxy.campus:1080";
    expect(() => proxyFromEnv()).toThrow(/^CAMPUSWATCH_PROXY: not a proxy URL: "\*\*\*@proxy.campus:1080"/);
  });
});
