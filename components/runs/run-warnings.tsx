import { getTranslations } from "next-intl/server";
import type { RunDetail } from "@/server/runs";
import { Time } from "../time";

/**
 * The fields a crawl could not read while it still stored their items (a date, an author, a
 * body), each with the URL it was read from and the raw text. The raw text is crawled, so
 * hostile: React renders it as text (never as HTML).
 */
export async function RunWarnings({ run }: { run: RunDetail }) {
  const t = await getTranslations("runs.detail");
  const list = run.warningList;
  return (
    <section className="panel" aria-labelledby="warnings-h" data-testid="run-warnings">
      <h2 id="warnings-h">{t("warningsHeading", { count: run.warningCount })}</h2>
      {list.length === 0 ? (
        <p className="muted">{t("noWarnings")}</p>
      ) : (
        <>
          <p className="muted small">{t("warningsIntro")}</p>
          <table className="data">
            <thead>
              <tr>
                <th>{t("time")}</th>
                <th>{t("field")}</th>
                <th>{t("raw")}</th>
                <th>{t("usedInstead")}</th>
                <th>{t("url")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((w, i) => (
                <tr key={i}>
                  <td className="nowrap">{w.at ? <Time date={new Date(w.at)} withYear /> : "—"}</td>
                  <td>
                    <span className="badge warn">{w.field ? t("warningField", { field: w.field }) : "—"}</span>
                  </td>
                  <td className="warning-raw">{w.raw}</td>
                  <td>{w.reason}</td>
                  <td className="small" style={{ wordBreak: "break-all" }}>
                    {w.url}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {run.warningCount > list.length && <p className="muted small">{t("warningsCut", { shown: list.length, count: run.warningCount })}</p>}
        </>
      )}
    </section>
  );
}
