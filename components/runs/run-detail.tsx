import { maskUrlsIn } from "@/lib/mask";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { DISPLAY_TIME_ZONE } from "@/i18n/config";
import { db } from "@/lib/db";
import { getRun } from "@/server/runs";
import { PageHeader } from "../page-header";
import { PlatformBadge } from "../platform-badge";
import { RunStatus } from "./run-status";
import { LiveCrawls } from "../auto-refresh";
import { Duration, Num, Time } from "../time";
import { RunWarnings } from "./run-warnings";

/** One crawl run: pages by kind, posts, blocks, errors, unreadable fields and the notifications it sent. */
export async function RunDetail({ id }: { id: number }) {
  const run = await getRun(db, id);
  if (!run) notFound();
  const [t, tr, format, ta] = await Promise.all([getTranslations("runs.detail"), getTranslations("runs"), getFormatter(), getTranslations("accounts.robots")]);
  const n = (x: number) => <Num value={x} />;
  return (
    <>
      <p className="crumbs">
        <Link href="/runs">{tr("title")}</Link> / #{run.id}
      </p>
      <PageHeader
        title={t("heading", { id: String(run.id) })}
        subtitle={
          <>
            <PlatformBadge platform={run.account.platform} /> <Link href={`/accounts/${run.account.id}`}>{run.account.name}</Link> ·{" "}
            {tr("trigger", { trigger: run.trigger })} · {t("started")} <Time date={run.startedAt} withYear /> · <RunStatus status={run.status} />
          </>
        }
      />
      {run.status === "running" && <LiveCrawls intervalMs={1500} />}
      <div className="two-col">
        <section className="panel">
          <h2>{t("pages")}</h2>
          <div className="kv">
            <div>
              <b>{n(run.pagesList)}</b>
              {t("listPages")}
            </div>
            <div>
              <b>{n(run.pagesItem)}</b>
              {t("itemPages")}
            </div>
            <div>
              <b>{n(run.pagesOther)}</b>
              {t("otherPages")}
            </div>
            <div>
              <b>{n(run.browserPages)}</b>
              {t("browserPages")}
            </div>
            <div>
              <b>{t("kib", { kib: format.number(run.bytes / 1024, { maximumFractionDigits: 0, useGrouping: false }) })}</b>
              {t("downloaded")}
            </div>
            <div>
              <b>{format.number(run.pagesPerMinute, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false })}</b>
              {t("pagesPerMinute")}
            </div>
            <div>
              <b>
                <Duration seconds={run.seconds} />
              </b>
              {run.finishedAt ? t("duration") : t("soFar")}
            </div>
          </div>
        </section>
        <section className="panel">
          <h2>{t("posts")}</h2>
          <div className="kv">
            <div>
              <b>{n(run.newPosts)}</b>
              {t("new")}
            </div>
            <div>
              <b>{n(run.changedPosts)}</b>
              {t("changed")}
            </div>
            <div>
              <b>{n(run.unchangedPosts)}</b>
              {t("unchanged")}
            </div>
            <div>
              <b className={run.blocks ? "error-count" : undefined}>{n(run.blocks)}</b>
              {t("blocks")}
            </div>
            <div>
              <b className={run.errorCount ? "error-count" : undefined}>{n(run.errorCount)}</b>
              {t("errors")}
            </div>
            <div>
              <b data-testid="run-warning-count">{n(run.warningCount)}</b>
              {t("warnings")}
            </div>
          </div>
          {run.newPosts + run.changedPosts > 0 && (
            <p className="small">
              <Link href={`/posts?account=${run.account.id}`}>{t("seePosts")}</Link>
            </p>
          )}
        </section>
      </div>
      <section className="panel">
        <h2>{t("errorsHeading", { count: run.errorList.length })}</h2>
        {run.errorList.length === 0 ? (
          <p className="muted">{t("noErrors")}</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>{t("time")}</th>
                <th>{t("kind")}</th>
                <th>{t("reason")}</th>
                <th>{t("url")}</th>
              </tr>
            </thead>
            <tbody>
              {run.errorList.map((e, i) => (
                <tr key={i}>
                  <td className="nowrap">{e.at ? <Time date={new Date(e.at)} withYear /> : "—"}</td>
                  <td>
                    <span className={`badge ${e.kind === "BlockedError" ? "danger" : "warn"}`}>{e.kind}</span>
                  </td>
                  <td>{e.reason}</td>
                  <td className="small" style={{ wordBreak: "break-all" }}>
                    {e.url}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <RunWarnings run={run} />
      {run.note && <p className="muted">{t("note", { note: run.note })}</p>}
      {run.robotsPolicy === "ignore" && (
        <p className="notice" data-testid="run-robots">
          {ta("runIgnored", {
            user: run.robotsPolicySetBy ?? "?",
            date: run.robotsPolicySetAt
              ? format.dateTime(run.robotsPolicySetAt, { dateStyle: "medium", timeStyle: "short", timeZone: DISPLAY_TIME_ZONE })
              : "?",
          })}
        </p>
      )}
      <section className="panel">
        <h2>{t("notificationsHeading", { count: run.notifications.length })}</h2>
        {run.notifications.length === 0 ? (
          <p className="muted">{t("noNotifications")}</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>{t("topic")}</th>
                <th>{t("channel")}</th>
                <th>{t("target")}</th>
                <th>{t("status")}</th>
                <th className="num">{t("attempts")}</th>
                <th>{t("lastError")}</th>
              </tr>
            </thead>
            <tbody>
              {run.notifications.map((x) => (
                <tr key={x.id}>
                  <td>{x.topic.name}</td>
                  <td>{x.channel}</td>
                  {/* Stored masked (lib/notify); masked again for rows an older version wrote whole, before `db migrate`. */}
                  <td className="small">{maskUrlsIn(x.target)}</td>
                  <td>
                    <span className={`badge ${x.status === "sent" ? "ok" : x.status === "failed" ? "danger" : "info"}`}>
                      {t("notificationStatus", { status: x.status })}
                    </span>
                  </td>
                  <td className="num">{x.attempts}</td>
                  <td className="small">{x.lastError}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
