/** The options of the dashboard's filters and forms, by name. */
import type { Db } from "../lib/db";

/** Every account's id and name, by name (the runs page's account filter). */
export async function accountChoices(db: Db) {
  return db.account.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}

/** The topics (trained or not) and seed sets (with their URL counts) a discovery can start from, by name. */
export async function discoveryStartChoices(db: Db) {
  const [topics, seedSets] = await Promise.all([
    db.topic.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, modelVersion: true } }),
    db.seedSet.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, _count: { select: { urls: true } } } }),
  ]);
  return { topics, seedSets };
}

/** Every topic's id and name, by name (the users page's topic scope, the reports page's choice). */
export async function topicChoices(db: Db): Promise<{ id: number; name: string }[]> {
  return db.topic.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
