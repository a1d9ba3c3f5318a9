/**
 * A user's topic scope (UserTopic rows): a college's counsellors see only their topics' flags and
 * incidents. No row means every topic, so existing users and new ones see what they saw before.
 * Read here; written by server/users.ts (setTopicScope), which checks the topics and audits.
 */
import { Prisma } from "../generated/prisma/client";
import type { Db } from "./db";

/** The topics a user may see, sorted; null when they may see every topic. */
export type TopicScope = readonly number[] | null;

/** A user's scope from their UserTopic rows. */
export async function topicScopeOf(db: Db, userId: number): Promise<TopicScope> {
  return scopeFromRows(await db.userTopic.findMany({ where: { userId }, select: { topicId: true } }));
}

/** The select that reads a user's scope along with the user (give its rows to {@link scopeFromRows}). */
export const SCOPE_SELECT = { topicScope: { select: { topicId: true } } } as const;

/** A scope from a user's UserTopic rows. */
export function scopeFromRows(rows: readonly { topicId: number }[]): TopicScope {
  return rows.length ? rows.map((r) => r.topicId).sort((a, b) => a - b) : null;
}

/** True when a thing of topic `topicId` (null: of no topic) lies in `scope`. */
export function inScope(scope: TopicScope, topicId: number | null | undefined): boolean {
  return scope === null || (topicId != null && scope.includes(topicId));
}

/** A Prisma where fragment on a `topicId` column: nothing for an unscoped user. */
export function scopeWhere(scope: TopicScope): { topicId?: { in: number[] } } {
  return scope === null ? {} : { topicId: { in: [...scope] } };
}

/** The same as a raw SQL condition on `column` (e.g. `f."topicId"`), or null for an unscoped user. */
export function scopeSql(scope: TopicScope, column: Prisma.Sql): Prisma.Sql | null {
  return scope === null ? null : Prisma.sql`${column} IN (${Prisma.join(scope)})`;
}
