import { db } from "@/lib/db";
import { StartDiscoveryForm } from "./start-form";

/** The start form with the topics and seed sets to choose from. */
export async function StartDiscoveryPanel() {
  const [topics, seedSets] = await Promise.all([
    db.topic.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, modelVersion: true } }),
    db.seedSet.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, _count: { select: { urls: true } } } }),
  ]);
  if (topics.length === 0 || seedSets.length === 0) {
    return (
      <p className="muted small">
        Discovery needs a topic and a seed set: {topics.length === 0 && <a href="/topics">create a topic</a>}
        {topics.length === 0 && seedSets.length === 0 && " and "}
        {seedSets.length === 0 && <a href="/seeds">import seed URLs</a>} first.
      </p>
    );
  }
  return (
    <StartDiscoveryForm
      topics={topics.map((t) => ({ id: t.id, name: t.name, note: t.modelVersion > 0 ? "trained" : "keywords only" }))}
      seedSets={seedSets.map((s) => ({ id: s.id, name: s.name, note: `${s._count.urls} URLs` }))}
    />
  );
}
