import { getFormatter, getTranslations } from "next-intl/server";

const STATUSES = ["queued", "running", "done", "paused", "failed"] as const;
type Status = (typeof STATUSES)[number];

function isStatus(status: string): status is Status {
  return (STATUSES as readonly string[]).includes(status);
}

/** A run's status in the reader's language (an unknown status as it is stored). */
export async function StatusText({ status }: { status: string }) {
  const t = await getTranslations("discovery.status");
  return <>{isStatus(status) ? t(status) : status}</>;
}

/** A run's status as a badge; a "running" run that stopped moving shows as stale. */
export async function StatusBadge({ status, stale }: { status: string; stale?: boolean }) {
  const t = await getTranslations("discovery.status");
  if (stale)
    return (
      <span className="badge warn" title={t("staleTitle")}>
        {t("stale")}
      </span>
    );
  const kind = status === "running" || status === "queued" ? "info" : status === "done" ? "ok" : status === "failed" ? "danger" : "warn";
  return <span className={`badge ${kind}`}>{isStatus(status) ? t(status) : status}</span>;
}

/** relevant / crawled as a percentage with one decimal ("—" before the first page). */
export async function HarvestPercent({ relevant, crawled }: { relevant: number; crawled: number }) {
  if (crawled === 0) return <>—</>;
  const format = await getFormatter();
  return <>{format.number(relevant / crawled, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 })}</>;
}
