/**
 * An item ready to store (its text cleaned and hashed), and the one rule that says whether
 * storing it creates, changes or leaves alone the post already stored for it.
 */
import type { CrawlItem } from "../types";
import { contentSha1, htmlToText } from "../text";

/** An item ready to store: its text cleaned and hashed. */
export interface PreparedItem {
  item: CrawlItem;
  text: string;
  sha1: string;
  /** SHA-1 of the listing excerpt for items completed by another request (see Post.listSha1). */
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

/** Clean and hash an item. */
export function prepareItem(item: CrawlItem, extra: Omit<PreparedItem, "item" | "text" | "sha1"> = {}): PreparedItem {
  const text = htmlToText(item.html);
  return { item, text, sha1: contentSha1(item.title, text), ...extra };
}

/** What storing an item does to its post. */
export type Change = "create" | "changed" | "unchanged";

/** The stored state {@link changeOf} decides on. */
export interface StoredState {
  sha1: string;
  incomplete: boolean;
  deletedAt: Date | null;
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
  if (p.item.textIncomplete && !prev.incomplete && prev.sha1 !== p.sha1) return "unchanged";
  return prev.sha1 === p.sha1 ? "unchanged" : "changed";
}
