/**
 * The message catalogues agree: the same keys in every locale, no empty message, valid ICU
 * syntax, and the same placeholders (arguments and rich-text tags) for the same key — a Chinese
 * message that forgot `{username}` or an English one that lost `<b>` fails here, not in a page.
 */
import { describe, expect, test } from "vitest";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { CLIENT_NAMESPACES, LOCALES } from "@/i18n/config";
import { messagesFor } from "@/i18n/messages";

type Tree = { [key: string]: unknown };

/** Every leaf as [dotted key, value]. */
function leaves(tree: Tree, prefix = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([k, v]): [string, unknown][] => {
    const key = prefix ? `${prefix}.${k}` : k;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? leaves(v as Tree, key) : [[key, v]];
  });
}

/** The argument names and `<tag>`s a message uses, sorted (plural/select branches included). */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        found.add(`<${el.value}>`);
        walk(el.children);
        continue;
      }
      found.add(el.value);
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(parse(message));
  return [...found].sort();
}

const [reference, ...others] = LOCALES;
const referenceLeaves = new Map(leaves(messagesFor(reference)));

describe("message catalogues", () => {
  test.each(others)(`%s has exactly the keys of ${reference}`, (locale) => {
    const keys = leaves(messagesFor(locale))
      .map(([k]) => k)
      .sort();
    expect(keys).toEqual([...referenceLeaves.keys()].sort());
  });

  test.each(LOCALES)("%s: every message is a non-empty string with valid ICU syntax", (locale) => {
    for (const [key, value] of leaves(messagesFor(locale))) {
      expect(typeof value, `${locale} ${key}`).toBe("string");
      expect(String(value).trim(), `${locale} ${key} is empty`).not.toBe("");
      expect(() => parse(String(value)), `${locale} ${key}`).not.toThrow();
    }
  });

  test.each(others)(`%s uses the same placeholders as ${reference} in every message`, (locale) => {
    for (const [key, value] of leaves(messagesFor(locale))) {
      const theirs = referenceLeaves.get(key);
      if (typeof theirs !== "string" || typeof value !== "string") continue; // reported by the tests above
      expect(placeholders(value), `${locale} ${key}`).toEqual(placeholders(theirs));
    }
  });

  test("the namespaces sent to client components exist", () => {
    for (const ns of CLIENT_NAMESPACES) expect(messagesFor(reference)).toHaveProperty(ns);
  });

  // The test's own helpers must see a mismatch, or the tests above prove nothing.
  test("a missing key, an empty message or a changed placeholder is noticed", () => {
    expect(leaves({ a: { b: "x", c: "y" } }).map(([k]) => k)).toEqual(["a.b", "a.c"]);
    expect(placeholders("已创建用户 {username}。")).toEqual(["username"]);
    expect(placeholders("Signed in as <b>{username}</b> ({role})")).toEqual(["<b>", "role", "username"]);
    expect(placeholders("{minutes, plural, one {# minute} other {# minutes}}")).toEqual(["minutes"]);
    expect(placeholders("{action, select, demote {{who} demoted} other {x}}")).toEqual(["action", "who"]);
    expect(placeholders("已创建用户 {name}。")).not.toEqual(placeholders("User {username} created."));
  });
});
