/**
 * Bursts for the dashboard: a topic's and its keywords' mention rates against their baselines
 * (crawler/incidents/bursts.ts, the same Poisson/EWMA model incidents use), for the topic page,
 * and what is bursting across topics now, for the home page's compact list. Pages check the
 * signed-in user before calling these.
 */
import type { Db } from "../lib/db";
import { topicBursts, type MentionBurst } from "../crawler/incidents/bursts";

export type { MentionBurst } from "../crawler/incidents/bursts";

/** A topic's series (the topic first, then its keywords, bursting first), or null when there is no such topic. */
export async function topicBurstReport(db: Db, topicId: number, now = new Date()): Promise<MentionBurst[] | null> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { id: true, keywords: true } });
  return topic ? topicBursts(db, topic, now) : null;
}

/** One line of the home page's list: a topic, or one of its keywords, bursting now. */
export interface BurstingItem extends MentionBurst {
  topicId: number;
  topicName: string;
}

// The home page asks on every load; the answer changes by the hour, so a minute's cache per process is plenty.
let cached: { at: number; items: BurstingItem[] } | null = null;
const CACHE_MS = 60_000;

/**
 * What is bursting now across enabled topics, the highest ratio first, at most `limit` lines.
 * Each keyword costs one indexed range read of a week's posts, so the answer is kept a minute.
 */
export async function burstingNow(db: Db, limit = 8, now = new Date()): Promise<BurstingItem[]> {
  if (cached && now.getTime() - cached.at >= 0 && now.getTime() - cached.at < CACHE_MS) return cached.items.slice(0, limit);
  const topics = await db.topic.findMany({ where: { enabled: true }, select: { id: true, name: true, keywords: true }, orderBy: { id: "asc" } });
  const items: BurstingItem[] = [];
  for (const t of topics) {
    for (const s of await topicBursts(db, t, now)) if (s.bursting) items.push({ ...s, topicId: t.id, topicName: t.name });
  }
  items.sort((a, b) => b.ratio - a.ratio);
  cached = { at: now.getTime(), items };
  return items.slice(0, limit);
}

/** Forget the cached answer (tests, and after a topic's keywords change). */
export function forgetBursts(): void {
  cached = null;
}
