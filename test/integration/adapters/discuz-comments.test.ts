/**
 * Discuz! 点评 through the real worker into a real database (issue 30 item 2): a floor shows its
 * newest 5 点评 and links "下一页"; the rest come from the floor's commentmore pages. When one of
 * those requests fails (404, 429, 500, 503, a timeout, a captcha) the floors and the 点评 already
 * read are kept, the failure is a warning on the run naming the URL, the other floors (unless the
 * host blocked) and threads are still read, and the next run, with the page working, adds the
 * missing 点评 once each.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import type { LocalPost } from "../../support/platforms";
import type { Fault } from "../../support/platforms/faults";
import { addDiscuzComment } from "../../support/platforms/discuz";
import { crawlFixture, type CrawlFixture } from "../crawl/support";

const MINUTE = 60_000;
const KEY = "discuz-1";

/** The failures a commentmore request meets in the field, as the local board serves them. */
/** `blocks`: the fetcher calls it a block (a captcha; a throttle status after its retries), which ends the page's commentmore requests. */
const FAULTS: { name: string; fault: Fault; reason: RegExp; blocks: boolean }[] = [
  { name: "HTTP 404", fault: { type: "status", status: 404 }, reason: /404/, blocks: false },
  { name: "HTTP 429", fault: { type: "status", status: 429 }, reason: /429/, blocks: true },
  { name: "HTTP 500", fault: { type: "status", status: 500 }, reason: /500/, blocks: false },
  { name: "HTTP 503", fault: { type: "status", status: 503 }, reason: /503/, blocks: true },
  { name: "a timeout", fault: { type: "slow", delayMs: 1500 }, reason: /time/i, blocks: false },
  { name: "a captcha page", fault: { type: "captcha" }, reason: /验证|captcha|block/i, blocks: true },
];

interface World {
  f: CrawlFixture;
  /** Thread A: its head floor has 13 点评 (3 pages), floor r1 7 (2 pages), floor r2 2 (shown whole). */
  a: LocalPost;
  /** Thread B: its head floor has 8 点评 (2 pages). */
  b: LocalPost;
  /** The texts of each floor's 点评 by its stored platformId (t{tid} for a head floor, else p{pid}). */
  texts: Map<string, string[]>;
  /** Add a 点评 under floor `pid` (stored as `floor`) now, and to `texts`. */
  comment: (floor: string, pid: string, text: string, author: string) => void;
}

async function world(seed: number): Promise<World> {
  // No retries and a short deadline: a failure is one request's, as in the field after retries.
  const f = await crawlFixture(
    { seed, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 1, repliesPerPost: [0, 0] },
    {
      createFetcher: (_account, onRequest) =>
        createFetcher({ mode: "http", scheduler: new HostScheduler(), hostDelayMs: 0, retries: 0, requestTimeoutMs: 400, onRequest, log: () => undefined }),
    },
  );
  const site = f.site;
  site.clock.advance(10 * MINUTE);
  const a = site.addPost(KEY, { title: "宿舍楼停水通知", text: "明天上午九点到十二点停水", author: "宿管阿姨" });
  site.clock.advance(MINUTE);
  const r1 = site.addReply(a.id, { text: "又停水", author: "住三楼的" });
  site.clock.advance(MINUTE);
  const r2 = site.addReply(a.id, { text: "提前接好水", author: "住五楼的" });
  site.clock.advance(MINUTE);
  const b = site.addPost(KEY, { title: "食堂新开了窗口", text: "二楼新开了麻辣烫", author: "吃货" });
  const texts = new Map<string, string[]>();
  const comment = (floor: string, pid: string, text: string, author: string) => {
    addDiscuzComment(site.model, pid, { author, text });
    texts.set(floor, [...(texts.get(floor) ?? []), text]);
  };
  for (let k = 0; k < 12; k++) {
    site.clock.advance(MINUTE);
    comment(`t${a.id}`, a.headId, `停水点评${k}`, `点评人${k % 3}`);
    // Two by one person in one minute, one on each side of a page boundary (5 a page, newest first).
    if (k === 7) comment(`t${a.id}`, a.headId, `停水点评${k}又一条`, `点评人${k % 3}`);
    if (k < 7) comment(`p${r1.id}`, r1.id, `三楼点评${k}`, `楼下${k % 2}`);
    if (k < 2) comment(`p${r2.id}`, r2.id, `五楼点评${k}`, "路人");
    if (k < 8) comment(`t${b.id}`, b.headId, `食堂点评${k}`, `食客${k % 4}`);
  }
  site.clock.advance(MINUTE);
  return { f, a, b, texts, comment };
}

/** Texts of the stored 点评 under each floor (platformId starting with "c"), as stored. */
async function storedComments(f: CrawlFixture): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const row of (await f.stored(KEY)).values()) {
    if (!row.platformId.startsWith("c")) continue;
    expect(row).toMatchObject({ kind: "reply", version: 1 });
    out.set(row.parentPlatformId!, [...(out.get(row.parentPlatformId!) ?? []), row.text]);
  }
  return out;
}

const sorted = (xs: string[] | undefined) => [...(xs ?? [])].sort();

