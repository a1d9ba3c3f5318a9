/**
 * Discuz! boards (论坛): a board's thread list (crawler/adapters/discuz). Entry URLs name a board
 * in any of its forms (./discuz-urls.ts); thread and category URLs are recognised but refused.
 */
import { DISCUZ_BOARD_FORMS, discuzBoardFromUrl, discuzCategoryFromUrl, discuzThreadFromUrl } from "./discuz-urls";
import type { PlatformEntry } from "./types";

/**
 * The directory a Discuz! installation lives in: the board's base when the URL is a board, else
 * the directory of the script (search.php, forum.php, home.php…) — both end with "/". An
 * `archiver/` directory belongs to the installation above it.
 */
function discuzBaseOf(url: URL): string {
  const board = discuzBoardFromUrl(url);
  if (board) return board.base;
  const dir = url.pathname.replace(/[^/]*$/, "").replace(/archiver\/$/, "");
  return url.origin + (dir || "/");
}

export const discuz = {
  id: "discuz",
  shapeLabel: "Discuz! board",
  colours: { chart: "#23a55a", badgeText: "#1b7a43", badgeBackground: "#e9f6ee" },
  defaultCron: "*/30 * * * *",
  /** Boards, threads and category pages in every form (a thread or category URL is then refused as an entry, with the board forms). */
  recognise: (url) => discuzBoardFromUrl(url) !== null || discuzThreadFromUrl(url) !== null || discuzCategoryFromUrl(url) !== null,
  isEntryUrl: (url) => discuzBoardFromUrl(url) !== null,
  normaliseEntryUrl: () => null,
  entryUrlForms: DISCUZ_BOARD_FORMS,
  candidateOf: (url) => {
    const board = discuzBoardFromUrl(url);
    return board ? { url: `${board.base}forum.php?mod=forumdisplay&fid=${board.fid}`, name: `${url.host} board ${board.fid}` } : null;
  },
  // A tid is unique within one installation, whatever board (fid) or search page listed it.
  siteKey: (url) => `discuz:${discuzBaseOf(url)}`,
  cookieDomains: [],
  features: { replies: true, subReplies: true, deletions: true, keywordWatch: "board", cookies: true },
  fallback: false,
} as const satisfies PlatformEntry<"discuz">;
