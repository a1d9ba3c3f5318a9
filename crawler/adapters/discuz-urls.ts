/**
 * The URL forms of Discuz! boards and threads live below the crawler (lib/discuz-urls.ts): a
 * post's site key (lib/site-key.ts) depends on the board's directory, and lib/ never imports the
 * crawler. This path stays for the adapter's own files.
 */
export {
  boardListUrl,
  commentMoreUrl,
  DISCUZ_BOARD_FORMS,
  discuzBoardFromUrl,
  discuzCategoryFromUrl,
  discuzThreadFromUrl,
  floorUrl,
  threadPageUrl,
  threadUrl,
  tidInLink,
} from "../../lib/discuz-urls";
export type { DiscuzBoard, DiscuzDialect } from "../../lib/discuz-urls";
