/**
 * walkThreadPages: which pages of a forum thread it reads, in which order, within a budget.
 * The thread here is synthetic: page p holds two replies at minutes 2p and 2p+1 (page 1 the head
 * at minute 0 and a reply at minute 1), so "newer than since" is easy to see.
 */
import { describe, expect, it } from "vitest";
import { walkThreadPages, type ParsedThreadPage } from "../../../crawler/adapters/shared";
import { GoneError } from "../../../crawler/errors";
import type { CrawlItem, ThreadPage, ThreadReadOptions } from "../../../crawler/types";

const T0 = Date.UTC(2025, 0, 1);
const at = (minute: number) => new Date(T0 + minute * 60_000);
const item = (id: string, minute: number): CrawlItem => ({
  platformId: id,
  kind: "reply",
  parentPlatformId: "t1",
  url: "u",
  title: "",
  author: "a",
  publishedAt: at(minute),
  html: "x",
});

/** A thread of `pages` pages; `outOfRange`: "clamp" like Discuz!, "gone" like Tieba's 404. */
function thread(pages: number, outOfRange: "clamp" | "gone" = "clamp") {
  const asked: number[] = [];
  const fetchPage = async (p: number): Promise<ParsedThreadPage> => {
    asked.push(p);
    if (p > pages && outOfRange === "gone") throw new GoneError("HTTP 404", `u?pn=${p}`, 404);
    const n = Math.min(p, pages);
    const replies = n === 1 ? [item("r1", 1)] : [item(`r${2 * n}`, 2 * n), item(`r${2 * n + 1}`, 2 * n + 1)];
    const page: ParsedThreadPage = { url: `u?page=${n}`, replies, pageCount: pages };
    if (n === 1) page.head = { ...item("t1", 0), kind: "post", parentPlatformId: null };
    return page;
  };
  return { asked, fetchPage };
}

async function pagesOf(since: Date | null, t: ReturnType<typeof thread>, options: ThreadReadOptions = {}): Promise<number[]> {
  const out: ThreadPage[] = [];
  for await (const p of walkThreadPages(since, t.fetchPage, options)) out.push(p);
  return out.map((p) => p.page!);
}

describe("walkThreadPages", () => {
  it("reads a new thread from page 1, up to the budget", async () => {
    const t = thread(10);
    expect(await pagesOf(null, t, { pageBudget: 4 })).toEqual([1, 2, 3, 4]);
    expect(t.asked).toEqual([1, 2, 3, 4]);
  });

  it("resumes an unfinished read one page back (to be sure nothing moved), then goes on", async () => {
    const t = thread(10);
    // Pages 1–4 stored: since = newest on page 4 (minute 9), resume at 5.
    expect(await pagesOf(at(9), t, { fromPage: 5, pageBudget: 4 })).toEqual([4, 5, 6, 7]);
    expect(t.asked).toEqual([5, 4, 6, 7]);
  });

  it("a finished thread: starts at its stored last page, and reads the new pages after it", async () => {
    const unchangedLength = thread(10);
    expect(await pagesOf(at(20), unchangedLength, { fromPage: 10 })).toEqual([10]);
    expect(unchangedLength.asked).toEqual([10]);
    const grown = thread(12);
    expect(await pagesOf(at(21), grown, { fromPage: 10 })).toEqual([10, 11, 12]);
  });

  it("without a stored page: page 1 for the count, then the last page, and a binary search for the boundary", async () => {
    const t = thread(100);
    // Newest stored at minute 121: page 60 (minutes 120–121) is the boundary.
    const pages = await pagesOf(at(121), t, { pageBudget: 200 });
    expect(pages).toEqual(Array.from({ length: 41 }, (_v, i) => 60 + i));
    // 1, 100, 99, then about log2(99) probes: far fewer than walking back 40 pages.
    expect(t.asked.length - pages.length).toBeLessThanOrEqual(10);
  });

  it("a stored page past the end: Discuz! clamps, Tieba answers 404 and page 1 gives the count", async () => {
    const clamped = thread(5);
    expect(await pagesOf(at(11), clamped, { fromPage: 8 })).toEqual([5]);
    const gone = thread(5, "gone");
    expect(await pagesOf(at(11), gone, { fromPage: 8 })).toEqual([5]);
    expect(gone.asked).toEqual([8, 1, 5]);
  });

  it("a thread gone altogether throws GoneError", async () => {
    const fetchPage = async (p: number): Promise<ParsedThreadPage> => {
      throw new GoneError("deleted", `u?page=${p}`, 404);
    };
    await expect(async () => {
      for await (const _p of walkThreadPages(at(5), fetchPage, { fromPage: 3 })) void _p;
    }).rejects.toBeInstanceOf(GoneError);
  });

  it("withHead also yields page 1 first", async () => {
    const t = thread(6);
    expect(await pagesOf(at(13), t, { fromPage: 6, withHead: true })).toEqual([1, 6]);
  });
});
