/**
 * The replies of a post as a tree, for the detail page. A reply's `parentId` is what it answers:
 * a thread's floors point at the thread, and a floor's own replies (Tieba 楼中楼, Weibo child
 * comments, WordPress comment replies, Discuz! 点评) point at the floor. Huge threads are cut:
 * at most {@link REPLY_TREE_LIMITS} — so the page stays small — and every node says how many
 * replies it has in all, so the page can link to the part that was left out.
 */
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "../lib/db";

/** How much of a thread one detail page shows. */
export interface ReplyTreeLimits {
  /** Direct replies of the post (the floors of a thread). */
  top: number;
  /** Replies of each reply below the first level. */
  perParent: number;
  /** Levels below the post. */
  depth: number;
  /** Replies in all. */
  total: number;
}
export const REPLY_TREE_LIMITS: ReplyTreeLimits = { top: 200, perParent: 20, depth: 4, total: 600 };

/** One reply in the tree. */
export interface ReplyNode {
  id: number;
  parentId: number;
  author: string;
  authorId: string;
  publishedAt: Date;
  text: string;
  html: string;
  url: string;
  deletedAt: Date | null;
  incomplete: boolean;
  flags: { id: number; status: string; topic: { name: string } }[];
  /** Its replies in the database (`children` may hold fewer: see the limits). */
  replyCount: number;
  children: ReplyNode[];
}

/** The tree under one post. */
export interface ReplyTree {
  /** The post's direct replies, oldest first, each with its own replies. */
  nodes: ReplyNode[];
  /** Replies in the tree (every level). */
  shown: number;
  /** Direct replies in the database. */
  directCount: number;
}

type Int = number | bigint;

/**
 * Load the replies under `rootId`, level by level, oldest first on each level. Each level is one
 * query on the parentId index (a window function keeps the first replies of each parent), so a
 * thread of any size costs `depth` small queries.
 */
export async function loadReplyTree(db: Db, rootId: number, limits: ReplyTreeLimits = REPLY_TREE_LIMITS): Promise<ReplyTree> {
  const byId = new Map<number, ReplyNode>();
  const top: ReplyNode[] = [];
  const directCount = await db.post.count({ where: { parentId: rootId } });
  let parents = [rootId];
  for (let level = 1; level <= limits.depth && parents.length > 0; level++) {
    const room = limits.total - byId.size;
    if (room <= 0) break;
    const each = level === 1 ? limits.top : limits.perParent;
    const idRows = await db.$queryRaw<{ id: Int }[]>`
      SELECT "id" FROM (
        SELECT "id", "publishedAt", ROW_NUMBER() OVER (PARTITION BY "parentId" ORDER BY "publishedAt", "id") AS "rn"
        FROM "Post" WHERE "parentId" IN (${Prisma.join(parents)})
      ) x WHERE "rn" <= ${each} ORDER BY "publishedAt", "id" LIMIT ${room}`;
    // A reply already in the tree is never added twice (a parentId cycle in bad data ends here).
    const ids = idRows.map((r) => Number(r.id)).filter((id) => !byId.has(id) && id !== rootId);
    if (ids.length === 0) break;
    const rows = await db.post.findMany({
      where: { id: { in: ids } },
      orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
      select: {
        id: true,
        parentId: true,
        author: true,
        authorId: true,
        publishedAt: true,
        text: true,
        html: true,
        url: true,
        deletedAt: true,
        incomplete: true,
        flags: { select: { id: true, status: true, topic: { select: { name: true } } } },
        _count: { select: { replies: true } },
      },
    });
    for (const r of rows) {
      const { _count, parentId, ...rest } = r;
      const node: ReplyNode = { ...rest, parentId: parentId ?? rootId, replyCount: _count.replies, children: [] };
      byId.set(node.id, node);
      if (node.parentId === rootId) top.push(node);
      else byId.get(node.parentId)?.children.push(node);
    }
    parents = rows.map((r) => r.id);
  }
  return { nodes: top, shown: byId.size, directCount };
}

/** A post's ancestors, the thread first (a floor's reply: the thread, then the floor). */
export async function loadAncestors(db: Db, parentId: number | null, max = 5) {
  const chain: { id: number; title: string; text: string; author: string; authorId: string; kind: string; publishedAt: Date; deletedAt: Date | null }[] = [];
  const seen = new Set<number>();
  let next = parentId;
  while (next !== null && chain.length < max && !seen.has(next)) {
    seen.add(next);
    const p = await db.post.findUnique({
      where: { id: next },
      select: { id: true, title: true, text: true, author: true, authorId: true, kind: true, publishedAt: true, deletedAt: true, parentId: true },
    });
    if (!p) break;
    const { parentId: up, text, ...rest } = p;
    chain.unshift({ ...rest, text: text.slice(0, 120) });
    next = up;
  }
  return chain;
}
