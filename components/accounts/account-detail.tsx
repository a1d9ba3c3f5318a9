import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { db } from "@/lib/db";
import { CRON_PRESETS } from "@/lib/validation";
import { getAccountStatus } from "@/lib/queries/accounts";
import { PageHeader, Notice } from "../page-header";
import { AccountForm } from "./account-form";
import { describeCron } from "./account-table";
import { RunTable } from "../runs/run-table";
import { PlatformBadge } from "../platform-badge";
import { LiveCrawls } from "../auto-refresh";
import { RelativeTime, Time } from "../time";
import { TableSkeleton } from "../skeletons";
import { readableUrl } from "../readable-url";
import { updateAccountAction } from "@/app/(dashboard)/accounts/actions";

/** One account: status figures, the edit form and its recent crawl runs. */
export async function AccountDetail({ id, admin, saved }: { id: number; admin: boolean; saved?: boolean }) {
  const a = await getAccountStatus(db, id);
  if (!a) notFound();
  return (
    <>
      <p className="crumbs">
        <Link href="/accounts">Accounts</Link> / {a.name}
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
          Posts
        </Link>
        <Link className="button secondary" href={`/?account=${a.id}`}>
          Flagged
        </Link>
      </PageHeader>
      {saved && <Notice>Saved. The scheduler applies a new interval within seconds.</Notice>}
      <LiveCrawls />
      <div className="kv" style={{ marginBottom: 16 }}>
        <div>
          <b>{a.enabled ? a.status : "disabled"}</b>status
        </div>
        <div>
          <b>{describeCron(a.cron)}</b>interval <code className="cron">{a.cron}</code>
        </div>
        <div>
          <b>
            <Time date={a.lastRunAt} />
          </b>
          last run
        </div>
        <div>
          <b>{a.nextRunAt ? <RelativeTime date={a.nextRunAt} /> : "—"}</b>next run
        </div>
        <div>
          <b>{a.postCount.toLocaleString("en-US")}</b>posts and replies
        </div>
        <div>
          <b>{a.openFlags.toLocaleString("en-US")}</b>open flags
        </div>
        <div>
          <b>{a.runs7d}</b>runs in 7 days
        </div>
        <div>
          <b>{a.errors7d}</b>errors in 7 days{a.blocks7d ? ` · ${a.blocks7d} blocked` : ""}
        </div>
      </div>
      {a.lastError && <Notice kind="error">Last error: {a.lastError}</Notice>}
      {admin && (
        <section className="panel" aria-labelledby="edit-h">
          <h2 id="edit-h">Edit</h2>
          <AccountForm action={updateAccountAction} presets={CRON_PRESETS} submitLabel="Save changes" initial={{ id: a.id, url: a.entryUrl, platform: a.platform, name: a.name, cron: a.cron }} />
        </section>
      )}
      <h2>Recent crawl runs</h2>
      <Suspense fallback={<TableSkeleton rows={5} />}>
        <RunTable filter={{ account: a.id }} take={20} hideAccount />
      </Suspense>
    </>
  );
}
