import { getTranslations } from "next-intl/server";

/** How a value reads: the secret markers in the reader's language, lists joined, the rest as text (React escapes it). */
function show(v: unknown, t: (k: "set" | "cleared" | "replaced" | "none") => string): string {
  if (v === "set" || v === "cleared" || v === "replaced") return t(v);
  if (v === null || v === undefined || v === "") return t("none");
  if (Array.isArray(v)) return v.map((x) => show(x, t)).join(", ") || t("none");
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** An audit entry's before or after values, one `key: value` line each. */
export async function AuditValues({ values }: { values: Record<string, unknown> }) {
  const t = await getTranslations("audit.values");
  const entries = Object.entries(values);
  if (entries.length === 0) return <span className="muted">{t("none")}</span>;
  return (
    <dl className="audit-values" style={{ margin: 0 }}>
      {entries.map(([k, v]) => (
        <div key={k} style={{ display: "flex", gap: 6 }}>
          <dt className="muted">{k}</dt>
          <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{show(v, t)}</dd>
        </div>
      ))}
    </dl>
  );
}
