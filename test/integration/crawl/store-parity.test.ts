/**
 * The stores of lib/store (issue 31): each aggregate the crawl touches has a SQLite implementation
 * (prepared statements on Prisma's own connection) and a Prisma implementation, and the rules
 * above them are written once. One test body per aggregate runs against each implementation — on
 * SQLite both (a client made by createDb, and the same database through `prismaOnly`, which has no
 * connection of its own, so lib/store picks Prisma for it); on PostgreSQL (CAMPUSWATCH_TEST_DB=
 * postgresql) the Prisma one — and the bodies' results, rows as stored included, must be equal.
 *
 * Covered here: accounts and their access settings, history marks (the time only moves forward,
 * the resume state may move back, updatedAt stamped), the classifier's queue probe and the search
 * index. Runs (./run-rows.test.ts), pages and known posts (./store-drivers.test.ts) and topic rows
 * (../classify/topic-rows.test.ts) have their own, alike.
 */
import { describe, expect, it } from "vitest";
import { readAccounts } from "../../../crawler/account-rows";
import { loadAccountCookies, loadAccountProxy } from "../../../crawler/account-access";
import { classifyPending } from "../../../crawler/classify/pending";
import { advanceMark, clearResume, createThreadMarks, finishThreadMark, readMarks, readResumes, setResume } from "../../../crawler/store";
import { flushSearchIndex } from "../../../lib/search-index";
import { seal } from "../../../lib/secret-box";
import { ACCOUNT_COOKIES, ACCOUNT_PROXY } from "../../../lib/sealed-columns";
import { storesOf } from "../../../lib/store";
import type { Db } from "../../../lib/db";
import { prismaOnly, testDbs, type TestDb } from "../../support/db";

const openDb = testDbs();

const at = (m: number) => new Date(Date.UTC(2026, 10, 30, 8, m, 0, 125));

/** Run `body` once per implementation (each on a fresh database); its results by implementation. */
async function eachStore<T>(body: (db: Db, t: TestDb) => Promise<T>): Promise<{ backend: string; result: T }[]> {
  const out: { backend: string; result: T }[] = [];
  for (const prisma of [false, true]) {
    const t = await openDb();
    // On PostgreSQL there is one implementation: run it once.
    if (t.kind === "postgresql" && prisma) break;
    const db = prisma ? prismaOnly(t.db) : t.db;
    out.push({ backend: storesOf(db).backend, result: await body(db, t) });
  }
  return out;
}

/** Both implementations ran (on SQLite), or the Prisma one alone (on PostgreSQL); their results are equal. */
function expectParity<T>(runs: { backend: string; result: T }[]): T {
  expect(runs.map((r) => r.backend)).toEqual(runs.length === 2 ? ["sqlite", "prisma"] : ["prisma"]);
  for (const r of runs.slice(1)) expect(r.result).toEqual(runs[0]!.result);
  return runs[0]!.result;
}

/** Rows as stored (not as Prisma reads them back), on SQLite: the same text for dates, the same 0/1. */
async function stored(t: TestDb, sql: string): Promise<unknown[] | null> {
  return t.kind === "sqlite" ? t.db.$queryRawUnsafe<unknown[]>(sql) : null;
}

const account = (db: Db, name: string, extra: { enabled?: boolean } = {}) =>
  db.account.create({ data: { platform: "discuz", entryUrl: `http://127.0.0.1:1/forum/${name}`, name, ...extra } });

