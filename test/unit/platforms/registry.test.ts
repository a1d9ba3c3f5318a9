/**
 * The platform registry (lib/platforms, issue 31 item 1) is the one place a platform is described:
 * - every registered platform is complete: its messages in both locales, colours, a valid default
 *   schedule, entry URL forms its own recognisers take, and an adapter that names it;
 * - an entry missing a field does not compile (checked by `tsc`, which type-checks this file);
 * - outside the registry, the adapters, the message files and tests, no source file lists the
 *   platform ids: the source tree is scanned for their literals.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import en from "../../../messages/en.json";
import zh from "../../../messages/zh-CN.json";
import { getAdapter, platformsWithoutAdapter, recognisePlatform, SEARCH_PLATFORMS } from "../../../crawler/adapters";
import {
  FALLBACK_PLATFORM,
  isPlatform,
  PLATFORM_ENTRIES,
  platformEntry,
  platformOfUrl,
  PLATFORMS,
  WATCH_PLATFORMS,
  type PlatformEntry,
} from "../../../lib/platforms";
import { cookieDomainsFor } from "../../../lib/cookies/import";
import { siteKeyOf } from "../../../lib/site-key";
import { cronProblem } from "../../../lib/validation";

const ROOT = path.resolve(__dirname, "../../..");

describe("every registered platform is complete", () => {
  test.each(PLATFORMS)("%s: its entry carries its own id", (id) => {
    expect(platformEntry(id).id).toBe(id);
    expect(isPlatform(id)).toBe(true);
  });

  test.each(PLATFORMS)("%s: names in both locales (reader's, short, bilingual, entry shape)", (id) => {
    for (const messages of [zh, en]) {
      const names = (messages.platforms as Record<string, Record<string, string>>)[id];
      for (const form of ["name", "short", "full", "shape"]) expect(names?.[form], `${id}.${form}`).toMatch(/\S/);
    }
  });

  test.each(PLATFORMS)("%s: colours and a valid default schedule", (id) => {
    const e = platformEntry(id);
    for (const c of Object.values(e.colours)) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
    expect(cronProblem(e.defaultCron)).toBeNull();
  });

  test.each(PLATFORMS)("%s: every entry URL form is recognised as it and taken as an entry", (id) => {
    const e = platformEntry(id);
    for (const form of e.entryUrlForms) {
      const u = new URL(form);
      expect(platformOfUrl(u), form).toBe(id);
      expect(recognisePlatform(form), form).toBe(id);
      expect(e.isEntryUrl(u), form).toBe(true);
      // Discovery proposes the account of its own entry URL as that platform's.
      expect(e.candidateOf(u), form).not.toBeNull();
    }
  });

  test.each(PLATFORMS)("%s: an adapter is attached and names it", (id) => {
    expect(getAdapter(id).platform).toBe(id);
  });

  test("no registered platform lacks an adapter", () => {
    expect(platformsWithoutAdapter()).toEqual([]);
  });

  test("exactly one fallback platform, and it takes any http(s) URL", () => {
    expect(PLATFORM_ENTRIES.filter((e) => e.fallback).map((e) => e.id)).toEqual([FALLBACK_PLATFORM]);
    expect(platformOfUrl(new URL("https://news.example.edu.cn/a/b.html"))).toBe(FALLBACK_PLATFORM);
  });

  test("keyword watches follow the platforms whose entry says so", () => {
    expect([...SEARCH_PLATFORMS].sort()).toEqual([...WATCH_PLATFORMS].sort());
  });

  test("cookie domains and site keys come from the entry", () => {
    for (const e of PLATFORM_ENTRIES) {
      const form = new URL(e.entryUrlForms[0]);
      expect(cookieDomainsFor(form.href, e.id)).toEqual([...new Set([cookieDomainsFor(form.href, e.id)[0], ...e.cookieDomains])]);
      expect(siteKeyOf(e.id, form.href)).toBe(e.siteKey(form));
    }
  });
});

describe("an entry missing a field does not compile", () => {
  test("a complete extra platform type-checks; one without colours or features does not", () => {
    const extra = {
      id: "forum2",
      shapeLabel: "Forum2 board",
      colours: { chart: "#000000", badgeText: "#000000", badgeBackground: "#ffffff" },
      defaultCron: "0 * * * *",
      recognise: (url: URL) => url.hostname === "forum2.example",
      isEntryUrl: () => true,
      normaliseEntryUrl: () => null,
      entryUrlForms: ["https://forum2.example/board/1"],
      candidateOf: () => null,
      siteKey: (url: URL) => `forum2:${url.origin}`,
      cookieDomains: [],
      features: { replies: true, subReplies: false, deletions: true, keywordWatch: null, cookies: false },
      fallback: false,
    } satisfies PlatformEntry<"forum2">;
    const { colours: _colours, ...withoutColours } = extra;
    const { features: _features, ...withoutFeatures } = extra;
    // @ts-expect-error an entry without colours is not a PlatformEntry
    const a: PlatformEntry<"forum2"> = withoutColours;
    // @ts-expect-error an entry without features is not a PlatformEntry
    const b: PlatformEntry<"forum2"> = withoutFeatures;
    // At run time the registry's own entries have every field the complete one has.
    for (const e of PLATFORM_ENTRIES) expect(Object.keys(e).sort()).toEqual(Object.keys(extra).sort());
    expect([a, b].every((x) => !("colours" in x && "features" in x))).toBe(true);
  });
});

/**
 * Where a platform id literal may appear. Everything else reads the registry.
 * - lib/platforms: the registry; crawler/adapters: the adapters (and their keyword-watch search);
 * - crawler/dates.ts and crawler/dates/: which date formats each platform prints is crawl
 *   behaviour, keyed by `Record<Platform, Rule[]>` so a platform without its formats does not compile;
 * - crawler/demo.ts and scripts/seed-large/: sample data, accounts on the local copies of the
 *   platforms (test/support/platforms) and generated campus accounts.
 */
