import { useTranslations } from "next-intl";

/**
 * The 取证包 download: a link to the evidence route (app/api/evidence), which builds the signed ZIP
 * (it may take a few seconds: screenshots are drawn when the crawl did not). Usable in server and
 * client components; show it only to users with the export permission (the route checks again).
 */
export function EvidenceDownload({ kind, id, compact = false }: { kind: "post" | "incident"; id: number; compact?: boolean }) {
  const t = useTranslations("evidence");
  const href = `/api/evidence/${kind === "post" ? "posts" : "incidents"}/${id}`;
  return (
    <a
      className={compact ? "small" : "button secondary"}
      href={href}
      download
      title={t(kind === "post" ? "postHint" : "incidentHint")}
      data-testid={`evidence-${kind}-${id}`}
    >
      {t(kind === "post" ? "downloadPost" : "downloadIncident")}
    </a>
  );
}
