/**
 * An item ready to store (its text cleaned and hashed), and the one rule that says whether
 * storing it creates, changes or leaves alone the post already stored for it.
 */
import type { CrawlItem } from "../types";
import { contentHash, currentCleaning, hashVersion, sameHash } from "../text";

/** An item ready to store: its text cleaned and hashed. */
export interface PreparedItem {
  item: CrawlItem;
  text: string;
  /** {@link contentHash} of the title and text, under the cleaning in force. */
  sha1: string;
  /** Content hash of the listing excerpt for items completed by another request (see Post.listSha1). */
  listSha1?: string | null;
  replyCount?: number | null;
  lastReplyAt?: Date | null;
  archivePath?: string | null;
  /**
   * Text read from the item's images (OCR), stored with the post when this store creates or
   * changes it. Empty or absent leaves the stored OCR text as it is.
   */
  ocrText?: string | null;
}

/** Clean and hash an item with the cleaning in force. */
export function prepareItem(item: CrawlItem, extra: Omit<PreparedItem, "item" | "text" | "sha1"> = {}): PreparedItem {
  const cleaning = currentCleaning();
  const text = cleaning.text(item.html);
  return { item, text, sha1: contentHash(item.title, text, cleaning.version), ...extra };
}

/** The content hash of a listing excerpt (Post.listSha1), under the cleaning in force. */
export function listHash(title: string, html: string): string {
  const cleaning = currentCleaning();
  return contentHash(title, cleaning.text(html), cleaning.version);
}

/** What storing an item does to its post. */
export type Change = "create" | "changed" | "unchanged";

/** The stored state {@link changeOf} decides on. */
export interface StoredState {
  sha1: string;
  incomplete: boolean;
  deletedAt: Date | null;
  /** The stored title and HTML: read to hash the post again when its hash is of an older cleaning. */
  title?: string;
  html?: string;
}

/** Whether a stored hash was made by another cleaning than the one in force (so it must be made again to compare). */
export function staleHash(hash: string): boolean {
  return hashVersion(hash) !== currentCleaning().version;
}

/**
 * The stored post's hash under the cleaning in force: the stored hash when that cleaning made it,
 * else its stored title and HTML cleaned and hashed again (undefined when they were not read).
 * This is what keeps a change of cleaning from recording every post as edited.
 */
export function currentHashOf(prev: StoredState): string | undefined {
  if (!staleHash(prev.sha1)) return prev.sha1;
  if (prev.title === undefined || prev.html === undefined) return undefined;
  const cleaning = currentCleaning();
  return contentHash(prev.title, cleaning.text(prev.html), cleaning.version);
}

/**
 * Whether storing `p` over `prev` creates a post, changes it (a new version, a completed text, or
 * a post back after a deletion) or only moves its bookkeeping. A partial text (Weibo long text
 * whose full text failed) never replaces a complete one: the next crawl tries the full text again.
 */
export function changeOf(prev: StoredState | undefined, p: PreparedItem): Change {
  if (!prev) return "create";
  // A post marked deleted that is served again is back, whatever its content.
  const restored = prev.deletedAt !== null;
  if (restored) return "changed";
  // Under an older cleaning's hash the stored post is hashed again first; not readable: changed.
  const same = sameHash(currentHashOf(prev), p.sha1);
  if (p.item.textIncomplete && !prev.incomplete && !same) return "unchanged";
  return same ? "unchanged" : "changed";
}
