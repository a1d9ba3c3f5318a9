import { getTranslations } from "next-intl/server";
import { requirePermission } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { reportScheduleFromEnv, reportTimeText, type ReportSchedule } from "@/lib/report-schedule";
import { defaultReportDay, reportTopicChoices } from "@/server/reports";
import { PageHeader } from "@/components/page-header";
import { FilterSelect } from "@/components/filter-select";

export async function generateMetadata() {
  const t = await getTranslations("reports.page");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

/** The settings as the scheduler will read them; null when none are set or they cannot be used (the scheduler refuses those at start). */
function schedule(): ReportSchedule | null {
  try {
    return reportScheduleFromEnv();
  } catch {
    return null;
  }
}

/**
 * Reports (日报/周报): choose a period, a last day and a topic, and download the PDF or open the
 * page (GET /api/reports, which checks the user again); and when reports are e-mailed.
 */
export default async function ReportsPage() {
  await requirePermission("export");
  const t = await getTranslations("reports.page");
  const topics = await reportTopicChoices(db);
  const s = schedule();
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("intro")} />
      <form className="filters panel" method="get" action="/api/reports" aria-label={t("title")}>
        <div className="filter-field">
          <label htmlFor="rp-period">{t("period")}</label>
          <select id="rp-period" name="period" defaultValue="day">
            <option value="day">{t("day")}</option>
            <option value="week">{t("week")}</option>
          </select>
        </div>
        <div className="filter-field">
          <label htmlFor="rp-date">{t("date")}</label>
          <input id="rp-date" name="date" type="date" required defaultValue={defaultReportDay()} />
        </div>
        <FilterSelect
          id="rp-topic"
          name="topic"
          label={t("topic")}
          value={undefined}
          anyLabel={t("allTopics")}
          options={topics.map((x) => ({ value: x.id, label: x.name }))}
        />
        <div className="filter-actions">
          <button type="submit" name="format" value="pdf">
            {t("download")}
          </button>
          <button type="submit" name="format" value="html" className="secondary" formTarget="_blank">
            {t("preview")}
          </button>
        </div>
      </form>
      <section className="panel" aria-labelledby="rp-schedule">
        <h2 id="rp-schedule">{t("schedule")}</h2>
        <p className="muted">
          {s && (s.daily || s.weekly)
            ? t("scheduleOn", {
                daily: s.daily ? reportTimeText(s.daily) : "—",
                weekly: s.weekly ? reportTimeText(s.weekly) : "—",
                to: s.recipients.join(", "),
              })
            : t("scheduleOff")}
        </p>
      </section>
    </>
  );
}
