import { useTranslations } from "next-intl";

const STATES = ["candidate", "open", "handled", "dismissed", "merged"] as const;
type State = (typeof STATES)[number];

/** An incident's status as a badge (an unknown value is shown as stored). */
export function IncidentStatus({ status }: { status: string }) {
  const t = useTranslations("incidents.status");
  const known = (STATES as readonly string[]).includes(status);
  return <span className={`badge incident-${status}`}>{known ? t(status as State) : status}</span>;
}

/** A heat score as the list shows it (one decimal). */
export function heatText(heat: number): string {
  return heat.toFixed(1);
}
