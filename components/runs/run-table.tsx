import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { listRunsPage, type RunFilter } from "@/server/runs";
import { PlatformBadge } from "../platform-badge";
import { Duration, Time } from "../time";
import { RunStatus } from "./run-status";

export { RUN_CLASS } from "./run-status";

/** Crawl runs, newest first, with a link to older ones. */
export async function RunTable({ filter, take = 50, hideAccount = false }: { filter: RunFilter; take?: number; hideAccount?: boolean }) {
  const { rows, next } = await listRunsPage(db, filter, take);
  const [t, tr] = await Promise.all([getTranslations("runs.table"), getTranslations("runs")]);
  if (rows.length === 0) return <div className="panel empty">{filter.status || filter.account ? t("emptyFiltered") : t("empty")}</div>;
  const older = new URLSearchParams();
  if (filter.account) older.set("account", String(filter.account));
  if (filter.status) older.set("status", filter.status);
  if (next) older.set("before", String(next));
  return (
    <>
      <div className="table-wrap">
        <table className="data" data-testid="run-table">
          <thead>
            <tr>
              <th>#</th>
              {!hideAccount && <th>{t("account")}</th>}
              <th>{t("started")}</th>
              <th>{t("trigger")}</th>
              <th>{t("status")}</th>
              <th className="num">{t("listPages")}</th>
              <th className="num">{t("itemPages")}</th>
              <th className="num">{t("new")}</th>
              <th className="num">{t("changed")}</th>
              <th className="num">{t("unchanged")}</th>
              <th className="num">{t("blocks")}</th>
              <th className="num">{t("errors")}</th>
              <th className="num" title={t("warningsTitle")}>
                {t("warnings")}
              </th>
              <th className="num">{t("duration")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/runs/${r.id}`}>#{r.id}</Link>
                </td>
                {!hideAccount && (
                  <td className="nowrap">
                    <PlatformBadge platform={r.account.platform} short /> <Link href={`/accounts/${r.account.id}`}>{r.account.name}</Link>
                  </td>
                )}
                <td className="nowrap">
                  <Time date={r.startedAt} />
                </td>
                <td>{tr("trigger", { trigger: r.trigger })}</td>
                <td>
                  <RunStatus status={r.status} />
                </td>
                <td className="num">{r.pagesList}</td>
                <td className="num">{r.pagesItem}</td>
                <td className="num">{r.newPosts}</td>
                <td className="num">{r.changedPosts}</td>
                <td className="num">{r.unchangedPosts}</td>
                <td className={`num${r.blocks ? " error-count" : ""}`}>{r.blocks}</td>
                <td className={`num${r.errorCount ? " error-count" : ""}`}>{r.errorCount}</td>
                <td className="num" data-testid={`run-warnings-${r.id}`}>
                  {r.warningCount ? <Link href={`/runs/${r.id}#warnings-h`}>{r.warningCount}</Link> : r.warningCount}
                </td>
                <td className="num">{r.finishedAt ? <Duration seconds={(r.finishedAt.getTime() - r.startedAt.getTime()) / 1000} /> : "…"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next && (
        <nav className="pager" aria-label={t("pages")}>
          <span />
          <Link href={`/runs?${older}`}>{t("older")}</Link>
        </nav>
      )}
    </>
  );
}
