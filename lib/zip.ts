/**
 * A small, strict ZIP writer and reader for evidence packages (crawler/evidence, lib/evidence).
 *
 * No ZIP library is a dependency of the product (adm-zip is in node_modules only as a dev tool's
 * dependency), and an evidence package needs little: a handful of files, each stored or deflated,
 * UTF-8 names, no encryption, no ZIP64. The reader is used on files a person hands in for
 * checking (`campuswatch evidence verify`), so it trusts nothing: every offset and length is
 * bounds-checked, sizes are capped, names that could escape a folder are refused, and a CRC-32
 * mismatch is reported per entry (so the verifier can name the file) rather than thrown.
 *
 * Format: PKWARE APPNOTE 6.3.x, sections 4.3.7 (local header), 4.3.12 (central directory) and
 * 4.3.16 (end of central directory record).
 */
import zlib from "node:zlib";

/** One file to write. */
export interface ZipInput {
  /** Path inside the archive, with `/` separators (e.g. `post-12/raw.html`). */
  name: string;
  data: Buffer;
  /** Deflate it (text); false stores it as it is (a PNG is compressed already). @default true */
  compress?: boolean;
}

/** One file read back. */
export interface ZipEntry {
  name: string;
  /** The content after inflating (what the CRC and any hash are computed over). */
  data: Buffer;
  /** The CRC-32 the archive declares matches the content. */
  crcOk: boolean;
  /** Why the content could not be read (a damaged deflate stream), when it could not; `data` is then empty. */
  error?: string;
}

/** Largest archive the writer makes and the reader accepts (no ZIP64: 32-bit offsets). */
export const ZIP_MAX_BYTES = 0xffff_fffe;
/** Most entries (no ZIP64: a 16-bit count). */
const MAX_ENTRIES = 0xffff;

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
/** General purpose flag bit 11: names are UTF-8. */
const UTF8_FLAG = 0x0800;
/** Bit 0: encrypted (refused). */
const ENCRYPTED_FLAG = 0x0001;
const STORE = 0;
const DEFLATE = 8;
/** "Version needed to extract": 2.0 (deflate, folders). */
const VERSION_NEEDED = 20;
/** "Version made by": Unix (3) in the high byte, so the external attributes carry a file mode. */
const VERSION_MADE_BY = (3 << 8) | 20;
/** Regular file, rw-r--r--, in the high 16 bits of the external attributes (Unix). */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

/** The ZIP's CRC-32 (the same polynomial as zlib's), from node:zlib (Node 20.15+). */
function crc32(data: Buffer): number {
  return zlib.crc32(data) >>> 0;
}

/** MS-DOS date and time of `at`, read in UTC so that a package's bytes do not depend on the machine's zone. */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * A name the writer accepts and the reader keeps: relative, `/`-separated, no empty, `.` or `..`
 * part, no backslash or NUL (which other tools read as separators or terminators), at most 512 bytes.
 */
