/**
 * Storing a page of items from a crawl: read the images of what it will create or change (OCR),
 * store the page with that text in one transaction, count it on the run, and classify what it
 * created or changed from what the store wrote (a batch of pages at a time).
 */
import { itemsToStore, storePage, type PageExtras, type PreparedItem } from "../store";
import type { Fetcher } from "../types";
import type { Crawl } from "./context";
import { timed } from "../profile";

/** Images read per post at most: a gallery post should not stall the crawl. */
const MAX_IMAGES_PER_POST = 6;

/**
 * Store a page, count it, and queue what it created or changed for {@link classifyStored}. The OCR
 * text of those posts' images is read first and stored in the page's transaction, with `extras` (a thread's last-reply
 * time on its last page): a failure anywhere leaves none of the page.
 */
export async function commit(c: Crawl, prepared: PreparedItem[], extras: PageExtras = {}): Promise<void> {
  if (prepared.length === 0 && !extras.thread) return;
  const { services, s } = c;
  const items = c.ocrFetch && services.ocr ? await readImages(c, prepared, c.ocrFetch) : prepared;
  const out = await timed("store", () => storePage(services.db, c.accountId, items, c.now(), extras));
  s.newPosts += out.created.length;
  s.changedPosts += out.changed.length - out.restored.length;
  s.restoredPosts += out.restored.length;
  s.unchangedPosts += out.unchanged;
  // Exists for test/integration/crawl/kill-classify.test.ts only: die like a killed process right
  // after the first commit that created posts, before they are classified. Inert unless set.
  if (out.created.length > 0 && process.env.CAMPUSWATCH_TEST_EXIT_AFTER_STORE === "1") process.kill(process.pid, "SIGKILL");
  const touched = [...out.created, ...out.changed];
  if (touched.length === 0 || !services.classify) return;
  // Classified a batch at a time rather than page by page: one classifier pass (topics read,
  // classifications and flags written in one transaction) per batch instead of per page. The
  // posts are queued in UnclassifiedPost meanwhile, so a crash loses no classification.
  c.toClassify.ids.push(...touched);
  c.toClassify.posts.push(...out.stored);
  if (c.toClassify.ids.length < CLASSIFY_BATCH) return;
  queueBatch(c);
  // The walk goes on while batches are judged, but never runs more than a few ahead of them.
  if (c.classifying.batches >= CLASSIFY_AHEAD) await timed("classifyWait", () => c.classifying.chain);
}

/** Posts stored but not classified yet that make the worker classify them (classifyPosts' batch size). */
const CLASSIFY_BATCH = 200;
/** Batches handed to the classifier and not judged yet at which the walk waits for them. */
const CLASSIFY_AHEAD = 3;

/**
 * Classify the posts this crawl stored and has not classified yet, and wait for every batch
 * handed over before. A classifier failure is recorded on the run and never loses the posts:
 * they stay in UnclassifiedPost and are classified at the start of the account's next crawl.
 */
export async function classifyStored(c: Crawl): Promise<void> {
  queueBatch(c);
  await timed("classifyWait", () => c.classifying.chain);
}

/** Hand the posts waiting in `c.toClassify` to the classifier, after the batches before them. */
function queueBatch(c: Crawl): void {
  const { services } = c;
  const { ids, posts } = c.toClassify;
  if (ids.length === 0 || !services.classify) return;
  c.toClassify = { ids: [], posts: [] };
  // A post stored twice (created, then changed on a later page) is judged once, as last stored.
  const unique = [...new Set(ids)];
  const last = [...new Map(posts.map((p) => [p.id, p])).values()];
  const judge = async () => {
    try {
      await timed("classify", () => services.classify!(services.db, unique, last));
    } catch (e) {
      c.record(new Error(`classification of ${unique.length} posts failed: ${(e as Error).message}`));
    } finally {
      c.classifying.batches--;
    }
  };
  c.classifying.batches++;
  // Batches run in order: a post changed on a later page is judged after its first version.
  c.classifying.chain = c.classifying.chain.then(judge);
}

/**
 * OCR the images of the items the page will create or change (only those: an unchanged post keeps
 * its text); a failed image is recorded and skipped, never fatal. Returns the items with their text.
 */
async function readImages(c: Crawl, prepared: PreparedItem[], fetch: Fetcher): Promise<PreparedItem[]> {
  const { services } = c;
  if (!prepared.some((p) => (p.item.images ?? []).length > 0)) return prepared;
  const toStore = await itemsToStore(services.db, c.accountId, prepared);
  const read = new Map<string, string>();
  // The same item twice on one page (a pinned copy and the regular row) is read once: the store keeps the last.
  const last = new Map(prepared.map((p) => [p.item.platformId, p]));
  for (const [platformId, p] of last) {
    const images = (p.item.images ?? []).slice(0, MAX_IMAGES_PER_POST);
    if (!toStore.has(platformId) || images.length === 0) continue;
    const texts: string[] = [];
    for (const url of images) {
      try {
        const res = await fetch.get(url, { kind: "other", binary: true });
        if (res.raw && res.raw.length > 0) texts.push(await services.ocr!.read(res.raw));
      } catch (e) {
        c.record(e, url);
      }
    }
    const ocrText = texts.filter(Boolean).join("\n");
    if (ocrText) read.set(platformId, ocrText);
  }
  return read.size === 0 ? prepared : prepared.map((p) => (read.has(p.item.platformId) ? { ...p, ocrText: read.get(p.item.platformId) } : p));
}
