import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { discoveryStartChoices } from "@/server/choices";
import { StartDiscoveryForm } from "./start-form";

/** The start form with the topics and seed sets to choose from. */
export async function StartDiscoveryPanel() {
  const [{ topics, seedSets }, tr] = await Promise.all([discoveryStartChoices(db), getTranslations("discovery.panel")]);
  if (topics.length === 0 || seedSets.length === 0) {
    return (
      <p className="muted small">
        {tr.rich("needs", {
          topic: (chunks) => (topics.length === 0 ? <Link href="/topics">{chunks}</Link> : null),
          and: (chunks) => (topics.length === 0 && seedSets.length === 0 ? chunks : null),
          seeds: (chunks) => (seedSets.length === 0 ? <Link href="/seeds">{chunks}</Link> : null),
        })}
      </p>
    );
  }
  return (
    <StartDiscoveryForm
      topics={topics.map((t) => ({ id: t.id, name: t.name, note: t.modelVersion > 0 ? tr("trained") : tr("keywordsOnly") }))}
      seedSets={seedSets.map((s) => ({ id: s.id, name: s.name, note: tr("urls", { count: s._count.urls }) }))}
    />
  );
}
