/**
 * The unlabelled in-domain posts a topic's full training pseudo-labels (./self-train.ts): the
 * newest crawled posts, minus those the topic has a review sample of (their label is known, and
 * they are trained on as reviews already).
 */
import type { Db } from "../../lib/db";
import { postText } from "./verdict";

/**
 * The texts (title, text and OCR text, as classified) of the newest `limit` crawled posts with any
 * text that the topic has no review sample of, newest first. Empty for `limit` 0.
 */
export async function unlabelledPostTexts(db: Db, topicId: number, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const reviewed = new Set(
    (await db.topicSample.findMany({ where: { topicId, source: "review", postId: { not: null } }, select: { postId: true } })).map((s) => s.postId as number),
  );
  const rows = await db.post.findMany({
    orderBy: { id: "desc" },
    take: limit + reviewed.size,
    select: { id: true, title: true, text: true, ocrText: true },
  });
  const out: string[] = [];
  for (const r of rows) {
    if (out.length >= limit) break;
    if (reviewed.has(r.id)) continue;
    const text = postText(r);
    if (text.trim() !== "") out.push(text);
  }
  return out;
}
