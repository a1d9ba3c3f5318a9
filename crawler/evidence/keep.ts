/**
 * Which archive files are evidence and outlive the archive's retention (crawler/archive.ts
 * pruneArchive): the raw page and the screenshot of every post with an open or confirmed flag or
 * in an open incident. A post is often deleted from its platform within hours; its raw page may
 * be all that is left when the case comes up weeks later, so age and the size limit never remove
 * it while the case is live. Once the flag is dismissed or the incident closed, the files age out
 * as any other.
 */
import type { Db } from "../../lib/db";
import { screenshotPathOf } from "./screenshot";

/** Flag statuses whose posts' files are kept: not yet reviewed, or confirmed as a real case. */
export const KEPT_FLAG_STATUSES = ["open", "confirmed"] as const;
/** Incident statuses whose members' files are kept. */
export const KEPT_INCIDENT_STATUSES = ["open"] as const;

/** Archive paths (relative to the archive folder, as Post.archivePath) of the raw pages and screenshots to keep. */
export async function evidenceArchiveFiles(db: Db): Promise<Set<string>> {
  const rows = await db.post.findMany({
    where: {
      archivePath: { not: null },
      OR: [{ flags: { some: { status: { in: [...KEPT_FLAG_STATUSES] } } } }, { incident: { incident: { status: { in: [...KEPT_INCIDENT_STATUSES] } } } }],
    },
    select: { archivePath: true },
  });
  const keep = new Set<string>();
  for (const { archivePath } of rows) {
    if (!archivePath) continue;
    keep.add(archivePath);
    keep.add(screenshotPathOf(archivePath));
  }
  return keep;
}