export function isSafeZipName(name: string): boolean {
  if (name.length === 0 || Buffer.byteLength(name) > 512) return false;
  if (/[\\\0]/.test(name) || name.startsWith("/") || /^[A-Za-z]:/.test(name)) return false;
  return name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Write `files` as one ZIP archive. Names must be safe ({@link isSafeZipName}) and distinct; every
 * entry gets the time `at` (one fixed time: the package's creation).
 */
export function writeZip(files: readonly ZipInput[], at: Date = new Date()): Buffer {
  if (files.length > MAX_ENTRIES) throw new Error(`a ZIP holds at most ${MAX_ENTRIES} files here (got ${files.length})`);
  const { time, date } = dosDateTime(at);
  const seen = new Set<string>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    if (!isSafeZipName(file.name)) throw new Error(`not a safe name inside a ZIP: ${JSON.stringify(file.name)}`);
    if (seen.has(file.name)) throw new Error(`two files named ${file.name} in one ZIP`);
    seen.add(file.name);
    const name = Buffer.from(file.name, "utf8");
    const crc = crc32(file.data);
    let method = STORE;
    let body = file.data;
    if (file.compress !== false && file.data.length > 0) {
      const deflated = zlib.deflateRawSync(file.data, { level: 9 });
      // Deflate only when it saves something: a compressed image grows a little.
      if (deflated.length < file.data.length) {
        method = DEFLATE;
        body = deflated;
      }
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_SIG, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_FLAG, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const head = Buffer.alloc(46);
    head.writeUInt32LE(CENTRAL_SIG, 0);
    head.writeUInt16LE(VERSION_MADE_BY, 4);
    head.writeUInt16LE(VERSION_NEEDED, 6);
    head.writeUInt16LE(UTF8_FLAG, 8);
    head.writeUInt16LE(method, 10);
    head.writeUInt16LE(time, 12);
    head.writeUInt16LE(date, 14);
    head.writeUInt32LE(crc, 16);
    head.writeUInt32LE(body.length, 20);
    head.writeUInt32LE(file.data.length, 24);
    head.writeUInt16LE(name.length, 28);
    // extra field length (30), comment length (32), disk number (34), internal attributes (36): 0
    head.writeUInt32LE(FILE_ATTRIBUTES, 38);
    head.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(head, name);
    offset += local.length + name.length + body.length;
    if (offset > ZIP_MAX_BYTES) throw new Error("the package would be larger than a ZIP without ZIP64 can hold (4 GiB)");
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_SIG, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** A ZIP the reader refuses (not a ZIP, damaged structure, a feature it does not read). */
export class ZipFormatError extends Error {
  override name = "ZipFormatError";
}

/** Limits of {@link readZip}. */
export interface ReadZipOptions {
  /** Largest total of inflated content. @default 2 GiB */
  maxTotalBytes?: number;
}

/**
 * Read every entry of a ZIP held in memory. Structure errors (no end record, an offset outside
 * the file, an unsafe or repeated name, encryption, ZIP64, an unknown method) throw
 * {@link ZipFormatError}; a content that does not match its CRC or does not inflate is returned
 * with `crcOk: false` (and `error`), so a caller can say which file was changed.
 */
export function readZip(zip: Buffer, options: ReadZipOptions = {}): ZipEntry[] {
  const maxTotal = options.maxTotalBytes ?? 2 * 1024 ** 3;
  if (zip.length < 22) throw new ZipFormatError("not a ZIP file (too short)");
  // The end record is the last 22 bytes plus a comment of up to 65535 bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_SIG && i + 22 + zip.readUInt16LE(i + 20) === zip.length) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError("not a ZIP file (no end of central directory record)");
  const count = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  const centralOffset = zip.readUInt32LE(end + 16);
  if (zip.readUInt16LE(end + 4) !== 0 || zip.readUInt16LE(end + 6) !== 0 || zip.readUInt16LE(end + 8) !== count) {
    throw new ZipFormatError("multi-volume ZIP files are not read");
  }
  if (centralOffset === 0xffffffff || count === 0xffff) throw new ZipFormatError("ZIP64 files are not read");
  if (centralOffset + centralSize > end) throw new ZipFormatError("damaged ZIP: the central directory lies outside the file");

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let p = centralOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || zip.readUInt32LE(p) !== CENTRAL_SIG)
      throw new ZipFormatError(`damaged ZIP: central directory entry ${i + 1} is not where it should be`);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressedSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    if (p + 46 + nameLength > end) throw new ZipFormatError(`damaged ZIP: entry ${i + 1}'s name runs past the directory`);
    const name = zip.toString(flags & UTF8_FLAG ? "utf8" : "latin1", p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue; // a folder entry: nothing to read
    if (!isSafeZipName(name)) throw new ZipFormatError(`unsafe file name in the ZIP: ${JSON.stringify(name)}`);
    if (names.has(name)) throw new ZipFormatError(`the ZIP holds two files named ${name}`);
    names.add(name);
    if (flags & ENCRYPTED_FLAG) throw new ZipFormatError(`${name} is encrypted`);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw new ZipFormatError("ZIP64 files are not read");
    if (method !== STORE && method !== DEFLATE) throw new ZipFormatError(`${name} uses compression method ${method} (only store and deflate are read)`);
    total += size;
    if (total > maxTotal) throw new ZipFormatError(`the ZIP unpacks to more than ${maxTotal} bytes`);
    if (localOffset + 30 > centralOffset || zip.readUInt32LE(localOffset) !== LOCAL_SIG)
      throw new ZipFormatError(`damaged ZIP: ${name}'s local header is missing`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > centralOffset) throw new ZipFormatError(`damaged ZIP: ${name}'s content runs past the end of the file data`);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === STORE) {
      if (compressedSize !== size) throw new ZipFormatError(`damaged ZIP: ${name} is stored with two different sizes`);
      const data = Buffer.from(raw);
      entries.push({ name, data, crcOk: crc32(data) === crc });
      continue;
    }
    try {
      // Capped at the declared size: a bomb declaring little and inflating to much fails here.
      const data = zlib.inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      const ok = data.length === size && crc32(data) === crc;
      entries.push({ name, data, crcOk: ok, ...(data.length === size ? {} : { error: `inflates to ${data.length} bytes, ${size} declared` }) });
    } catch (e) {
      entries.push({ name, data: Buffer.alloc(0), crcOk: false, error: `cannot be inflated (${(e as Error).message})` });
    }
  }
  return entries;
}
