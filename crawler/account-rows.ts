/**
 * The accounts a crawl reads, as whole rows. A module of its own, light to load: `crawl once` reads
 * the accounts before it loads the crawler, and with none it loads nothing more (CLI start-up).
 */
import type { Account } from "@/generated/prisma/client";
import type { Db, Prisma } from "../lib/db";
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

// ---- writes ------------------------------------------------------------------------------------
// Account rows are written only through these (docs/tables.md): the dashboard's and the CLI's
// settings (server/accounts.ts, account-access.ts, account-proxy.ts validate and seal them), the
// scheduler's state (next run, manual requests, invalid cron) and the address class. They are
// Prisma's own calls, kept here so that every write of the table can be found in one module.

/** A client or a transaction. */
type AccountWriter = Db | Prisma.TransactionClient;

/** Insert an account (its settings, already validated). */
export function createAccountRow<T extends Prisma.AccountCreateArgs>(db: AccountWriter, args: Prisma.SelectSubset<T, Prisma.AccountCreateArgs>) {
  return db.account.create<T>(args);
}

/** Update one account (throws when it does not exist, as Prisma's update does). */
export function updateAccountRow<T extends Prisma.AccountUpdateArgs>(db: AccountWriter, args: Prisma.SelectSubset<T, Prisma.AccountUpdateArgs>) {
  return db.account.update<T>(args);
}

/** Update the accounts that match (none is not an error): a write conditional on the row's state. */
export function updateAccountRows<T extends Prisma.AccountUpdateManyArgs>(db: AccountWriter, args: Prisma.SelectSubset<T, Prisma.AccountUpdateManyArgs>) {
  return db.account.updateMany<T>(args);
}

/** Delete an account; the schema's cascades take its posts' sources, runs and marks. */
export async function deleteAccountRow(db: AccountWriter, id: number): Promise<void> {
  await db.account.delete({ where: { id }, select: { id: true } });
}
