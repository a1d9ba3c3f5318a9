/**
 * The accounts a crawl reads, as whole rows. A module of its own, light to load: `crawl once` reads
 * the accounts before it loads the crawler, and with none it loads nothing more (CLI start-up).
 */
import type { Account } from "@/generated/prisma/client";
import type { Db } from "../lib/db";
import { storesOf } from "../lib/store";
import { CRAWL_STORE, one } from "./store/driver";

/**
 * Whole account rows, as Prisma's `db.account.findMany` returns them, in id order: one account
 * (`{ id }`), or every enabled one (`{ enabled: true }`). Every crawl reads its account here, and
 * its cookies and proxy in ./account-access.ts: on SQLite as prepared statements (lib/store), so that a
 * `crawl once` sends Prisma no query at all when nothing is left to classify or notify (each costs
 * about 1.5 ms of the busy thread, the first ones more; issue 17). A test compares the rows.
 */
export async function readAccounts(db: Db, which: { id: number } | { enabled: true }): Promise<Account[]> {
  return storesOf(db).run(() => one<Account[]>({ op: "accounts", which }), CRAWL_STORE, { transaction: false });
}
