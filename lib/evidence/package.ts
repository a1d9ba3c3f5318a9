/**
 * Evidence packages (取证包): the signed ZIP format, independent of where its files come from
 * (crawler/evidence gathers them from the database, the raw archive and Chromium).
 *
 * A package holds its files, `manifest.json` (every file's SHA-256 and size, the posts with their
 * URLs and crawl times, who made it on which install, the public key) and `manifest.sig` (the
 * base64 Ed25519 signature of manifest.json's exact bytes, made with the install's key:
 * ./key.ts). {@link verifyEvidencePackage} checks all of it and says which file was changed.
 */
import crypto from "node:crypto";
import os from "node:os";
import { readZip, writeZip, ZipFormatError, type ZipEntry } from "../zip";
import { describePublicKey, signEvidence, verifyEvidenceSignature, type EvidenceKey } from "./key";

/** The manifest's file name. */
export const MANIFEST_NAME = "manifest.json";
/** The signature's file name. */
export const SIGNATURE_NAME = "manifest.sig";
/** The format, written into every manifest (a later version bumps it). */
export const EVIDENCE_FORMAT = "campuswatch-evidence/1";

/** One file of a package before sealing. */
export interface EvidenceFile {
  name: string;
  data: Buffer;
  /** False for content compressed already (PNG). @default true */
  compress?: boolean;
}

/** The install that made a package. */
export interface EvidenceInstall {
  /** The signing key's fingerprint: stable for the install as long as its data directory lives. */
  id: string;
  hostname: string;
  /** CAMPUSWATCH_PUBLIC_URL, when set: the dashboard people reach. */
  publicUrl: string | null;
  /** CampusWatch's version. */
  version: string;
}

/** A post as the manifest lists it: where it was, when it was crawled, which files hold it. */
export interface EvidencePostEntry {
  postId: number;
  kind: string;
  url: string;
  platform: string;
  accountId: number;
  accountName: string;
  platformId: string;
  title: string;
  author: string;
  authorId: string;
  publishedAt: string;
  /** First and last crawl that saw it. */
  firstSeenAt: string;
  lastSeenAt: string;
  /** When the platform was found to have removed it (null: still there at the last crawl). */
  deletedAt: string | null;
  /** The URL of the raw page and when it was fetched (null when the archive no longer has it). */
  rawPage: { url: string; fetchedAt: string; file: string } | null;
  screenshot: { file: string; takenAt: string; width: number; height: number; from: "archived-page" } | null;
  /** Every stored version, oldest first; the last is the current one. */
  versions: { version: number; file: string; seenAt: string; replacedAt: string | null }[];
  /** Other addresses it was reached at (another account's listing). */
  sourceUrls: string[];
  flags: { flagId: number; topic: string; status: string; score: number; createdAt: string; reviewedAt: string | null }[];
  /** Why a part is missing (the raw page pruned before this version kept it, no Chromium). */
  notes: string[];
  files: string[];
}

/** What a package is about. */
export type EvidenceSubject = { kind: "post"; postId: number } | { kind: "incident"; incidentId: number; title: string; status: string; postIds: number[] };

/** manifest.json. */
export interface EvidenceManifest {
  format: typeof EVIDENCE_FORMAT;
  createdAt: string;
  /** A dashboard user (`user:<name>`) or the CLI (`cli:<os user>`). */
  createdBy: string;
  install: EvidenceInstall;
  subject: EvidenceSubject;
  posts: EvidencePostEntry[];
  files: { name: string; sha256: string; size: number }[];
  signature: { algorithm: "Ed25519"; publicKey: string; keyFingerprint: string; file: typeof SIGNATURE_NAME };
}

/** SHA-256 hex of a buffer. */
export function sha256Hex(data: Buffer): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** The install's identity as manifests state it. */
export function installIdentity(key: EvidenceKey, version: string): EvidenceInstall {
  return { id: key.fingerprint, hostname: os.hostname(), publicUrl: process.env.CAMPUSWATCH_PUBLIC_URL?.trim() || null, version };
}

