/** A run's status as a badge; a "running" run that stopped moving shows as stale. */
export function StatusBadge({ status, stale }: { status: string; stale?: boolean }) {
  if (stale) return <span className="badge warn" title="Marked running, but nothing was written for minutes: its process probably stopped.">stale</span>;
  const kind = status === "running" ? "info" : status === "done" ? "ok" : status === "failed" ? "danger" : "warn";
  return <span className={`badge ${kind}`}>{status}</span>;
}

/** relevant / crawled as a percentage ("—" before the first page). */
export function harvestPercent(relevant: number, crawled: number): string {
  return crawled === 0 ? "—" : `${((relevant / crawled) * 100).toFixed(1)}%`;
}
