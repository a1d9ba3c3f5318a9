/**
 * Re-sealing every sealed column (lib/sealed-columns.ts): under a new instance secret
 * (`campuswatch secrets rotate`), or under the same one to seal what older versions left in
 * plaintext (the topics' signing secrets) or sealed in v1 without a row binding
 * (`campuswatch db migrate`, {@link sealAtRest}).
 *
 * Each table is re-sealed in one transaction, on SQLite and PostgreSQL alike (hand-written SQL
 * with quoted identifiers from the fixed list, so `updatedAt` is left alone: re-sealing changes no
 * setting). A value already sealed (v2) under the target secret is left as it is, so a rotation
 * cut short (a crash between two tables) is finished by running it again with the same new secret.
 * A value that opens under neither secret stops its table's transaction with the row named: it is
 * never dropped or left behind silently.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Prisma } from "@/generated/prisma/client";
import { dataDir, forgetSessionSecret, sessionSecret } from "./config";
import type { Db } from "./db";
import { maskUrl } from "./mask";
import { isCurrentSeal, isSealed, seal, SealError, unseal } from "./secret-box";
import { SEALED_COLUMNS, type SealedColumn } from "./sealed-columns";

/** What re-sealing did to one column. */
export interface ResealCount {
  table: string;
  column: string;
  /** Values sealed anew: opened under the old secret (or plaintext) and sealed (v2) under the new one. */
  resealed: number;
  /** Values already sealed (v2) under the new secret, left as they were. */
  unchanged: number;
  /** Values that opened under neither secret, left as they were (only with `keepUnreadable`). */
  unreadable: number;
}

/** A sealed value that cannot be opened with the old secret: the rotation of its table did not happen. */
export class ResealError extends Error {
  override name = "ResealError";
}

const quote = (name: string) => Prisma.raw(`"${name}"`);

function byTable(): Map<string, SealedColumn[]> {
  const tables = new Map<string, SealedColumn[]>();
  for (const c of SEALED_COLUMNS) tables.set(c.table, [...(tables.get(c.table) ?? []), c]);
  return tables;
}

/** `value` opens under `secret` as a v2 seal of this column and row. */
function opensUnder(value: string, column: SealedColumn, id: number, secret: Uint8Array): boolean {
  if (!isCurrentSeal(value)) return false;
  try {
    unseal(value, column, id, secret);
    return true;
  } catch (e) {
    if (e instanceof SealError) return false;
    throw e;
  }
}

/**
 * Re-seal every sealed column under `to`: values sealed under `from` (v1 or v2) and plaintext
 * values are sealed v2 under `to`; values already sealed v2 under `to` are kept. One transaction
 * per table. Throws {@link ResealError} naming the row when a value opens under neither secret
 * (that table is left unchanged; tables done before it stay done, and a rerun finishes the rest),
 * unless `keepUnreadable`: then such a value is counted and left as it is (what the crawler and the
 * sender already report as "cannot be used: set it again").
 */
export async function resealAll(db: Db, from: Uint8Array, to: Uint8Array, { keepUnreadable = false } = {}): Promise<ResealCount[]> {
  const counts: ResealCount[] = [];
  for (const [table, columns] of byTable()) {
    const done = await db.$transaction(
      async (tx) => {
        const anySet = Prisma.join(
          columns.map((c) => Prisma.sql`${quote(c.column)} IS NOT NULL`),
          " OR ",
        );
        const select = Prisma.join(columns.map((c) => quote(c.column)));
        const rows = await tx.$queryRaw<Record<string, unknown>[]>`SELECT "id", ${select} FROM ${quote(table)} WHERE ${anySet} ORDER BY "id"`;
        const tally: ResealCount[] = columns.map((c) => ({ table, column: c.column, resealed: 0, unchanged: 0, unreadable: 0 }));
        for (const row of rows) {
          const id = Number(row.id);
          for (const [i, column] of columns.entries()) {
            const value = row[column.column];
            if (typeof value !== "string") continue;
            if (opensUnder(value, column, id, to)) {
              tally[i]!.unchanged++;
              continue;
            }
            let plaintext: string;
            try {
              plaintext = isSealed(value) ? unseal(value, column, id, from) : value;
            } catch (e) {
              if (!(e instanceof SealError)) throw e;
              if (keepUnreadable) {
                tally[i]!.unreadable++;
                continue;
              }
              throw new ResealError(
                `${table} ${id}: its ${column.column} cannot be opened with the current secret (${e.message}); ` +
                  `set or clear it (the dashboard, or campuswatch ${table === "Account" ? "accounts" : "topics"} set) and run this again`,
              );
            }
            const sealed = seal(plaintext, column, id, to);
            await tx.$executeRaw`UPDATE ${quote(table)} SET ${quote(column.column)} = ${sealed} WHERE "id" = ${id}`;
            // A plaintext robot URL being sealed: its masked form is what the pages show from now on.
            if (column.display && !isSealed(value))
              await tx.$executeRaw`UPDATE ${quote(table)} SET ${quote(column.display)} = ${maskUrl(plaintext)} WHERE "id" = ${id}`;
            tally[i]!.resealed++;
          }
        }
        return tally;
      },
      // A large install has thousands of accounts: more than Prisma's default 5 s.
      { timeout: 120_000, maxWait: 30_000 },
    );
    counts.push(...done);
  }
  return counts;
}

