import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter } from "../../../crawler/fetch/retry";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-03-01T08:00:00Z");
  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["Sun, 01 Mar 2026 08:00:30 GMT", 30_000],
    ["Sun, 01 Mar 2026 07:59:00 GMT", 0],
    ["soon", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%s -> %s", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("backoffDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, 500, 4_000))).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  });
});
