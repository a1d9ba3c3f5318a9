/**
 * Storing a page of items from a crawl: count it on the run, read the images of what it created
 * or changed (OCR), and classify those.
 */
import { storePage, type PreparedItem } from "../store";
import type { Fetcher } from "../types";
import type { Crawl } from "./context";

/** Images read per post at most: a gallery post should not stall the crawl. */
const MAX_IMAGES_PER_POST = 6;

/** Store a page, count it, read images of what it created or changed (OCR), and classify those. */
export async function commit(c: Crawl, prepared: PreparedItem[]): Promise<void> {
  if (prepared.length === 0) return;
  const { services, s } = c;
  const out = await storePage(services.db, c.accountId, prepared, c.now());
  s.newPosts += out.created.length;
  s.changedPosts += out.changed.length - out.restored.length;
  s.restoredPosts += out.restored.length;
  s.unchangedPosts += out.unchanged;
  // Exists for test/integration/crawl/kill-classify.test.ts only: die like a killed process right
  // after the first commit that created posts, before they are classified. Inert unless set.
  if (out.created.length > 0 && process.env.CAMPUSWATCH_TEST_EXIT_AFTER_STORE === "1") process.kill(process.pid, "SIGKILL");
  const touched = [...out.created, ...out.changed];
  if (touched.length === 0) return;
  if (c.ocrFetch && services.ocr) await readImages(c, touched, prepared, c.ocrFetch);
  if (!services.classify) return;
  try {
    await services.classify(services.db, touched);
  } catch (e) {
    // The posts are stored; a classifier failure must not lose them or stop the crawl. They stay
    // in UnclassifiedPost and are classified at the start of the account's next crawl.
    c.record(new Error(`classification of ${touched.length} posts failed: ${(e as Error).message}`));
  }
}

/** OCR the images of stored posts; a failed image is recorded and skipped, never fatal. */
async function readImages(c: Crawl, postIds: number[], prepared: PreparedItem[], fetch: Fetcher): Promise<void> {
  const { services } = c;
  const byPlatformId = new Map(prepared.map((p) => [p.item.platformId, p.item.images ?? []]));
  const rows = await services.db.post.findMany({ where: { id: { in: postIds } }, select: { id: true, platformId: true } });
  for (const row of rows) {
    const images = (byPlatformId.get(row.platformId) ?? []).slice(0, MAX_IMAGES_PER_POST);
    if (images.length === 0) continue;
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
    if (ocrText) await services.db.post.update({ where: { id: row.id }, data: { ocrText } });
  }
}
