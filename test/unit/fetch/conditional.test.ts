/**
 * The conditional layer's pure parts (crawler/fetch/conditional.ts): reading what an account keeps
 * (anything unreadable reads as "none"), which headers a head request carries, what a 304 does,
 * and what is kept after a run. The crawl against real servers is test/integration/crawl/conditional.
 */
import { describe, expect, it } from "vitest";
import { NotModifiedError } from "../../../crawler/errors";
import { conditionalLayer, NO_VALIDATORS, nextListValidators, parseListValidators } from "../../../crawler/fetch/conditional";
import type { FetchOptions, FetchResult } from "../../../crawler/types";

const answer = (status: number, headers: Record<string, string> = {}, viaBrowser = false): FetchResult => ({
  url: "http://127.0.0.1/f",
  status,
  headers,
  body: status === 304 ? "" : "<html></html>",
  bytes: status === 304 ? 0 : 13,
  contentType: "text/html",
  viaBrowser,
});

/** A fetcher that answers from a script and remembers the headers it was sent. */
function scripted(...answers: FetchResult[]) {
  const sent: Record<string, string>[] = [];
  return {
    sent,
    fetcher: {
      get: async (_url: string, options?: FetchOptions) => {
        sent.push(options?.headers ?? {});
        return answers.shift()!;
      },
    },
  };
}

describe("parseListValidators", () => {
  it.each([
    ["null", null],
    ["not JSON", "{"],
    ["an array", "[]"],
    ["a number", "7"],
    ["urls not an object", JSON.stringify({ urls: 3 })],
    ["a validator with a newline", JSON.stringify({ urls: { u: { etag: '"a"\r\nX-Evil: 1' } } })],
    ["an unparseable Last-Modified", JSON.stringify({ urls: { u: { lastModified: "yesterday" } } })],
    ["a too long ETag", JSON.stringify({ urls: { u: { etag: `"${"x".repeat(300)}"` } } })],
  ])("%s reads as no validators", (_what, json) => {
    expect(parseListValidators(json).urls).toEqual({});
  });

  it("keeps what is well formed, at most four URLs, and counts only whole non-negative numbers", () => {
    const urls = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`http://h/${n}`, { etag: `"e${n}"` }]));
    const v = parseListValidators(JSON.stringify({ urls, savedAt: "2026-12-03T10:00:00.000Z", notModifiedRuns: -2, notModifiedTotal: 1.5 }));
    expect(Object.keys(v.urls)).toHaveLength(4);
    expect(v.savedAt).toBe("2026-12-03T10:00:00.000Z");
    expect([v.notModifiedRuns, v.notModifiedTotal]).toEqual([0, 0]);
  });
});

describe("conditionalLayer", () => {
  const kept = parseListValidators(JSON.stringify({ urls: { "http://127.0.0.1/f": { etag: '"abc"', lastModified: "Thu, 03 Dec 2026 10:00:00 GMT" } } }));

  it("sends both validators on a head request, none on any other request", async () => {
    const s = scripted(answer(200), answer(200));
    const layer = conditionalLayer(s.fetcher, kept, true);
    await layer.fetcher.get("http://127.0.0.1/f", { kind: "list", conditional: true });
    await layer.fetcher.get("http://127.0.0.1/f", { kind: "list" });
    expect(s.sent[0]).toEqual({ "if-none-match": '"abc"', "if-modified-since": "Thu, 03 Dec 2026 10:00:00 GMT" });
    expect(s.sent[1]).toEqual({});
  });

  it("turns a 304 into NotModifiedError and remembers it", async () => {
    const layer = conditionalLayer(scripted(answer(304)).fetcher, kept, true);
    await expect(layer.fetcher.get("http://127.0.0.1/f", { conditional: true })).rejects.toBeInstanceOf(NotModifiedError);
    expect(layer.notModified).toBe("http://127.0.0.1/f");
  });

  it("refuses a 304 to a request that asked nothing, and sends nothing when disabled", async () => {
    const s = scripted(answer(304));
    const layer = conditionalLayer(s.fetcher, kept, false);
    await expect(layer.fetcher.get("http://127.0.0.1/f", { conditional: true })).rejects.toThrow(/without validators/);
    expect(s.sent[0]).toEqual({});
    expect(layer.notModified).toBeNull();
  });

  it("records validators of plain HTTP 2xx answers only", async () => {
    const layer = conditionalLayer(scripted(answer(200, { etag: '"n1"' }), answer(200, { etag: '"n2"' }, true)).fetcher, NO_VALIDATORS, true);
    await layer.fetcher.get("http://127.0.0.1/a", { conditional: true });
    await layer.fetcher.get("http://127.0.0.1/b", { conditional: true });
    expect(layer.seen).toEqual({ "http://127.0.0.1/a": { etag: '"n1"' } });
  });
});

describe("nextListValidators", () => {
  const at = new Date("2026-12-03T12:00:00Z");
  const prev = { ...NO_VALIDATORS, urls: { u: { etag: '"old"' } }, savedAt: "2026-12-03T11:00:00.000Z", notModifiedRuns: 2, notModifiedTotal: 5 };

  it("a 304 keeps the validators and counts the run", async () => {
    const layer = conditionalLayer(scripted(answer(304)).fetcher, prev, true);
    await layer.fetcher.get("u", { conditional: true }).catch(() => undefined);
    expect(nextListValidators(prev, layer, true, at)).toMatchObject({
      urls: prev.urls,
      notModifiedRuns: 3,
      notModifiedTotal: 6,
      notModifiedAt: at.toISOString(),
    });
  });

  it("a complete run keeps its own; an incomplete one keeps none", async () => {
    const layer = conditionalLayer(scripted(answer(200, { etag: '"new"' })).fetcher, prev, true);
    await layer.fetcher.get("u", { conditional: true });
    expect(nextListValidators(prev, layer, true, at)).toMatchObject({
      urls: { u: { etag: '"new"' } },
      savedAt: at.toISOString(),
      notModifiedRuns: 0,
      notModifiedTotal: 5,
    });
    expect(nextListValidators(prev, layer, false, at)).toMatchObject({ urls: {}, savedAt: null, notModifiedRuns: 0, notModifiedTotal: 5 });
  });
});