describe.each(FAULTS)("a commentmore page that fails with $name", ({ fault, reason, blocks }) => {
  let w: World | undefined;
  afterEach(async () => w?.f.close());

  test("keeps what was read, warns with the URL, goes on, and the next run adds the rest once", async () => {
    w = await world(41);
    const { f, a, b, texts, comment } = w;
    const site = f.site;
    const headA = `t${a.id}`;
    const failing = `/bbs/forum.php?mod=misc&action=commentmore&tid=${a.id}&pid=${a.headId}&page=2`;
    const handle = site.fault(
      (u) => u.searchParams.get("action") === "commentmore" && u.searchParams.get("pid") === a.headId && u.searchParams.get("page") === "2",
      fault,
    );

    const run = await f.crawl(KEY);
    expect(handle.hits).toBe(1);
    expect(run.errors).toEqual([]);
    // Comments were missed: the thread is read again next run, so the run is not "ok".
    expect(run.status).toBe("partial");
    const warned = run.warnings.filter((w) => w.field === "comments");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.url).toBe(`${site.origin}${failing}&inajax=1&ajaxtarget=comment_${a.headId}`);
    expect(warned[0]!.raw).toMatch(reason);
    expect(warned[0]!.reason).toMatch(/^kept the floor, its 5 点评 shown on \S+ and 0 from its later pages.*; the next run reads the thread again$/);
    expect(warned[0]!.reason.includes("blocked")).toBe(blocks);

    const first = await storedComments(f);
    const all = texts.get(headA)!;
    // The head floor keeps the newest five, shown on the thread page.
    expect(sorted(first.get(headA))).toEqual(sorted(all.slice(-5)));
    // The other floors of that page: read whole, unless a block ended the page's 点评 requests.
    const r1 = [...texts.keys()].find((k) => k.startsWith("p") && texts.get(k)!.length === 7)!;
    const r2 = [...texts.keys()].find((k) => k.startsWith("p") && texts.get(k)!.length === 2)!;
    expect(sorted(first.get(r1))).toEqual(sorted(blocks ? texts.get(r1)!.slice(-5) : texts.get(r1)));
    expect(sorted(first.get(r2))).toEqual(sorted(texts.get(r2)));
    // Another thread's 点评 are read whole either way.
    expect(sorted(first.get(`t${b.id}`))).toEqual(sorted(texts.get(`t${b.id}`)));

    handle.clear();
    site.clock.advance(MINUTE);
    const mark = site.lastSeq();
    const next = await f.crawl(KEY);
    expect(next.errors).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(next.status).toBe("ok");
    // The head floor's pages 2 and 3 are read now.
    const asked = site
      .requests({ afterSeq: mark })
      .map((r) => r.url)
      .filter((u) => u.includes(`pid=${a.headId}&`));
    expect(asked).toEqual([
      `${failing}&inajax=1&ajaxtarget=comment_${a.headId}`,
      `${failing.replace("page=2", "page=3")}&inajax=1&ajaxtarget=comment_${a.headId}`,
    ]);
    const second = await storedComments(f);
    for (const [floor, want] of texts) expect(sorted(second.get(floor)), floor).toEqual(sorted(want));
    // Each once: as many stored rows as 点评 on the board.
    expect([...second.values()].flat()).toHaveLength([...texts.values()].flat().length);

    // Nothing new afterwards: no 点评 is stored twice by a later read.
    site.clock.advance(MINUTE);
    const again = await f.crawl(KEY);
    expect([again.newPosts, again.changedPosts]).toEqual([0, 0]);

    // A new floor reopens thread A while the page fails again: the 点评 stored from it are not
    // taken for deleted because this read could not show them.
    site.clock.advance(MINUTE);
    site.addReply(a.id, { text: "来水了", author: "宿管阿姨" });
    site.clock.advance(MINUTE);
    const failingAgain = site.fault(
      (u) => u.searchParams.get("action") === "commentmore" && u.searchParams.get("pid") === a.headId && u.searchParams.get("page") === "2",
      fault,
    );
    const reread = await f.crawl(KEY);
    failingAgain.clear();
    expect(failingAgain.hits).toBe(1);
    expect(reread.newPosts).toBe(1);
    expect(reread.deletedPosts).toBe(0);
    expect(await f.t.db.post.count({ where: { deletedAt: { not: null } } })).toBe(0);

    // The page works again, and a new 点评 pushes the head floor's list down a place: the thread
    // is read again, every 点评 is shown (each page is read whole), none is stored twice or deleted.
    site.clock.advance(MINUTE);
    comment(`t${a.id}`, a.headId, "停水点评最新", "点评人0");
    site.clock.advance(MINUTE);
    const repaired = await f.crawl(KEY);
    expect([repaired.errors, repaired.warnings, repaired.status]).toEqual([[], [], "ok"]);
    expect([repaired.newPosts, repaired.deletedPosts]).toEqual([1, 0]);
    const last = await storedComments(f);
    expect(sorted(last.get(headA))).toEqual(sorted(texts.get(headA)));
    expect(await f.t.db.post.count({ where: { deletedAt: { not: null } } })).toBe(0);
  });
});
