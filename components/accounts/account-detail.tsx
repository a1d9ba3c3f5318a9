import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { CRON_PRESETS } from "@/lib/validation";
import { getAccountStatus } from "@/server/accounts";
import { PageHeader, Notice } from "../page-header";
import { AccountForm } from "./account-form";
import { describeCron } from "./account-table";
import { RunTable } from "../runs/run-table";
import { PlatformBadge } from "../platform-badge";
import { LiveCrawls } from "../auto-refresh";
import { Num, RelativeTime, Time } from "../time";
import { TableSkeleton } from "../skeletons";
import { readableUrl } from "../readable-url";
import { updateAccountAction } from "@/app/(dashboard)/accounts/actions";
import { cookieSummaryOf } from "@/server/account-access";
import { AccountCookies } from "./account-cookies";
import { AccountProxy } from "./account-proxy";
import { RobotsPolicyPanel } from "./robots-policy";
import { ConditionalRequests } from "./conditional-requests";
import { AdaptiveInterval } from "./adaptive-interval";
import { ScopeActivity } from "../charts/scope-activity";
import { structureNotice } from "@/app/(dashboard)/accounts/_lib/problems";

/** One account: status figures, its charts (`days`: their range, from `?days=`), the edit form and its recent crawl runs. */
export async function AccountDetail({ id, admin, saved, days }: { id: number; admin: boolean; saved?: boolean; days?: string }) {
  const a = await getAccountStatus(db, id);
  if (!a) notFound();
  const [t, ta, tr, ts] = await Promise.all([
    getTranslations("accounts.detail"),
    getTranslations("accounts"),
    getTranslations("accounts.presets"),
    getTranslations("accounts.structure"),
  ]);
  const structure = structureNotice(ts, a);
  return (
    <>
      <p className="crumbs">
        <Link href="/accounts">{ta("title")}</Link> / {a.name}
      </p>
      <PageHeader
        title={a.name}
        subtitle={
          <>
            <PlatformBadge platform={a.platform} /> {readableUrl(a.entryUrl)}
          </>
        }
      >
        <Link className="button secondary" href={`/posts?account=${a.id}`}>
          {t("posts")}
        </Link>
        <Link className="button secondary" href={`/?account=${a.id}`}>
          {t("flagged")}
        </Link>
      </PageHeader>
      {saved && <Notice>{t("saved")}</Notice>}
      <LiveCrawls />
      <div className="kv" style={{ marginBottom: 16 }}>
        <div>
          <b>{ta("status", { status: a.enabled ? a.status : "disabled" })}</b>
          {t("status")}
        </div>
        <div>
          <b>{describeCron(a.cron, tr)}</b>
          {t("interval")} <code className="cron">{a.cron}</code>
        </div>
        <div>
          <b>
            <Time date={a.lastRunAt} />
          </b>
          {t("lastRun")}
        </div>
        <div>
          <b>{a.nextRunAt ? <RelativeTime date={a.nextRunAt} /> : "—"}</b>
          {t("nextRun")}
        </div>
        <div>
          <b>
            <Num value={a.postCount} />
          </b>
          {t("postCount")}
        </div>
        <div>
          <b>
            <Num value={a.openFlags} />
          </b>
          {t("openFlags")}
        </div>
        <div>
          <b>{a.runs7d}</b>
          {t("runs7d")}
        </div>
        <div>
          <b>{a.errors7d}</b>
          {t("errors7d")}
          {a.blocks7d ? t("blocked", { count: a.blocks7d }) : null}
        </div>
      </div>
      {a.status === "relogin" && <Notice kind="error">{ta("login.expired")}</Notice>}
      {structure && <Notice kind="error">{structure}</Notice>}
      {a.lastError && !structure && <Notice kind="error">{t("lastError", { error: a.lastError })}</Notice>}
      <ScopeActivity scope={{ accountId: a.id }} days={days} basePath={`/accounts/${a.id}`} />
      {admin && (
        <section className="panel" aria-labelledby="edit-h">
          <h2 id="edit-h">{t("edit")}</h2>
          <AccountForm
            action={updateAccountAction}
            presets={CRON_PRESETS}
            submitLabel={t("saveChanges")}
            initial={{
              id: a.id,
              url: a.entryUrl,
              platform: a.platform,
              name: a.name,
              cron: a.cron,
              switches: {
                enabled: a.enabled,
                ocr: a.ocr,
                fetchMode: a.fetchMode,
                backfillDays: a.backfillDays,
                backfillPages: a.backfillPages,
                recheckDays: a.recheckDays,
                adaptive: a.adaptive,
                minIntervalS: a.minIntervalS,
                maxIntervalS: a.maxIntervalS,
              },
            }}
          />
        </section>
      )}
      <AccountCookies accountId={a.id} summary={cookieSummaryOf(a)} setAt={a.cookiesSetAt} admin={admin} />
      <AccountProxy accountId={a.id} display={a.proxyDisplay} admin={admin} />
      <RobotsPolicyPanel accountId={a.id} policy={a.robotsPolicy} setBy={a.robotsPolicySetBy} setAt={a.robotsPolicySetAt} admin={admin} />
      <AdaptiveInterval
        adaptive={a.adaptive}
        minIntervalS={a.minIntervalS}
        maxIntervalS={a.maxIntervalS}
        intervalS={a.adaptiveIntervalS}
        reason={a.adaptiveReason}
      />
      <ConditionalRequests json={a.listValidators} recheckDays={a.recheckDays} />
      <h2>{t("recentRuns")}</h2>
      <Suspense fallback={<TableSkeleton rows={5} />}>
        <RunTable filter={{ account: a.id }} take={20} hideAccount />
      </Suspense>
    </>
  );
}