/**
 * Seal what is not yet sealed in the current format under the instance's own secret: plaintext
 * signing secrets stored by versions before they were sealed, and v1 values (bound to no row).
 * Idempotent, and cheap when there is nothing to do (one query per table; the secret is not
 * even read). `campuswatch db migrate` (so every `npm start`) runs it.
 */
export async function sealAtRest(db: Db, secret: () => Uint8Array): Promise<ResealCount[]> {
  let pending = false;
  for (const [table, columns] of byTable()) {
    const notCurrent = Prisma.join(
      columns.map((c) => Prisma.sql`(${quote(c.column)} IS NOT NULL AND ${quote(c.column)} NOT LIKE 'v2.%')`),
      " OR ",
    );
    const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM ${quote(table)} WHERE ${notCurrent} LIMIT 1`;
    if (rows.length > 0) pending = true;
  }
  if (!pending) return [];
  const key = secret();
  return (await resealAll(db, key, key, { keepUnreadable: true })).filter((c) => c.resealed > 0 || c.unreadable > 0);
}

/**
 * Mask the robot URLs older versions kept whole in Notification.target (the log of sent
 * notifications): only the origin stays (lib/mask.ts maskUrl), as new rows are written, so the
 * table holds no token. E-mail addresses are left as they are. Idempotent and cheap when there is
 * nothing to do (a masked URL ends in "/…"). Returns the number of rows masked.
 * `campuswatch db migrate` runs it.
 */
export async function maskNotificationTargets(db: Db): Promise<number> {
  let masked = 0;
  for (;;) {
    const rows = await db.notification.findMany({
      where: { OR: [{ target: { startsWith: "http://" } }, { target: { startsWith: "https://" } }], NOT: { target: { endsWith: "/…" } } },
      select: { id: true, target: true },
      orderBy: { id: "asc" },
      take: 500,
    });
    if (rows.length === 0) return masked;
    await db.$transaction(rows.map((r) => db.notification.update({ where: { id: r.id }, data: { target: maskUrl(r.target) }, select: { id: true } })));
    masked += rows.length;
  }
}

/** What `campuswatch secrets rotate` did; it never carries a secret. */
export interface RotationResult {
  counts: ResealCount[];
  /** Where the new secret now lives: the data directory's session-secret file, or (CAMPUSWATCH_SECRET set) only where the operator puts it. */
  switched: "file" | "environment";
}

/** The new secret refused, or a rotation that cannot start: nothing was changed. */
export class RotationRefused extends Error {
  override name = "UserInputError";
}

const MIN_SECRET = 32;

function readSecretFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (e) {
    throw new RotationRefused(`cannot read the new secret from ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (text.length < MIN_SECRET) throw new RotationRefused(`the new secret in ${file} must be at least ${MIN_SECRET} characters`);
  if (/\s/.test(text)) throw new RotationRefused(`the new secret in ${file} must be one line without spaces`);
  return text;
}

/**
 * Rotate the instance secret: re-seal every sealed column under a new secret, then switch to it.
 *
 * - `CAMPUSWATCH_SECRET` unset (the key lives in `<data dir>/session-secret`): the new secret is
 *   the content of `newSecretFile`, else a random one. It is first written to
 *   `session-secret.new` (0600); once every table is re-sealed that file replaces `session-secret`
 *   (a rename: either key is whole on disk at any moment). A rotation cut short leaves
 *   `session-secret.new` behind, and running the command again finishes with that same secret.
 * - `CAMPUSWATCH_SECRET` set: the new secret must come from `newSecretFile`; the operator then puts
 *   it in every CampusWatch process's environment. Running again with the same file after a
 *   failure finishes the job.
 *
 * Every session cookie is signed with the secret too, so every dashboard session ends. Processes
 * still running keep the old secret in memory: stop them first, start them after.
 */
export async function rotateInstanceSecret(db: Db, { newSecretFile, dir = dataDir() }: { newSecretFile?: string; dir?: string } = {}): Promise<RotationResult> {
  const old = sessionSecret();
  const fromEnv = Boolean(process.env.CAMPUSWATCH_SECRET?.trim());
  const given = newSecretFile === undefined ? undefined : readSecretFile(newSecretFile);
  let next: string;
  const staged = path.join(dir, "session-secret.new");
  if (fromEnv) {
    if (given === undefined)
      throw new RotationRefused(
        "CAMPUSWATCH_SECRET is set: write the new secret (32+ characters) to a file readable only by you and pass --new-secret-file FILE",
      );
    next = given;
  } else {
    let pending: string | undefined;
    try {
      pending = fs.readFileSync(staged, "utf8").trim();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (pending && given !== undefined && pending !== given)
      throw new RotationRefused(`an interrupted rotation left ${staged}: run secrets rotate again without --new-secret-file to finish it first`);
    next = pending || given || crypto.randomBytes(32).toString("hex");
    if (!pending) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(staged, next, { flag: "wx", mode: 0o600 });
    }
  }
  const to = new TextEncoder().encode(next);
  if (Buffer.from(to).equals(Buffer.from(old))) throw new RotationRefused("the new secret is the current one: choose another");
  const counts = await resealAll(db, old, to);
  if (!fromEnv) {
    fs.renameSync(staged, path.join(dir, "session-secret"));
    forgetSessionSecret();
  }
  return { counts, switched: fromEnv ? "environment" : "file" };
}
