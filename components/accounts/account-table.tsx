import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { deletionImpacts, listAccountStatus, type AccountStatus } from "@/server/accounts";
import { CRON_PRESETS } from "@/lib/validation";
import { PlatformBadge } from "../platform-badge";
import { readableUrl } from "../readable-url";
import { Num, RelativeTime, Time } from "../time";
import { RunStatus } from "../runs/run-status";
import { AccountActions } from "./account-actions";
import { UNRECOGNISED } from "@/lib/account-problems";

/** A cron expression in words when it is a preset (`t`: a translator of `accounts.presets`). */
export function describeCron(cron: string, t: (key: (typeof CRON_PRESETS)[number]["key"]) => string): string {
  const preset = CRON_PRESETS.find((p) => p.cron === cron);
  return preset ? t(preset.key) : cron;
}

async function StatusBadge({ a }: { a: AccountStatus }) {
  const t = await getTranslations("accounts");
  if (!a.enabled) return <span className="badge">{t("status", { status: "disabled" })}</span>;
  if (a.status === "running") return <span className="badge info">{t("status", { status: "crawling" })}</span>;
  if (a.crawlRequestedAt) return <span className="badge info">{t("status", { status: "queued" })}</span>;
  if (a.status === "error")
    return (
      <span className="badge danger" title={a.lastError ?? ""}>
        {t("status", { status: "error" })}
      </span>
    );
  // The login cookies expired (需要重新登录): a warning, not a failure of the site.
  if (a.status === "relogin")
    return (
      <span className="badge warn" title={t("login.badgeTitle")}>
        {t("status", { status: "relogin" })}
      </span>
    );
  // 页面结构无法识别: two runs in a row read nothing from a page they recognised.
  if (a.status === UNRECOGNISED)
    return (
      <span className="badge warn" title={t("structure.badgeTitle")}>
        {t("status", { status: UNRECOGNISED })}
      </span>
    );
  if (a.status === "blocked")
    return (
      <span className="badge danger" title={a.lastError ?? ""}>
        {t("status", { status: "blocked" })}
      </span>
    );
  return <span className="badge ok">{t("status", { status: "active" })}</span>;
}

/** Every account with its schedule, status and counts; admins get the actions. */
export async function AccountTable({ admin }: { admin: boolean }) {
  const accounts = await listAccountStatus(db);
  const [t, tp] = await Promise.all([getTranslations("accounts.table"), getTranslations("accounts.presets")]);
  if (accounts.length === 0) {
    return <div className="panel empty">{admin ? t("emptyAdmin") : t("emptyReader")}</div>;
  }
  const impacts = admin
    ? await deletionImpacts(
        db,
        accounts.map((a) => a.id),
      )
    : undefined;
  const now = new Date();
  return (
    <div className="table-wrap">
      <table className="data" data-testid="account-table">
        <thead>
          <tr>
            <th>{t("account")}</th>
            <th>{t("platform")}</th>
            <th>{t("interval")}</th>
            <th>{t("status")}</th>
            <th>{t("lastRun")}</th>
            <th>{t("nextRun")}</th>
            <th className="num">{t("posts")}</th>
            <th className="num">{t("openFlags")}</th>
            <th className="num" title={t("errors7dTitle")}>
              {t("errors7d")}
            </th>
            {admin && <th>{t("actions")}</th>}
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr key={a.id} data-testid={`account-${a.id}`}>
              <td>
                <Link href={`/accounts/${a.id}`} className="post-title">
                  {a.name}
                </Link>
                <div className="muted small" style={{ wordBreak: "break-all" }}>
                  {readableUrl(a.entryUrl)}
                </div>
              </td>
              <td>
                <PlatformBadge platform={a.platform} />
              </td>
              <td className="interval">
                {describeCron(a.cron, tp)}
                {describeCron(a.cron, tp) !== a.cron && (
                  <div>
                    <code className="cron">{a.cron}</code>
                  </div>
                )}
              </td>
              <td>
                <StatusBadge a={a} />
                {/* Not for 页面结构无法识别: its lastError is the machine form the account page says in the reader's language. */}
                {a.lastError && a.enabled && a.status !== "idle" && a.status !== UNRECOGNISED && (
                  <div className="field-error small">{a.lastError.slice(0, 80)}</div>
                )}
              </td>
              <td className="nowrap">
                {a.lastRun ? (
                  <>
                    <Link href={`/runs/${a.lastRun.id}`}>
                      <Time date={a.lastRunAt} />
                    </Link>{" "}
                    <RunStatus status={a.lastRun.status} />
                  </>
                ) : (
                  <span className="muted">{t("never")}</span>
                )}
              </td>
              <td className="nowrap">{a.nextRunAt ? <RelativeTime date={a.nextRunAt} now={now} /> : <span className="muted">—</span>}</td>
              <td className="num">
                <Link href={`/posts?account=${a.id}`}>
                  <Num value={a.postCount} />
                </Link>
              </td>
              <td className="num">
                {a.openFlags ? (
                  <Link href={`/?account=${a.id}&review=open`}>
                    <Num value={a.openFlags} />
                  </Link>
                ) : (
                  0
                )}
              </td>
              <td className={`num${a.errors7d ? " error-count" : ""}`}>
                {a.errors7d}
                {a.blocks7d > 0 && <div className="muted small">{t("blocked", { count: a.blocks7d })}</div>}
              </td>
              {admin && (
                <td>
                  <AccountActions
                    id={a.id}
                    name={a.name}
                    enabled={a.enabled}
                    queued={Boolean(a.crawlRequestedAt)}
                    running={a.status === "running"}
                    impact={impacts!.get(a.id)!}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
