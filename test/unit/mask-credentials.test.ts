/**
 * Credentials in URLs never reach a message, however the password is spelled. The masking works
 * on the raw text (the error path is where the input is malformed): everything from the scheme's
 * `//` to the last `@` goes. Each row is checked four ways: the raw mask, the proxy display, the
 * proxy parser's refusal (if any) and the database URL redaction.
 */
import { describe, expect, it } from "vitest";
import { maskCredentialsIn, maskUrlCredentials } from "@/lib/mask";
import { maskProxyUrl, parseProxyUrl, ProxyUrlError } from "@/lib/net/proxy-url";
import { redactUrl } from "@/lib/config";

/** [raw value, the secret part that must never show, what the raw mask gives]. */
const SPELLINGS: [string, string, string][] = [
  ["http://u:SEC@RET9@h:1 bad", "RET9", "http://***@h:1 bad"],
  ["http://u:SEC@RET9@h:1", "RET9", "http://***@h:1"],
  ["http://u:a@b@c@RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:pa/ss/RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:pa:ss:RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:SEC%40RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:SEC%2FRET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:SEC%zzRET9@h:3128", "RET9", "http://***@h:3128"],
  ["u:SECRET9@h:3128", "SECRET9", "***@h:3128"],
  ["u:SEC@RET9@h:3128", "RET9", "***@h:3128"],
  ["socks5://u:SEC@RET9@127.0.0.1:1080", "RET9", "socks5://***@127.0.0.1:1080"],
  ["socks5h://u:p/RET9@h:1080/x", "RET9", "socks5h://***@h:1080/x"],
  ["http://u:SEC RET9@h:3128", "RET9", "http://***@h:3128"],
  ["  http://u:RET9@h:3128  ", "RET9", "  http://***@h:3128  "],
  ["http://u:RET9@h:3128/%%%", "RET9", "http://***@h:3128/%%%"],
  ["http://u:p?RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:p#RET9@h:3128", "RET9", "http://***@h:3128"],
  ["gopher://u:RET9@h:70", "RET9", "gopher://***@h:70"],
  ["http://:RET9@h:3128", "RET9", "http://***@h:3128"],
  ["http://u:\tRET9\n@h:3128", "RET9", "http://***@h:3128"],
];

describe("masking credentials in a URL that may not parse", () => {
  it.each(SPELLINGS)("%j", (raw, secret, masked) => {
    expect(maskUrlCredentials(raw)).toBe(masked);
    expect(maskProxyUrl(raw)).not.toContain(secret);
    expect(redactUrl(raw)).not.toContain(secret);
    try {
      parseProxyUrl(raw);
    } catch (e) {
      if (!(e instanceof ProxyUrlError)) throw e;
      expect(e.message).not.toContain(secret);
      expect(JSON.stringify(e.values)).not.toContain(secret);
    }
  });

  it("leaves text without credentials alone, and keeps the user when the URL parses", () => {
    expect(maskUrlCredentials("http://proxy.example:3128")).toBe("http://proxy.example:3128");
    expect(maskUrlCredentials("file:./data/campuswatch.db")).toBe("file:./data/campuswatch.db");
    expect(maskProxyUrl("http://u:RET9@h:3128")).toBe("http://u:***@h:3128");
    expect(redactUrl("postgresql://cw:RET9@db:5432/cw")).toBe("postgresql://cw:***@db:5432/cw");
    // The parser would find host `c` and put the rest of the password in the path: the raw rule wins.
    expect(redactUrl("postgresql://cw:ab@c/RET9@db:5432/cw")).toBe("postgresql://***@db:5432/cw");
  });

  it("masks every URL's credentials inside free text, word by word", () => {
    const text = "connect to http://u:a@RET9@h:1 failed; fallback socks5://x:RET9@127.0.0.1:1080 also; mail a@b.c";
    const out = maskCredentialsIn(text);
    expect(out).toBe("connect to http://***@h:1 failed; fallback socks5://***@127.0.0.1:1080 also; mail a@b.c");
  });
});