describe("each store gives the same result on both implementations", () => {
  it("accounts and their access settings", async () => {
    const result = expectParity(
      await eachStore(async (db, t) => {
        const a = await account(t.db, "a");
        await account(t.db, "off", { enabled: false });
        const c = await account(t.db, "c");
        const cookies = [{ name: "sid", value: "秘密", domain: "127.0.0.1", path: "/" }];
        await t.db.account.update({
          where: { id: a.id },
          data: { cookies: seal(JSON.stringify(cookies), ACCOUNT_COOKIES, a.id), proxy: seal("http://127.0.0.1:3128", ACCOUNT_PROXY, a.id), ocr: true },
        });
        // Ids, sealed values and the wall-clock stamps differ between the two databases; their types must not.
        const strip = (rows: Awaited<ReturnType<typeof readAccounts>>) =>
          rows.map(({ id: _id, cookies: _c, proxy: _p, createdAt, updatedAt, ...r }) => ({
            ...r,
            stamps: [createdAt, updatedAt].map((d) => d instanceof Date),
          }));
        const errors: string[] = [];
        return {
          one: strip(await readAccounts(db, { id: a.id })),
          enabled: strip(await readAccounts(db, { enabled: true })),
          none: await readAccounts(db, { id: c.id + 100 }),
          cookies: await loadAccountCookies(db, a.id),
          noCookies: await loadAccountCookies(db, c.id, (m) => errors.push(m)),
          proxy: await loadAccountProxy(db, a.id),
          noProxy: await loadAccountProxy(db, c.id),
          missing: await loadAccountProxy(db, c.id + 100),
          errors,
        };
      }),
    );
    expect(result.one).toEqual([expect.objectContaining({ name: "a", enabled: true, ocr: true, lastRunAt: null, stamps: [true, true] })]);
    expect(result.enabled.map((r) => r.name)).toEqual(["a", "c"]);
    expect(result.none).toEqual([]);
    expect(result.cookies).toEqual([{ name: "sid", value: "秘密", domain: "127.0.0.1", path: "/" }]);
    expect(result.proxy).toMatchObject({ host: "127.0.0.1", port: 3128 });
    expect([result.noCookies, result.noProxy, result.missing, result.errors]).toEqual([[], null, null, []]);
  });

  it("history marks: the time only moves forward, the resume state may move back", async () => {
    const result = expectParity(
      await eachStore(async (db, t) => {
        const { id } = await account(t.db, "a");
        const steps: Record<string, unknown> = {};
        const snap = async (name: string) => {
          steps[name] = { marks: Object.fromEntries(await readMarks(db, id)), resumes: Object.fromEntries(await readResumes(db, id)) };
        };
        await advanceMark(db, id, "", at(10));
        await advanceMark(db, id, "", at(5)); // back: ignored
        await snap("account mark");
        // A list page's new threads; "t1" twice (the later time and the last resume count), "t0" exists already.
        await advanceMark(db, id, "t0", at(20));
        await createThreadMarks(db, id, [
          { scope: "t0", newestAt: at(15), resume: { last: 3 } },
          { scope: "t1", newestAt: at(1), resume: null },
          { scope: "t2", newestAt: at(2), resume: { last: 2 } },
          { scope: "t1", newestAt: at(4), resume: { page: 7 } },
          { scope: "t1", newestAt: at(3), resume: null },
        ]);
        await snap("thread marks");
        await finishThreadMark(db, id, "t2", at(1), null); // older, no resume: nothing to write
        await finishThreadMark(db, id, "t1", at(9), { last: 9 });
        await setResume(db, id, "t2", { page: 1 }, at(30)); // a thread read again from page 1: the time stays
        await setResume(db, id, "t3", { page: 51 }, at(6)); // a new mark takes the time
        await clearResume(db, id, "t0");
        await clearResume(db, id, "none");
        await snap("resumes");
        const rows = await t.db.historyMark.findMany({ orderBy: { scope: "asc" } });
        return {
          steps,
          stamped: rows.every((r) => r.updatedAt.getTime() > at(60).getTime()),
          stored: await stored(t, `SELECT "scope", "newestAt", "resume" FROM "HistoryMark" ORDER BY "scope"`),
        };
      }),
    );
    expect(result.steps).toEqual({
      "account mark": { marks: { "": at(10) }, resumes: {} },
      "thread marks": {
        marks: { "": at(10), t0: at(20), t1: at(4), t2: at(2) },
        resumes: { t0: { last: 3 }, t1: { page: 7 }, t2: { last: 2 } },
      },
      resumes: {
        marks: { "": at(10), t0: at(20), t1: at(9), t2: at(2), t3: at(6) },
        resumes: { t1: { last: 9 }, t2: { page: 1 }, t3: { page: 51 } },
      },
    });
    expect(result.stamped).toBe(true);
  });

  it("the classifier's queue: a crawl with nothing queued for its account asks no further", async () => {
    const result = expectParity(
      await eachStore(async (db, t) => {
        const a = await account(t.db, "a");
        const b = await account(t.db, "b");
        const post = await t.db.post.create({
          data: { accountId: a.id, platformId: "p1", url: "http://127.0.0.1:1/p1", title: "t", publishedAt: at(0), text: "x", sha1: "s" },
        });
        await t.db.unclassifiedPost.create({ data: { postId: post.id, queuedAt: at(1) } });
        const handed: number[][] = [];
        const classify = async (_db: Db, ids: number[]) => {
          handed.push(ids.map((i) => (i === post.id ? 1 : -1)));
        };
        return { a: await classifyPending(db, { accountId: a.id, classify }), b: await classifyPending(db, { accountId: b.id, classify }), handed };
      }),
    );
    expect(result).toEqual({ a: 1, b: 0, handed: [[1]] });
  });

  it("the search index: what is queued is indexed once", async () => {
    const result = expectParity(
      await eachStore(async (db, t) => {
        const a = await account(t.db, "a");
        for (const p of ["p1", "p2"])
          await t.db.post.create({
            data: { accountId: a.id, platformId: p, url: `http://127.0.0.1:1/${p}`, title: "期末", publishedAt: at(0), text: "考试", sha1: p },
          });
        return { first: await flushSearchIndex(db), again: await flushSearchIndex(db), kind: t.kind };
      }),
    );
    // PostgreSQL indexes as it writes: nothing is queued there.
    expect(result).toEqual(result.kind === "sqlite" ? { first: 2, again: 0, kind: "sqlite" } : { first: 0, again: 0, kind: "postgresql" });
  });
});