/**
 * Seal files into a signed package: the manifest lists every file's hash, is signed, and the
 * ZIP holds the files, the manifest and the signature.
 */
export function sealEvidencePackage(
  files: readonly EvidenceFile[],
  meta: { createdAt: Date; createdBy: string; install: EvidenceInstall; subject: EvidenceSubject; posts: EvidencePostEntry[] },
  key: EvidenceKey,
): { zip: Buffer; manifest: EvidenceManifest } {
  const manifest: EvidenceManifest = {
    format: EVIDENCE_FORMAT,
    createdAt: meta.createdAt.toISOString(),
    createdBy: meta.createdBy,
    install: meta.install,
    subject: meta.subject,
    posts: meta.posts,
    files: files.map((f) => ({ name: f.name, sha256: sha256Hex(f.data), size: f.data.length })),
    signature: { algorithm: "Ed25519", publicKey: key.publicKeyBase64, keyFingerprint: key.fingerprint, file: SIGNATURE_NAME },
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
  const signature = Buffer.from(`${signEvidence(key, manifestBytes).toString("base64")}\n`, "ascii");
  const zip = writeZip([{ name: MANIFEST_NAME, data: manifestBytes }, { name: SIGNATURE_NAME, data: signature, compress: false }, ...files], meta.createdAt);
  return { zip, manifest };
}

/** One file's finding. */
export interface VerifiedFile {
  name: string;
  /** ok; changed (its SHA-256 differs from the manifest's); missing from the ZIP; damaged (its bytes do not match the ZIP's own CRC or cannot be unpacked). */
  status: "ok" | "changed" | "missing" | "damaged";
}

/** What {@link verifyEvidencePackage} found. */
export interface EvidenceVerification {
  /** True only when the ZIP reads, the signature is valid and every listed file is unchanged and no other file was added. */
  ok: boolean;
  /** valid; invalid (the manifest or the signature was changed after signing); missing. */
  signature: "valid" | "invalid" | "missing";
  /** Which of the two signed parts is known to have been altered in the ZIP (by its CRC), when a byte flip did it. */
  altered: ("manifest" | "signature")[];
  /** The manifest could be read (present and valid JSON of this format). */
  manifestReadable: boolean;
  keyFingerprint: string | null;
  /** The key is the one expected (this install's, or the one given); null when none was given to compare with. */
  trustedKey: boolean | null;
  files: VerifiedFile[];
  /** Files in the ZIP the manifest does not list. */
  unlisted: string[];
  /** Each problem in one English sentence, first the worst. */
  problems: string[];
  manifest: EvidenceManifest | null;
}

/** The manifest, or null when it is not a readable manifest of this format. */
function parseManifest(data: Buffer): EvidenceManifest | null {
  try {
    const m = JSON.parse(data.toString("utf8")) as EvidenceManifest;
    const files = (m as { files?: unknown }).files;
    if (m.format !== EVIDENCE_FORMAT || !Array.isArray(files) || typeof m.signature?.publicKey !== "string") return null;
    if (!files.every((f: unknown) => typeof (f as { name?: unknown }).name === "string" && typeof (f as { sha256?: unknown }).sha256 === "string")) return null;
    return m;
  } catch {
    return null;
  }
}

/**
 * Verify a package: the signature over manifest.json (with the public key the manifest carries,
 * compared with `expectedFingerprint` when given), then each listed file's SHA-256, and that no
 * file was added. Never throws on a damaged package: a ZIP that cannot be read at all is reported
 * as a problem.
 */
export function verifyEvidencePackage(zip: Buffer, options: { expectedFingerprint?: string | null } = {}): EvidenceVerification {
  const result: EvidenceVerification = {
    ok: false,
    signature: "missing",
    altered: [],
    manifestReadable: false,
    keyFingerprint: null,
    trustedKey: null,
    files: [],
    unlisted: [],
    problems: [],
    manifest: null,
  };
  let entries: ZipEntry[];
  try {
    entries = readZip(zip);
  } catch (e) {
    result.problems.push(e instanceof ZipFormatError ? `the ZIP cannot be read: ${e.message}` : `the ZIP cannot be read (${(e as Error).message})`);
    return result;
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const manifestEntry = byName.get(MANIFEST_NAME);
  const signatureEntry = byName.get(SIGNATURE_NAME);
  if (manifestEntry && !manifestEntry.crcOk) result.altered.push("manifest");
  if (signatureEntry && !signatureEntry.crcOk) result.altered.push("signature");
  const manifest = manifestEntry ? parseManifest(manifestEntry.data) : null;
  result.manifest = manifest;
  result.manifestReadable = manifest !== null;
  if (!manifestEntry) result.problems.push(`${MANIFEST_NAME} is missing: nothing says what the package should hold`);
  else if (!manifest) result.problems.push(`${MANIFEST_NAME} was altered: it is no longer a readable manifest`);

  if (manifest && manifestEntry) {
    result.keyFingerprint = describeKey(manifest.signature.publicKey);
    if (options.expectedFingerprint) result.trustedKey = result.keyFingerprint === options.expectedFingerprint;
    if (!signatureEntry) {
      result.problems.push(`${SIGNATURE_NAME} is missing: the manifest is not signed`);
    } else {
      const signature = Buffer.from(signatureEntry.data.toString("ascii").trim(), "base64");
      result.signature = verifyEvidenceSignature(manifest.signature.publicKey, manifestEntry.data, signature) ? "valid" : "invalid";
      if (result.signature === "invalid") {
        const which =
          result.altered.length === 2
            ? "both the manifest and the signature were altered"
            : result.altered[0] === "manifest"
              ? `${MANIFEST_NAME} was altered after signing`
              : result.altered[0] === "signature"
                ? `${SIGNATURE_NAME} was altered`
                : `${MANIFEST_NAME} or ${SIGNATURE_NAME} was replaced after signing`;
        result.problems.push(`the signature does not match the manifest: ${which}`);
      }
    }
    if (result.trustedKey === false) {
      result.problems.push(`signed by key ${result.keyFingerprint}, not by the expected key ${options.expectedFingerprint}`);
    }
    const listed = new Set<string>();
    for (const f of manifest.files) {
      listed.add(f.name);
      const entry = byName.get(f.name);
      let status: VerifiedFile["status"];
      if (!entry) status = "missing";
      else if (sha256Hex(entry.data) !== f.sha256) status = entry.crcOk ? "changed" : "damaged";
      else status = "ok";
      result.files.push({ name: f.name, status });
      if (status === "missing") result.problems.push(`${f.name} is missing`);
      if (status === "changed") result.problems.push(`${f.name} was changed: its SHA-256 is not the one in the manifest`);
      if (status === "damaged") result.problems.push(`${f.name} was changed: its bytes no longer match the manifest's SHA-256 (nor the ZIP's own checksum)`);
    }
    result.unlisted = entries.map((e) => e.name).filter((n) => n !== MANIFEST_NAME && n !== SIGNATURE_NAME && !listed.has(n));
    for (const n of result.unlisted) result.problems.push(`${n} was added: the manifest does not list it`);
  }
  result.ok = result.problems.length === 0 && result.signature === "valid";
  return result;
}

/** A manifest's key fingerprint, or "invalid key" for something that is not a key. */
function describeKey(publicKeyBase64: string): string {
  try {
    return describePublicKey(crypto.createPublicKey({ key: Buffer.from(publicKeyBase64, "base64"), format: "der", type: "spki" })).fingerprint;
  } catch {
    return "invalid key";
  }
}
