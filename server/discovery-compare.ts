/** Which discovery runs a run's harvest curve is drawn beside. */
import type { Db } from "../lib/db";

/**
 * The run itself, then the latest run of each other strategy on the same topic that crawled
 * anything: one curve per strategy, so the chart compares strategies, not repeats of one.
 */
export async function comparisonRunIds(db: Db, run: { id: number; topicId: number; strategy: string }): Promise<number[]> {
  const others = await db.discoveryRun.findMany({
    where: { topicId: run.topicId, id: { not: run.id }, crawled: { gt: 0 } },
    orderBy: { id: "desc" },
    select: { id: true, strategy: true },
  });
  const compare = [run.id];
  const strategies = new Set([run.strategy]);
  for (const o of others) {
    if (strategies.has(o.strategy)) continue;
    strategies.add(o.strategy);
    compare.push(o.id);
  }
  return compare;
}
