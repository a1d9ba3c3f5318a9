import { describe, expect, test } from "vitest";
import { z } from "zod";
import { anyJson, jsonArray, parseJsonColumn } from "../../lib/json-column";
import { formatTime, shanghaiDay, shanghaiDayStart, shanghaiTime } from "../../lib/time";

describe("parseJsonColumn", () => {
  test("missing, empty, not JSON or the wrong shape read as the fallback", () => {
    for (const text of [null, undefined, "", "{", "not json"]) expect(parseJsonColumn(text, jsonArray, [])).toEqual([]);
    expect(parseJsonColumn('{"a":1}', jsonArray, [])).toEqual([]);
    expect(parseJsonColumn("null", jsonArray, "fallback")).toBe("fallback");
  });

  test("a value of the shape is returned as parsed", () => {
    expect(parseJsonColumn('["a",1]', jsonArray, [])).toEqual(["a", 1]);
    expect(parseJsonColumn("null", anyJson, undefined)).toBeNull();
    const evaluation = z.object({ classifier: z.object({ f1: z.number() }) });
    expect(parseJsonColumn('{"classifier":{"f1":0.5,"recall":1}}', evaluation, null)?.classifier.f1).toBe(0.5);
    expect(parseJsonColumn('{"classifier":{"f1":"0.5"}}', evaluation, null)).toBeNull();
  });
});

describe("lib/time (Asia/Shanghai)", () => {
  const at = new Date("2026-11-30T16:05:00Z"); // 00:05 on 1 December in Shanghai
  test("one formatter for each use, whatever the machine's zone", () => {
    expect(formatTime(at)).toBe("2026/12/01 00:05");
    expect(formatTime(null)).toBe("—");
    expect(shanghaiTime(at.toISOString())).toBe("12月1日 00:05");
    expect(shanghaiTime("not a date")).toBe("");
    expect(shanghaiDay(at)).toBe("2026-12-01");
    expect(shanghaiDayStart("2026-12-01").toISOString()).toBe("2026-11-30T16:00:00.000Z");
  });
});
