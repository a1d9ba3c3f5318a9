/**
 * Dedupe and store: the only code that writes posts and their versions. Each page of items is
 * written in one transaction, with the OCR text of its images and, on a thread's last page, the
 * thread's last-reply time; a post is one row per site and platform id (crawler/site-key.ts),
 * whichever accounts reach it — each is recorded in PostSource — so a repeated page, or the same
 * post found by an account and a keyword watch, is harmless. The SHA-1 of the cleaned text tells
 * new / changed / unchanged apart.
 *
 * The parts live in ./store/: preparing an item and the change rule (prepared.ts), storing a page
 * (page.ts: planned once in page-plan.ts, written through Prisma by page-prisma.ts or as
 * prepared statements on SQLite by page-sqlite.ts), reads before storing (known.ts), deletion
 * marks (deleted.ts), the history time table (marks.ts) and what they share (site.ts). Import
 * from here.
 */
export { accountSiteKey, holdSiteKey } from "./site";
export { prepareItem, listHash, changeOf, type PreparedItem, type Change, type StoredState } from "./prepared";
export { storePage, type StoreOutcome, type StoredPost, type PageExtras } from "./page";
export { knownPosts, itemsToStore, type KnownPost } from "./known";
export { markDeleted } from "./deleted";
export {
  readMarks,
  readResumes,
  setResume,
  clearResume,
  advanceMark,
  finishThreadMark,
  createThreadMarks,
  deleteAccountMarks,
  type NewThreadMark,
  type ThreadResume,
} from "./marks";
