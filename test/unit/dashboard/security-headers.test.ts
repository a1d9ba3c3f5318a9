import { describe, expect, test } from "vitest";
// Next.js's own parser: the nonce the proxy puts in the request's CSP is the one Next.js stamps on its scripts.
import { getScriptNonceFromHeader } from "next/dist/server/app-render/get-script-nonce-from-header";
import { contentSecurityPolicy, newNonce, perRequestSecurityHeaders, PERMISSIONS_POLICY, strictTransportSecurity } from "@/lib/security-headers";
import { CspReportLog, parseCspReport, readCapped } from "@/lib/csp-report";

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("Content-Security-Policy (lib/security-headers.ts)", () => {
  test("scripts need this response's nonce: no 'unsafe-inline', 'strict-dynamic', no inline handlers, reports sent", () => {
    const nonce = newNonce();
    const d = directives(contentSecurityPolicy(nonce));
    expect(d.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(d.get("script-src-attr")).toEqual(["'none'"]);
    expect(d.get("style-src-elem")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("report-uri")).toEqual(["/api/csp-report"]);
    expect(contentSecurityPolicy(nonce)).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy(nonce, { dev: true })).toContain("'unsafe-eval'");
  });

  test("Next.js reads the nonce back out of the policy", () => {
    const nonce = newNonce();
    expect(getScriptNonceFromHeader(contentSecurityPolicy(nonce))).toBe(nonce);
  });

  test("nonces are 128 random bits in base64 and differ on every call", () => {
    const seen = new Set(Array.from({ length: 200 }, () => newNonce()));
    expect(seen.size).toBe(200);
    for (const nonce of seen) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  test("HSTS only when the public URL is https", () => {
    expect(strictTransportSecurity("https://watch.example.edu")).toBe("max-age=31536000");
    expect(strictTransportSecurity("http://watch.example.edu")).toBeNull();
    expect(strictTransportSecurity(null)).toBeNull();
    expect(strictTransportSecurity("not a url")).toBeNull();
    expect(perRequestSecurityHeaders("abc", { publicUrl: "https://x.example" })["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(perRequestSecurityHeaders("abc", { publicUrl: "http://x.example" })).not.toHaveProperty("Strict-Transport-Security");
  });

  test("Permissions-Policy denies camera, microphone and geolocation to everyone", () => {
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
  });
});

describe("CSP reports (lib/csp-report.ts)", () => {
  test("both report formats are read; fields lose control characters and are cut short", () => {
    const uri = parseCspReport(
      JSON.stringify({
        "csp-report": {
          "document-uri": "http://127.0.0.1/posts",
          "effective-directive": "script-src-elem",
          "blocked-uri": "inline",
          "line-number": 3,
          "source-file": "x\r\nFAKE LOG LINE",
        },
      }),
    );
    expect(uri).toEqual([
      { documentUri: "http://127.0.0.1/posts", directive: "script-src-elem", blockedUri: "inline", sourceFile: "x  FAKE LOG LINE", line: 3 },
    ]);
    const to = parseCspReport(
      JSON.stringify([
        { type: "csp-violation", body: { documentURL: "http://h/", effectiveDirective: "script-src-attr", blockedURL: "inline", sourceFile: "a".repeat(500) } },
        { type: "deprecation", body: {} },
      ]),
    );
    expect(to).toHaveLength(1);
    expect(to[0]!.directive).toBe("script-src-attr");
    expect(to[0]!.sourceFile).toHaveLength(200);
    expect(parseCspReport("not json")).toEqual([]);
    expect(parseCspReport("{}")).toEqual([]);
  });

  test("a body over the cap is refused without reading it all", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    expect(await readCapped(stream, 4096)).toBeNull();
    expect(pulled).toBeLessThan(10);
    expect(await readCapped(new Response("small").body, 4096)).toBe("small");
  });

  test("log lines are rate-limited to 20 a minute", async () => {
    const lines: string[] = [];
    const log = new CspReportLog((line) => lines.push(line));
    const v = { documentUri: "http://h/", directive: "script-src-elem", blockedUri: "inline", sourceFile: "", line: null };
    expect(await log.log(Array.from({ length: 25 }, () => v))).toBe(20);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe("CSP violation on http://h/: script-src-elem blocked inline");
  });
});
