import { jsonList } from "@/lib/format";

const REASON_LABEL: Record<string, string> = {
  classifier: "classifier",
  cosine: "relevance",
  sensitive: "sensitive",
  keyword: "keyword",
};

/** "作弊 @12–14, 替考 @30–32" → ["作弊", "替考"]. */
export function reasonWords(detail: string | undefined): string[] {
  if (!detail) return [];
  return [
    ...new Set(
      detail
        .split(/[,，]\s*/)
        .map((s) => s.replace(/\s*@\d+[–-]\d+$/, "").trim())
        .filter(Boolean),
    ),
  ];
}

/** Why a post was flagged, one badge per reason; the full explanation on hover. */
export function ReasonBadges({ reasons }: { reasons: string }) {
  const list = jsonList<{ kind: string; detail?: string }>(reasons);
  if (list.length === 0) return <span className="muted">—</span>;
  return (
    <span className="reasons">
      {list.map((r, i) => {
        const words = r.kind === "sensitive" || r.kind === "keyword" ? reasonWords(r.detail) : [];
        return (
          <span key={i} className={`badge reason-${r.kind}`} title={r.detail}>
            {REASON_LABEL[r.kind] ?? r.kind}
            {words.length > 0 && <b> {words.slice(0, 3).join("、")}</b>}
          </span>
        );
      })}
    </span>
  );
}

/** A score 0–1 as two decimals (or "—" when the topic has no model yet). */
export function score(n: number): string {
  return n > 0 ? n.toFixed(2) : "—";
}

const STATUS_LABEL: Record<string, string> = { open: "unreviewed", confirmed: "confirmed", dismissed: "dismissed" };

/** A flag's review status as a badge. */
export function FlagStatus({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{STATUS_LABEL[status] ?? status}</span>;
}
