import { useTranslations } from "next-intl";
import { jsonList } from "@/lib/format";

const REASON_KINDS = ["classifier", "cosine", "sensitive", "keyword"] as const;
type ReasonKind = (typeof REASON_KINDS)[number];
const isReasonKind = (kind: string): kind is ReasonKind => (REASON_KINDS as readonly string[]).includes(kind);

const STATUSES = ["open", "confirmed", "dismissed"] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (status: string): status is Status => (STATUSES as readonly string[]).includes(status);

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

/** The score in a classifier/cosine reason ("naive Bayes P(on-topic) 0.930 ≥ 0.5" → "0.93"), or null. */
export function reasonScore(detail: string | undefined): string | null {
  if (!detail) return null;
  const m = /P\(on-topic\)\s*=?\s*(\d+(?:\.\d+)?)/.exec(detail) ?? /(\d+(?:\.\d+)?)/.exec(detail);
  return m ? Number(m[1]).toFixed(2) : null;
}

/** A reason's kind in the reader's language ("关键词", "keyword"); an unknown kind as stored. */
export function ReasonKindName({ kind }: { kind: string }) {
  const t = useTranslations("posts.reason");
  return <>{isReasonKind(kind) ? t(kind) : kind}</>;
}

/** Why a post was flagged, one badge per reason; the full explanation on hover. */
export function ReasonBadges({ reasons }: { reasons: string }) {
  const t = useTranslations("posts.reason");
  // Chinese shows the score with the label ("分类器 0.93"); English keeps the bare label.
  const ts = useTranslations("posts.reasonScored");
  const list = jsonList<{ kind: string; detail?: string }>(reasons);
  if (list.length === 0) return <span className="muted">—</span>;
  return (
    <span className="reasons">
      {list.map((r, i) => {
        const words = r.kind === "sensitive" || r.kind === "keyword" ? reasonWords(r.detail) : [];
        const value = r.kind === "classifier" || r.kind === "cosine" ? reasonScore(r.detail) : null;
        return (
          <span key={i} className={`badge reason-${r.kind}`} title={r.detail}>
            {(r.kind === "classifier" || r.kind === "cosine") && value ? ts(r.kind, { score: value }) : isReasonKind(r.kind) ? t(r.kind) : r.kind}
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

/** A flag's review status as a badge. */
export function FlagStatus({ status }: { status: string }) {
  const t = useTranslations("posts.status");
  return <span className={`badge status-${status}`}>{isStatus(status) ? t(status) : status}</span>;
}
