/**
 * What a crawl keeps in memory instead of reading again: the account's site key while its run
 * holds it (crawler/store/site.ts), and the profile timers' figures (crawler/profile.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { accountSiteKey, holdSiteKey, type Tx } from "../../crawler/store/site";

/** A client whose account lookup counts its calls. */
function fakeDb(entryUrl: string) {
  const calls = { n: 0 };
  const db = {
    account: {
      findUnique: () => {
        calls.n++;
        return Promise.resolve({ platform: "discuz", entryUrl });
      },
    },
  } as unknown as Tx;
  return { db, calls };
}

describe("the site key a crawl holds", () => {
  it("is used without reading the account while held, and read again once released", async () => {
    const { db, calls } = fakeDb("http://bbs.example.edu/forum.php?mod=forumdisplay&fid=2");
    const read = await accountSiteKey(db, 7);
    expect(calls.n).toBe(1);
    const release = holdSiteKey(db, 7, "held-key");
    expect(await accountSiteKey(db, 7)).toBe("held-key");
    expect(await accountSiteKey(db, 8)).toBe(read);
    expect(calls.n).toBe(2);
    release();
    release();
    expect(await accountSiteKey(db, 7)).toBe(read);
    expect(calls.n).toBe(3);
  });

  it("is kept per client and per holder: a second holder's release leaves the first one's", async () => {
    const a = fakeDb("http://a.example.edu/");
    const b = fakeDb("http://b.example.edu/");
    const first = holdSiteKey(a.db, 1, "k");
    const second = holdSiteKey(a.db, 1, "k");
    second();
    expect(await accountSiteKey(a.db, 1)).toBe("k");
    expect(a.calls.n).toBe(0);
    await accountSiteKey(b.db, 1);
    expect(b.calls.n).toBe(1);
    first();
  });
});

describe("CAMPUSWATCH_PROFILE", () => {
  it("adds each phase's time, and the rest of an account's crawl is parsing", async () => {
    vi.resetModules();
    vi.stubEnv("CAMPUSWATCH_PROFILE", "1");
    try {
      const p = await import("../../crawler/profile");
      expect(p.profiling).toBe(true);
      const t0 = p.crawlStarted();
      p.addTime("fetch", 30);
      p.addTime("store", 5);
      expect(await p.timed("classify", () => Promise.resolve(42))).toBe(42);
      p.crawlFinished(t0 - 100);
      const snap = p.profileSnapshot();
      expect(snap.accounts).toBe(1);
      expect(snap.fetchMs).toBe(30);
      expect(snap.storeMs).toBe(5);
      expect(snap.accountMs).toBeGreaterThanOrEqual(100);
      expect(snap.parseMs).toBe(snap.accountMs - 35 - snap.classifyMs - snap.archiveMs);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it("is off by default: timed() is just the call", async () => {
    vi.resetModules();
    vi.stubEnv("CAMPUSWATCH_PROFILE", "");
    try {
      const p = await import("../../crawler/profile");
      expect(p.profiling).toBe(false);
      expect(await p.timed("fetch", () => Promise.resolve("x"))).toBe("x");
      expect(p.profileSnapshot().fetchMs).toBe(0);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