const ALLOWED = [/^lib\/platforms\//, /^crawler\/adapters\//, /^crawler\/dates(\.ts$|\/)/, /^crawler\/demo\.ts$/, /^scripts\/seed-large\//];
const SCANNED = ["app", "components", "lib", "server", "crawler", "bin", "scripts", "i18n", "types", "proxy.ts"];
const EXTENSIONS = /\.(ts|tsx|mjs|js|css)$/;

function sourceFiles(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return EXTENSIONS.test(rel) ? [rel] : [];
  return fs.readdirSync(abs).flatMap((name) => sourceFiles(path.posix.join(rel, name)));
}

/** The code of a file without its comments (prose may name a platform). Line-based: enough for this tree. */
function codeLines(text: string): [number, string][] {
  const out: [number, string][] = [];
  let inBlock = false;
  text.split("\n").forEach((line, i) => {
    let code = line;
    if (inBlock) {
      const end = code.indexOf("*/");
      if (end === -1) return;
      code = code.slice(end + 2);
      inBlock = false;
    }
    code = code.replace(/\/\*.*?\*\//g, "");
    const start = code.indexOf("/*");
    if (start !== -1) {
      code = code.slice(0, start);
      inBlock = true;
    }
    code = code.replace(/(^|\s)\/\/.*$/, "$1");
    out.push([i + 1, code]);
  });
  return out;
}

/** A platform id as a string literal, an object key, or a CSS class name. */
function idPattern(id: string): RegExp {
  return new RegExp(`(["'\`]${id}["'\`])|((^|[{,\\s])${id}\\??\\s*:(?!/))|(\\.platform-${id}\\b)`);
}

describe("no source file outside the registry lists the platform ids", () => {
  test("the scan sees a literal, a key and a CSS class, and skips comments", () => {
    const p = idPattern("forum2");
    expect(p.test(`if (p === "forum2") x();`)).toBe(true);
    expect(p.test(`const C = { forum2: "#fff" };`)).toBe(true);
    expect(p.test(`.badge.platform-forum2 {`)).toBe(true);
    expect(p.test(`const url = "https://forum2.example/";`)).toBe(false);
    expect(codeLines(`// "forum2"\n/** "forum2" */\nx();`).filter(([, c]) => p.test(c))).toEqual([]);
  });

  test("app, components, lib, server, crawler, bin, scripts, i18n, types", () => {
    const files = SCANNED.flatMap(sourceFiles).filter((f) => !ALLOWED.some((a) => a.test(f)));
    expect(files.length).toBeGreaterThan(100);
    const patterns = PLATFORMS.map(idPattern);
    const found: string[] = [];
    for (const file of files) {
      for (const [n, code] of codeLines(fs.readFileSync(path.join(ROOT, file), "utf8"))) {
        if (patterns.some((p) => p.test(code))) found.push(`${file}:${n}: ${code.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
