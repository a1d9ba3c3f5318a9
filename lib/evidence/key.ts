/**
 * The install's evidence signing key: one Ed25519 key pair, made the first time a package is
 * signed and kept in the data directory as `evidence-key.pem` (PKCS#8, mode 0600, through
 * lib/private-files.ts). Its public half goes into every manifest and is printed by
 * `campuswatch evidence key`, so that whoever receives a package can check it came from this
 * install. Losing the file means new packages are signed by a new key: back it up with the database.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../config";
import { createPrivateFileOnce } from "../private-files";

/** File name under the data directory. */
export const EVIDENCE_KEY_FILE = "evidence-key.pem";

/** The signing key as packages use it. */
export interface EvidenceKey {
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  /** The public key as base64 SPKI DER: what manifests carry. */
  publicKeyBase64: string;
  /** `sha256:` and the hex SHA-256 of the SPKI DER: a short name for the key (also the install's id). */
  fingerprint: string;
}

/** Base64 SPKI of an Ed25519 public key, and its fingerprint. */
export function describePublicKey(publicKey: crypto.KeyObject): { publicKeyBase64: string; fingerprint: string } {
  const der = publicKey.export({ type: "spki", format: "der" });
  return { publicKeyBase64: der.toString("base64"), fingerprint: `sha256:${crypto.createHash("sha256").update(der).digest("hex")}` };
}

/** The key file's path. */
export function evidenceKeyFile(dir = dataDir()): string {
  return path.join(/* turbopackIgnore: true */ dir, EVIDENCE_KEY_FILE);
}

/**
 * The install's key, made on first use. A file that exists but is not an Ed25519 private key is
 * an error (never silently replaced: packages signed by it would no longer match the install).
 */
export function loadEvidenceKey(dir = dataDir()): EvidenceKey {
  const file = evidenceKeyFile(dir);
  if (!fs.existsSync(file)) {
    const { privateKey } = crypto.generateKeyPairSync("ed25519");
    // Another process may create it at the same moment: the first link wins and both read it.
    createPrivateFileOnce(file, privateKey.export({ type: "pkcs8", format: "pem" }));
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(fs.readFileSync(file));
  } catch (e) {
    throw new Error(`${file} is not a readable private key (${(e as Error).message}): restore it from a backup, or move it away to make a new one`);
  }
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`${file} holds a ${privateKey.asymmetricKeyType} key, not Ed25519`);
  const publicKey = crypto.createPublicKey(privateKey);
  return { privateKey, publicKey, ...describePublicKey(publicKey) };
}

/** Sign `data` with the key (Ed25519 signs the message itself: no separate digest). */
export function signEvidence(key: EvidenceKey, data: Buffer): Buffer {
  return crypto.sign(null, data, key.privateKey);
}

/**
 * Check an Ed25519 signature with a base64 SPKI public key; false for a wrong signature and for
 * a key that is not a valid Ed25519 key (a manifest's key is untrusted input).
 */
export function verifyEvidenceSignature(publicKeyBase64: string, data: Buffer, signature: Buffer): boolean {
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(publicKeyBase64, "base64"), format: "der", type: "spki" });
    if (key.asymmetricKeyType !== "ed25519") return false;
    return crypto.verify(null, data, key, signature);
  } catch {
    return false;
  }
}
