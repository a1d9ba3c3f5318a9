/**
 * The store's change rule (crawler/store/prepared.ts), as a table: whether storing an item creates
 * its post, changes it (a new version, a completed text, a post back after a deletion) or only
 * moves its bookkeeping. The crawl reads images (OCR) only for items this rule says are created or
 * changed, and the store applies the same rule in the page's transaction.
 */
import { describe, expect, it } from "vitest";
import { changeOf, prepareItem, type Change, type StoredState } from "../../crawler/store";

const T0 = new Date("2025-03-01T08:00:00Z");
const item = (text: string, textIncomplete?: boolean) =>
  prepareItem({
    platformId: "1",
    kind: "post",
    url: "http://127.0.0.1:1/p/1",
    title: "",
    author: "x",
    publishedAt: T0,
    html: `<p>${text}</p>`,
    textIncomplete,
  });
const state = (text: string, over: Partial<StoredState> = {}): StoredState => ({ sha1: item(text).sha1, incomplete: false, deletedAt: null, ...over });

describe("changeOf", () => {
  const cases: [string, StoredState | undefined, ReturnType<typeof item>, Change][] = [
    ["never stored", undefined, item("a"), "create"],
    ["same text", state("a"), item("a"), "unchanged"],
    ["edited", state("a"), item("b"), "changed"],
    ["a partial text over a complete one", state("a"), item("a…", true), "unchanged"],
    ["a complete text over a partial one", state("a…", { incomplete: true }), item("a and the rest"), "changed"],
    ["a partial text over a partial one that differs", state("a…", { incomplete: true }), item("ab…", true), "changed"],
    ["back after a deletion, same text", state("a", { deletedAt: T0 }), item("a"), "changed"],
    ["back after a deletion, partial text", state("a", { deletedAt: T0 }), item("a…", true), "changed"],
  ];
  it.each(cases)("%s", (_name, prev, p, expected) => {
    expect(changeOf(prev, p)).toBe(expected);
  });
});
