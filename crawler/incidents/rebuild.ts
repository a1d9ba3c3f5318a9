/**
 * `rebuildIncidents`: cluster every stored post again from scratch (after a change of the
 * algorithm or its settings), keeping what reviewers decided:
 *
 * - a pinned membership (a reviewer's merge or split placed the post) stays where it is;
 * - an incident a reviewer acted on (renamed: titleLocked; handled; dismissed; or with any
 *   IncidentAction) keeps all its members: its title, status and history stay true;
 * - a dismissed incident's posts stay apart (they are members of it, and it takes no new posts);
 * - a merged incident stays merged (it has no members; links to it forward).
 *
 * Every other membership is dropped, the clustering index is emptied, and all posts are fed again
 * in publishedAt order: a kept member re-enters the index of its incident, any other post is
 * queued and clustered. Incidents left empty that no reviewer touched are deleted. A rebuild that
 * is killed half-way leaves the rest of the posts queued: the next catch-up clusters them.
 */
import type { Db } from "../../lib/db";
import { IncidentClusterer, type ClusterOptions } from "./clusterer";
import { clusterPosts, TRANSACTION_TIMEOUT_MS } from "./cluster";
import { textFeatures } from "./text-features";
import { recomputeIncidentFigures } from "./figures";
import { DbIndex, indexDialect } from "./index-store";
import { queuePosts } from "./queue";

/** Options of {@link rebuildIncidents}. */
export interface RebuildOptions {
  cluster?: ClusterOptions;
  /** Posts read per page. @default 500 */
  batch?: number;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** What a rebuild did. */
export interface RebuildResult {
  posts: number;
  keptIncidents: number;
  keptMembers: number;
  deletedIncidents: number;
  incidents: number;
  open: number;
}

/** Incident statuses a reviewer set (clustering never sets them). */
const REVIEWED = ["handled", "dismissed", "merged"];

/** Re-run clustering over all stored posts, keeping reviewers' decisions (see the module comment). */
export async function rebuildIncidents(db: Db, options: RebuildOptions = {}): Promise<RebuildResult> {
  const now = options.now ?? (() => new Date());
  const batch = Math.max(1, options.batch ?? 500);
  const log = options.onProgress ?? (() => {});
  const acted = new Set((await db.incidentAction.findMany({ select: { incidentId: true }, distinct: ["incidentId"] })).map((a) => a.incidentId));
  const reviewed = await db.incident.findMany({
    where: { OR: [{ titleLocked: true }, { status: { in: REVIEWED } }, { id: { in: [...acted] } }] },
    select: { id: true },
  });
  const keptIncidents = new Set(reviewed.map((r) => r.id));
  const kept = new Map<number, number>();
  let deleted = 0;
  await db.$transaction(
    async (tx) => {
      await tx.incidentPost.deleteMany({ where: { pinned: false, incidentId: { notIn: [...keptIncidents] } } });
      for (const m of await tx.incidentPost.findMany({ select: { postId: true, incidentId: true } })) kept.set(m.postId, m.incidentId);
      const holding = new Set(kept.values());
      const empty = (await tx.incident.findMany({ where: { id: { notIn: [...keptIncidents, ...holding] } }, select: { id: true } })).map((r) => r.id);
      for (let i = 0; i < empty.length; i += 1000) await tx.incident.deleteMany({ where: { id: { in: empty.slice(i, i + 1000) } } });
      deleted = empty.length;
      await tx.incidentTerm.deleteMany({});
      await tx.incidentBand.deleteMany({});
      await tx.incidentDocFreq.deleteMany({});
      await tx.incidentVector.deleteMany({});
    },
    { timeout: 600_000 },
  );
  log(`kept ${kept.size} members of ${new Set(kept.values()).size} incidents; deleted ${deleted} incidents; clustering all posts again`);
  const dialect = indexDialect(db);
  let after: { publishedAt: Date; id: number } | null = null;
  let posts = 0;
  while (!options.signal?.aborted) {
    const page: { id: number; publishedAt: Date; parentId: number | null; title: string; text: string; ocrText: string | null }[] = await db.post.findMany({
      where: after ? { OR: [{ publishedAt: { gt: after.publishedAt } }, { publishedAt: after.publishedAt, id: { gt: after.id } }] } : {},
      orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
      take: batch,
      select: { id: true, publishedAt: true, parentId: true, title: true, text: true, ocrText: true },
    });
    if (page.length === 0) break;
    after = page[page.length - 1]!;
    await queuePosts(
      db,
      page.filter((p) => !kept.has(p.id)).map((p) => p.id),
      now(),
    );
    for (const p of page) {
      if (options.signal?.aborted) break;
      const incidentId = kept.get(p.id);
      if (incidentId === undefined) {
        await clusterPosts(db, [p.id], options);
      } else {
        const post = { key: p.id, time: p.publishedAt.getTime(), title: p.title, text: p.text, ocrText: p.ocrText };
        const features = textFeatures(p.title, p.text, p.ocrText);
        await db.$transaction(
          async (tx) => {
            const index = new DbIndex(tx, dialect);
            await new IncidentClusterer(index, options.cluster).indexMember({ ...post, features }, incidentId, p.parentId !== null);
          },
          { timeout: TRANSACTION_TIMEOUT_MS },
        );
      }
      posts++;
    }
    log(`${posts} posts`);
  }
  for (const id of new Set(kept.values())) await db.$transaction((tx) => recomputeIncidentFigures(tx, id, now()), { timeout: TRANSACTION_TIMEOUT_MS });
  const incidents = await db.incident.count({ where: { status: { notIn: ["merged"] } } });
  const open = await db.incident.count({ where: { status: "open" } });
  return { posts, keptIncidents: new Set(kept.values()).size, keptMembers: kept.size, deletedIncidents: deleted, incidents, open };
}
