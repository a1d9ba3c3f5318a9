/** Single counts the dashboard shows outside any list: the sidebar's open flags, the "no topics yet" hint. */
import type { Db } from "../lib/db";
import { scopeWhere, type TopicScope } from "../lib/topic-scope";

/** Flags waiting for review (the sidebar's badge), of the reader's topic scope. */
export async function openFlagCount(db: Db, scope: TopicScope = null): Promise<number> {
  return db.flag.count({ where: { status: "open", ...scopeWhere(scope) } });
}

/** How many topics exist (0: nothing can be flagged yet). */
export async function topicCount(db: Db): Promise<number> {
  return db.topic.count();
}
