import Link from "next/link";
import { useTranslations } from "next-intl";
import type { IncidentDetail } from "@/server/incidents";
import { Time } from "../time";

type Action = IncidentDetail["actions"][number];
const KINDS = ["merge", "split", "rename", "handle", "reopen", "dismiss"] as const;

/** The reviewer's actions on an incident, newest first: who, what (with links to the other incident), when, and the note. */
export function IncidentHistory({ actions }: { actions: readonly Action[] }) {
  const t = useTranslations("incidents.detail");
  if (actions.length === 0) return <p className="muted">{t("noHistory")}</p>;
  return (
    <ol className="incident-history" data-testid="incident-history">
      {actions.map((a) => (
        <HistoryItem key={a.id} a={a} />
      ))}
    </ol>
  );
}

function HistoryItem({ a }: { a: Action }) {
  const t = useTranslations("incidents.history");
  const td = useTranslations("incidents.detail");
  const d = a.detail;
  const link = (id: number | string | undefined) => {
    const LinkTo = (chunks: React.ReactNode) => (typeof id === "number" ? <Link href={`/incidents/${id}`}>{chunks}</Link> : <>{chunks}</>);
    return LinkTo;
  };
  const count = d.postIds?.length ?? 0;
  let what: React.ReactNode;
  if (a.kind === "merge")
    what = t.rich("merge", {
      from: String(d.from ?? ""),
      into: String(d.into ?? ""),
      fromTitle: d.fromTitle ?? "",
      count,
      fromLink: link(d.from),
      intoLink: link(d.into),
    });
  else if (a.kind === "split")
    what = t.rich("split", { from: String(d.from ?? ""), into: String(d.into ?? ""), count, fromLink: link(d.from), intoLink: link(d.into) });
  else if (a.kind === "rename") what = t("rename", { oldTitle: d.oldTitle ?? "", newTitle: d.newTitle ?? "" });
  else if ((KINDS as readonly string[]).includes(a.kind)) what = t(a.kind as "handle" | "reopen" | "dismiss");
  else what = t("other", { kind: a.kind });
  return (
    <li data-testid="history-item" data-kind={a.kind}>
      <div>{what}</div>
      <div className="muted small">
        <Time date={a.createdAt} withYear /> · {t("by", { user: a.user ?? td("byCli") })}
      </div>
      {a.note && <div className="small">{t("note", { note: a.note })}</div>}
    </li>
  );
}
