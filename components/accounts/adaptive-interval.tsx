import { getTranslations } from "next-intl/server";
import { Duration } from "../time";

/** The stored reason of the last adaptive choice (crawler/adaptive-interval.ts IntervalReason), or null when unreadable. */
function reasonOf(json: string | null): { code: string; values: Record<string, number> } | null {
  if (!json) return null;
  try {
    const r = JSON.parse(json) as { code?: unknown; values?: unknown };
    if (typeof r.code !== "string" || typeof r.values !== "object" || r.values === null) return null;
    return { code: r.code, values: r.values as Record<string, number> };
  } catch {
    return null;
  }
}

/**
 * An account's interval when it is adaptive: the interval the scheduler chose last and why, within
 * the account's bounds; for a fixed account, that its cron alone decides and how to change that.
 */
export async function AdaptiveInterval(props: {
  adaptive: boolean;
  minIntervalS: number | null;
  maxIntervalS: number | null;
  intervalS: number | null;
  reason: string | null;
}) {
  const t = await getTranslations("accounts.adaptive");
  const reason = reasonOf(props.reason);
  const known = reason && ["hotThread", "hotIncident", "quiet", "rate"].includes(reason.code);
  return (
    <section className="panel" aria-labelledby="adaptive-h" data-testid="adaptive-interval">
      <h2 id="adaptive-h">{t("title")}</h2>
      {!props.adaptive || props.minIntervalS === null || props.maxIntervalS === null ? (
        <p className="help">{t("fixed")}</p>
      ) : (
        <>
          <p>
            {t("current")}: <b>{props.intervalS !== null ? <Duration seconds={props.intervalS} /> : t("notYet")}</b> · {t("bounds")}:{" "}
            <Duration seconds={props.minIntervalS} /> – <Duration seconds={props.maxIntervalS} />
          </p>
          {reason && known && (
            <p className="help">
              {t(`reasons.${reason.code as "hotThread" | "hotIncident" | "quiet" | "rate"}`, {
                items: reason.values.items ?? 0,
                days: reason.values.days ?? 0,
                perDay: reason.values.perDay ?? 0,
                baseMinutes: Math.round((reason.values.baseS ?? 0) / 60),
              })}
            </p>
          )}
          <p className="help">{t("how")}</p>
        </>
      )}
    </section>
  );
}
