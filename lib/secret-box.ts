/**
 * Encryption at rest for secrets CampusWatch must use but never show (an account's login cookies
 * and proxy, a topic's signing secrets): AES-256-GCM with a key derived by HKDF-SHA256 from the
 * instance secret (`CAMPUSWATCH_SECRET`, else the key kept in the data directory; lib/config.ts
 * sessionSecret) and the column's purpose, so a key for one purpose opens nothing else.
 *
 * Sealed text is `v2.` + base64url of IV (12 bytes) · tag (16 bytes) · ciphertext, sealed with
 * associated data naming the table, column and row (`Account.cookies:42`): a value copied into
 * another row, or another column, fails to open, so someone who can write the database but not
 * read the secret cannot move an account's cookies to an account of their choosing.
 *
 * `v1.` values (same layout, no associated data: what CampusWatch wrote before) still open;
 * every write seals v2, and `campuswatch db migrate` and `campuswatch secrets rotate`
 * (lib/secret-rotate.ts) re-seal the v1 ones that are left.
 */
import crypto from "node:crypto";
import { sessionSecret } from "./config";
import type { SealedColumn } from "./sealed-columns";

const V1 = "v1.";
const V2 = "v2.";

function keyFor(purpose: string, secret: Uint8Array): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secret, Buffer.alloc(0), `campuswatch:${purpose}`, 32));
}

/** The associated data a value of `column` in row `rowId` is sealed with. */
function boundTo(column: SealedColumn, rowId: number): Buffer {
  return Buffer.from(`${column.table}.${column.column}:${rowId}`, "utf8");
}

/** Encrypt `plaintext` for one column of one row (v2: bound to them). */
export function seal(plaintext: string, column: SealedColumn, rowId: number, secret: Uint8Array = sessionSecret()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(column.purpose, secret), iv);
  cipher.setAAD(boundTo(column, rowId));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return V2 + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Thrown when sealed text cannot be opened: tampered, truncated, moved to another row, or sealed with another secret. */
export class SealError extends Error {
  override name = "SealError";
}

/** True when `value` is sealed text (any version) rather than a plaintext left from before sealing. */
export function isSealed(value: string): boolean {
  return value.startsWith(V1) || value.startsWith(V2);
}

/** True when `value` is sealed in the current format (v2). */
export function isCurrentSeal(value: string): boolean {
  return value.startsWith(V2);
}

/**
 * Decrypt what {@link seal} produced for the same column, row and secret (or a v1 value sealed
 * for the column's purpose, which is bound to no row).
 */
export function unseal(sealed: string, column: SealedColumn, rowId: number, secret: Uint8Array = sessionSecret()): string {
  const version = sealed.startsWith(V2) ? 2 : sealed.startsWith(V1) ? 1 : 0;
  if (version === 0) throw new SealError("not sealed by this version of CampusWatch");
  const raw = Buffer.from(sealed.slice(V2.length), "base64url");
  if (raw.length < 28) throw new SealError("sealed text is truncated");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(column.purpose, secret), raw.subarray(0, 12));
    if (version === 2) decipher.setAAD(boundTo(column, rowId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("cannot decrypt: the data was changed, belongs to another row, or was sealed with another CAMPUSWATCH_SECRET");
  }
}
