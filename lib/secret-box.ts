/**
 * Encryption at rest for secrets CampusWatch must use but never show (an account's login
 * cookies): AES-256-GCM with a key derived by HKDF-SHA256 from the instance secret
 * (`CAMPUSWATCH_SECRET`, else the key kept in the data directory; lib/config.ts sessionSecret) and
 * a purpose, so a key for one purpose opens nothing else. Sealed text is `v1.` + base64url of
 * IV (12 bytes) · tag (16 bytes) · ciphertext; a changed byte or another key fails to open.
 */
import crypto from "node:crypto";
import { sessionSecret } from "./config";

const VERSION = "v1.";

function keyFor(purpose: string, secret: Uint8Array): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secret, Buffer.alloc(0), `campuswatch:${purpose}`, 32));
}

/** Encrypt `plaintext` for `purpose` (e.g. "account-cookies"). */
export function seal(plaintext: string, purpose: string, secret: Uint8Array = sessionSecret()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(purpose, secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Thrown when sealed text cannot be opened: tampered, truncated, or sealed with another secret. */
export class SealError extends Error {
  override name = "SealError";
}

/** Decrypt what {@link seal} produced for the same purpose and secret. */
export function unseal(sealed: string, purpose: string, secret: Uint8Array = sessionSecret()): string {
  if (!sealed.startsWith(VERSION)) throw new SealError("not sealed by this version of CampusWatch");
  const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
  if (raw.length < 28) throw new SealError("sealed text is truncated");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(purpose, secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("cannot decrypt: the data was changed or sealed with another CAMPUSWATCH_SECRET");
  }
}
