/**
 * crawler/adapters/find.ts searches with selectors compiled once; cheerio's `find` is its
 * definition. Both must give the same elements, in the same order, for every selector the adapters
 * hand it, from every element of real pages: the local Discuz! and Tieba sites' list and thread
 * pages, and the real captures in ../shared (skipped, with a warning, when they are absent).
 */
import fs from "node:fs";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { find, findFirst } from "../../../crawler/adapters/find";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { REAL_DIR, readReal, realAvailable } from "../../unit/adapters/helpers";

/** Every selector literal passed to find/findFirst in the adapters, read from their sources. */
function adapterSelectors(): string[] {
  const out = new Set<string>();
  for (const file of ["crawler/adapters/discuz/pages.ts", "crawler/adapters/tieba/index.ts", "crawler/adapters/tieba/thread.ts"]) {
    const src = fs.readFileSync(file, "utf8");
    for (const m of src.matchAll(/\bfind(?:First)?\(\s*[\w.$]+,\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`$]*`)/g))
      out.add(JSON.parse(m[1]!.replace(/^'|'$|^`|`$/g, '"')) as string);
  }
  return [...out];
}

/** Selectors that tell the two apart if they differ: descendant chains whose ancestor may be outside the context. */
const EXTRA = [
  "div a",
  "div div",
  "table tr td",
  "a",
  "span[title]",
  "li a[href*='p/']",
  "div.d_post_content",
  "* em",
  "div > span",
  "p + p",
  "a, span",
  "body div",
];

let site: LocalPlatforms;
const pages: { name: string; html: string }[] = [];

beforeAll(async () => {
  site = await startLocalPlatforms({ seed: 23, accounts: { weibo: 0, tieba: 1, discuz: 1, blog: 0 }, postsPerAccount: 6, repliesPerPost: [2, 5] });
  for (const a of site.accounts) {
    const list = await (await fetch(site.entryUrl(a.key))).text();
    pages.push({ name: `${a.key} list`, html: list });
    const links = [...list.matchAll(/href="([^"]*(?:viewthread|\/p\/\d+)[^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&")).slice(0, 3);
    for (const href of links) pages.push({ name: `${a.key} ${href}`, html: await (await fetch(new URL(href, site.entryUrl(a.key)))).text() });
  }
  if (realAvailable) for (const n of fs.readdirSync(REAL_DIR).filter((f) => f.endsWith(".html"))) pages.push({ name: n, html: readReal(n) });
  else console.warn(`[find] real captures not found at ${REAL_DIR}: only the local sites' pages are compared`);
});
afterAll(() => site?.close());

describe("find and findFirst give what cheerio's find gives", () => {
  it("for every adapter selector and more, from the document and from every element", () => {
    const selectors = [...adapterSelectors(), ...EXTRA];
    expect(selectors.length).toBeGreaterThan(30);
    expect(pages.length).toBeGreaterThan(4);
    let compared = 0;
    for (const page of pages) {
      const $ = cheerio.load(page.html);
      const all = $("*").toArray();
      // Elements compared by identity, as their document-order index (a deep compare of DOM nodes is slow).
      const index = new Map<unknown, number>(all.map((el, i) => [el, i]));
      const ids = (els: unknown[]) => els.map((el) => index.get(el) ?? -1);
      const contexts = [$.root(), ...all.map((el) => $(el))];
      // Every element of small pages; every fifth of large ones, to keep the test quick.
      const step = contexts.length > 1500 ? 5 : 1;
      for (let i = 0; i < contexts.length; i += step) {
        const ctx = contexts[i]!;
        for (const s of selectors) {
          const want = ids(ctx.find(s).toArray());
          expect(ids(find(ctx, s).toArray()), `${page.name}: ${s}`).toEqual(want);
          expect(ids(findFirst(ctx, s).toArray()), `${page.name}: ${s} (first)`).toEqual(want.slice(0, 1));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it("leaves pseudo-classes, leading combinators and several contexts to cheerio", () => {
    const $ = cheerio.load("<div><p>a</p><p>b</p></div><div><p>c</p></div>");
    expect(find($.root(), "p:first").toArray()).toEqual($.root().find("p:first").toArray());
    expect(find($("div").first(), "> p").toArray()).toEqual($("div").first().find("> p").toArray());
    expect(find($("div"), "p").toArray()).toEqual($("div").find("p").toArray());
    expect(findFirst($("div"), "p").text()).toBe("a");
  });
});
