import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requirePermission } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { AUDIT_KINDS, auditChoices, listAudit } from "@/lib/audit";
import { parseAuditParams } from "@/server/audit";
import { PageHeader, Notice } from "@/components/page-header";
import { FilterSelect } from "@/components/filter-select";
import { AuditValues } from "@/components/audit/audit-values";
import { Time } from "@/components/time";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 100;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

/** 审计日志: every change with who, when, what, before and after; filters and CSV export. Admins only; read only. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("view-audit");
  const sp = await searchParams;
  const { filter, beforeId, badDay } = parseAuditParams(sp);
  const [t, rows, choices] = await Promise.all([getTranslations("audit"), listAudit(db, filter, { take: PAGE_SIZE + 1, beforeId }), auditChoices(db)]);
  const shown = rows.slice(0, PAGE_SIZE);
  const kinds = [...new Set<string>([...AUDIT_KINDS, ...choices.kinds])];
  const kindLabel = (k: string) => ((AUDIT_KINDS as readonly string[]).includes(k) ? t(`kinds.${k as (typeof AUDIT_KINDS)[number]}`) : k);
  const query = new URLSearchParams();
  for (const k of ["actor", "kind", "since", "until"]) {
    const v = sp[k];
    if (typeof v === "string" && v) query.set(k, v);
  }
  const more = new URLSearchParams(query);
  if (rows.length > PAGE_SIZE) more.set("before", String(shown.at(-1)!.id));
  const str = (k: string) => (typeof sp[k] === "string" ? sp[k] : "");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")}>
        <a className="button secondary" href={`/api/audit/export?${query}`} download>
          {t("filters.export")}
        </a>
      </PageHeader>
      {badDay && <Notice kind="error">{t("invalidDay")}</Notice>}
      <form className="filters panel" method="get" action="/audit" aria-label={t("filters.label")}>
        <FilterSelect
          id="a-actor"
          name="actor"
          label={t("filters.actor")}
          value={str("actor")}
          anyLabel={t("filters.anyActor")}
          options={choices.actors.map((a) => ({ value: a, label: a === "cli" ? t("table.cli") : a }))}
        />
        <FilterSelect
          id="a-kind"
          name="kind"
          label={t("filters.kind")}
          value={str("kind")}
          anyLabel={t("filters.anyKind")}
          options={kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
        />
        <div className="filter-field">
          <label htmlFor="a-since">{t("filters.since")}</label>
          <input id="a-since" name="since" type="date" defaultValue={str("since")} />
        </div>
        <div className="filter-field">
          <label htmlFor="a-until">{t("filters.until")}</label>
          <input id="a-until" name="until" type="date" defaultValue={str("until")} />
        </div>
        <div className="filter-actions">
          <button type="submit">{t("filters.apply")}</button>
          <Link className="button secondary" href="/audit">
            {t("filters.reset")}
          </Link>
        </div>
      </form>
      {shown.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="audit-table">
            <thead>
              <tr>
                <th>{t("table.time")}</th>
                <th>{t("table.actor")}</th>
                <th>{t("table.kind")}</th>
                <th>{t("table.action")}</th>
                <th>{t("table.target")}</th>
                <th>{t("table.before")}</th>
                <th>{t("table.after")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.id} data-kind={e.kind}>
                  <td>
                    <Time date={e.createdAt} />
                  </td>
                  <td>{e.userId === null && e.actor === "cli" ? t("table.cli") : e.actor}</td>
                  <td>{kindLabel(e.kind)}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    {e.target}
                    {e.targetId ? <span className="muted"> #{e.targetId}</span> : null}
                    {e.note ? <div className="muted">{e.note}</div> : null}
                  </td>
                  <td>
                    <AuditValues values={e.before} />
                  </td>
                  <td>
                    <AuditValues values={e.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        {beforeId ? (
          <Link className="button secondary" href={`/audit?${query}`}>
            {t("newest")}
          </Link>
        ) : null}{" "}
        {rows.length > PAGE_SIZE ? (
          <Link className="button secondary" href={`/audit?${more}`}>
            {t("more")}
          </Link>
        ) : null}
      </p>
    </>
  );
}
