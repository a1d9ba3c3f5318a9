import { getTranslations } from "next-intl/server";
import { parseListValidators } from "@/crawler/fetch";
import { Time } from "../time";

/**
 * What the account keeps for conditional list requests (crawler/fetch/conditional.ts): the list
 * head's ETag / Last-Modified from the last complete crawl, and how often a crawl ended on a 304.
 * The values come from the crawled site: shown as text only.
 */
export async function ConditionalRequests({ json, recheckDays }: { json: string | null; recheckDays: number }) {
  const t = await getTranslations("accounts.conditional");
  const v = parseListValidators(json);
  const urls = Object.entries(v.urls);
  return (
    <section className="panel" aria-labelledby="conditional-h" data-testid="conditional-requests">
      <h2 id="conditional-h">{t("title")}</h2>
      {recheckDays > 0 ? (
        <p className="help">{t("off")}</p>
      ) : urls.length === 0 ? (
        <p className="help">{t("none")}</p>
      ) : (
        <p className="help">
          {t("kept")} {t("savedAt")} <Time date={v.savedAt ? new Date(v.savedAt) : null} withYear />
        </p>
      )}
      {urls.length > 0 && (
        <dl className="kv-list">
          {urls.map(([url, u]) => (
            <div key={url}>
              <dt>
                <code className="break">{url}</code>
              </dt>
              {u.etag && (
                <dd>
                  {t("etag")}: <code className="break">{u.etag}</code>
                </dd>
              )}
              {u.lastModified && (
                <dd>
                  {t("lastModified")}: <code>{u.lastModified}</code>
                </dd>
              )}
            </div>
          ))}
        </dl>
      )}
      <p>
        {t("notModified")}: <b>{t("notModifiedValue", { total: v.notModifiedTotal, runs: v.notModifiedRuns })}</b> · {t("lastNotModified")}:{" "}
        {v.notModifiedAt ? <Time date={new Date(v.notModifiedAt)} withYear /> : t("never")}
      </p>
    </section>
  );
}
