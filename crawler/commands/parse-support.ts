/**
 * What `campuswatch parse` runs (./parse.ts declares it): the capture kinds of the adapters
 * (crawler/types.ts `CaptureKind`), chosen by platform and kind, over a file's text.
 */
import fs from "node:fs";
import { getAdapter } from "../adapters";
import { isPlatform, PLATFORMS } from "../../lib/platforms";
import { htmlToText } from "../text";
import type { CaptureKind, CrawlItem, FieldWarning, Platform } from "../types";
import { UserInputError } from "./util";

/** The keys of a printed item: the `posts export` keys an adapter decides (server/export.ts). */
export type ParsedRecord = {
  platformId: string;
  parentPlatformId: string | null;
  kind: CrawlItem["kind"];
  url: string;
  title: string;
  author: string;
  authorId: string;
  publishedAt: string | null;
  text: string;
};

/** The capture kinds of a platform's adapter (none when it declares none). */
function kindsOf(platform: Platform): readonly CaptureKind[] {
  return getAdapter(platform).captureKinds ?? [];
}

/** The help's list: every platform's kinds with their one-line summaries. */
export function captureKindsHelp(): string {
  const lines = ["Kinds (--kind), by platform (--platform):"];
  for (const platform of PLATFORMS) {
    const kinds = kindsOf(platform);
    lines.push(`  ${platform}:${kinds.length === 0 ? " (none)" : ""}`);
    const width = Math.max(0, ...kinds.map((k) => k.kind.length));
    for (const k of kinds) lines.push(`    ${k.kind.padEnd(width)}  ${k.summary}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * The kind to read a body as: the one named, else the one kind of the platform that claims the
 * body (`looksLike`), else the platform's only kind.
 * @throws UserInputError naming the kinds when the name is unknown or the guess is not one kind
 */
export function chooseKind(platform: Platform, body: string, named: string | undefined): CaptureKind {
  const kinds = kindsOf(platform);
  const names = kinds.map((k) => k.kind).join(", ") || "none";
  if (named !== undefined) {
    const kind = kinds.find((k) => k.kind === named);
    if (!kind) throw new UserInputError(`unknown --kind ${JSON.stringify(named)} for ${platform} (kinds: ${names})`);
    return kind;
  }
  if (kinds.length === 1) return kinds[0]!;
  const claimed = kinds.filter((k) => k.looksLike?.(body) === true);
  if (claimed.length === 1) return claimed[0]!;
  const why = claimed.length === 0 ? "cannot tell which kind of page this is" : `it could be ${claimed.map((k) => k.kind).join(" or ")}`;
  throw new UserInputError(`${why}: give --kind (${platform} kinds: ${names})`);
}

/** An item as `parse` prints it: the export's keys, the text as the store reads it. */
export function recordOf(item: CrawlItem): ParsedRecord {
  const at = item.publishedAt.getTime();
  return {
    platformId: item.platformId,
    parentPlatformId: item.parentPlatformId ?? null,
    kind: item.kind,
    url: item.url,
    title: item.title,
    author: item.author,
    authorId: item.authorId ?? "",
    publishedAt: Number.isNaN(at) ? null : item.publishedAt.toISOString(),
    text: htmlToText(item.html),
  };
}

/**
 * Read `file` as a `platform` capture and return the lines to print: one JSON record per item,
 * then `{"warnings": [...]}` (the fields the run would record).
 * @throws UserInputError for an unknown platform or kind, a missing file, a bad clock, or a body
 *   the kind's parser cannot read (its message says why)
 */
export async function parseCaptureFile(o: { file: string; platform: string; kind?: string; url?: string; now?: string }): Promise<string[]> {
  if (!isPlatform(o.platform)) throw new UserInputError(`unknown --platform ${JSON.stringify(o.platform)} (platforms: ${PLATFORMS.join(", ")})`);
  const now = o.now === undefined ? new Date() : new Date(o.now);
  if (Number.isNaN(now.getTime())) throw new UserInputError(`--now must be a date and time like 2026-12-04T08:00:00Z (got ${o.now})`);
  let body: string;
  try {
    body = fs.readFileSync(o.file, "utf8");
  } catch (e) {
    throw new UserInputError(`cannot read ${o.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const kind = chooseKind(o.platform, body, o.kind);
  const warnings: FieldWarning[] = [];
  let items: CrawlItem[];
  try {
    items = await kind.parse(body, { url: o.url, now, warn: (w) => warnings.push(w) });
  } catch (e) {
    const err = e as Error & { url?: string };
    throw new UserInputError(`cannot read ${o.file} as ${o.platform} ${kind.kind}: ${err.message}`);
  }
  return [...items.map((item) => JSON.stringify(recordOf(item))), JSON.stringify({ warnings })];
}
