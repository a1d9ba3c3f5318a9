/**
 * crawler/account-rows.ts readAccounts reads whole account rows as prepared statements on SQLite
 * and through Prisma otherwise: the crawl must see the same rows (booleans, dates, nulls alike).
 */
import { describe, expect, it } from "vitest";
import { loadAccountProxy } from "../../../crawler/account-access";
import { readAccounts } from "../../../crawler/account-rows";
import { prismaOnly, testDbs } from "../../support/db";

const openDb = testDbs();

describe("readAccounts", () => {
  it("reads the same rows through the raw connection as through Prisma", async () => {
    const t = await openDb();
    const { db } = t;
    const full = await db.account.create({
      data: {
        platform: "discuz",
        entryUrl: "http://127.0.0.1:1/forum-2-1.html",
        name: '南苑论坛 "水区"',
        enabled: true,
        ocr: true,
        backfillDays: 30,
        recheckDays: 7,
        lastRunAt: new Date(Date.UTC(2026, 11, 1, 8, 0, 0, 5)),
        crawlRequestedAt: new Date(Date.UTC(2026, 11, 1, 9)),
        lastError: "HttpError: HTTP 503",
        robotsPolicy: "ignore",
        robotsPolicySetBy: "admin",
        robotsPolicySetAt: new Date(Date.UTC(2026, 10, 30)),
      },
    });
    const off = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/blog", name: "b", enabled: false } });
    const plain = await db.account.create({ data: { platform: "tieba", entryUrl: "http://127.0.0.1:1/f?kw=x", name: "c" } });
    // A date written in SQLite's own form (by something else) reads as the same instant.
    await db.$executeRawUnsafe(`UPDATE "Account" SET "nextRunAt" = '2026-12-01 10:30:00' WHERE "id" = ${plain.id}`);

    for (const which of [{ enabled: true as const }, { id: full.id }, { id: off.id }, { id: 999_999 }]) {
      expect(await readAccounts(db, which)).toEqual(await readAccounts(prismaOnly(db), which));
    }
    const enabled = await readAccounts(db, { enabled: true });
    expect(enabled.map((a) => a.id)).toEqual([full.id, plain.id]);
    expect(enabled[0]).toEqual(full);
    expect(enabled[1]!.nextRunAt).toEqual(new Date(Date.UTC(2026, 11, 1, 10, 30)));
    expect((await readAccounts(db, { id: off.id }))[0]!.enabled).toBe(false);
    expect(await readAccounts(db, { id: 999_999 })).toEqual([]);
    // No proxy, either way.
    expect(await loadAccountProxy(db, full.id)).toBeNull();
    expect(await loadAccountProxy(prismaOnly(db), full.id)).toBeNull();
  });
});
