import Link from "next/link";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { PLATFORMS } from "@/lib/platforms";
import { filterOptions } from "@/server/overview";
import { INCIDENT_STATES, NEGATIVE_SHARES, incidentFilterParams, listIncidents, type IncidentFilter, type IncidentRow } from "@/server/incidents";
import { FilterSelect } from "../filter-select";
import { PlatformBadge } from "../platform-badge";
import { Time } from "../time";
import { Sparkline } from "./sparkline";
import { IncidentStatus, heatText } from "./status-badge";

/** The list's filters: a GET form, so a filtered view is a URL that can be bookmarked and shared. */
export async function IncidentFilterBar({ filter }: { filter: IncidentFilter }) {
  const [{ topics }, t, tp, ts] = await Promise.all([
    filterOptions(db),
    getTranslations("incidents.list"),
    getTranslations("platforms"),
    getTranslations("incidents.status"),
  ]);
  const status = filter.states.length === INCIDENT_STATES.length ? "all" : filter.states.length === 1 ? filter.states[0] : "";
  return (
    <form className="filters panel" method="get" action="/incidents" role="search" aria-label={t("filterLabel")}>
      <div className="filter-field">
        <label htmlFor="i-status">{t("status")}</label>
        <select id="i-status" name="status" defaultValue={status}>
          <option value="">{t("statusDefault")}</option>
          {INCIDENT_STATES.map((s) => (
            <option key={s} value={s}>
              {ts(s)}
            </option>
          ))}
          <option value="all">{t("statusAll")}</option>
        </select>
      </div>
      <FilterSelect
        id="i-topic"
        name="topic"
        label={t("topic")}
        value={filter.topicId}
        anyLabel={t("allTopics")}
        options={topics.map((topic) => ({ value: topic.id, label: topic.name }))}
      />
      <FilterSelect
        id="i-platform"
        name="platform"
        label={t("platform")}
        value={filter.platform}
        anyLabel={t("allPlatforms")}
        options={PLATFORMS.map((p) => ({ value: p, label: tp(`${p}.name`) }))}
      />
      <FilterSelect
        id="i-neg"
        name="neg"
        label={t("negative")}
        value={filter.negativeShare}
        anyLabel={t("anyNegative")}
        options={NEGATIVE_SHARES.map((pct) => ({ value: pct, label: t("negativeShare", { pct }) }))}
      />
      <FilterSelect
        id="i-since"
        name="since"
        label={t("since")}
        value={filter.window}
        anyLabel={t("anyTime")}
        options={[
          { value: "24h", label: t("since24h") },
          { value: "7d", label: t("since7d") },
          { value: "30d", label: t("since30d") },
        ]}
      />
      <div className="filter-actions">
        <button type="submit">{t("apply")}</button>
        <Link href="/incidents">{t("reset")}</Link>
      </div>
    </form>
  );
}

/** One page of incidents, hottest first, with their trend, platforms, reach, dates, flags and status. */
export async function IncidentList({ filter }: { filter: IncidentFilter }) {
  const [{ rows, total, pages }, t] = await Promise.all([listIncidents(db, filter), getTranslations("incidents.list")]);
  if (rows.length === 0) {
    return (
      <div className="panel empty" data-testid="incident-list-empty">
        {t("empty")}
      </div>
    );
  }
  const params = incidentFilterParams(filter);
  const pageLink = (page: number) => {
    const sp = new URLSearchParams(params);
    if (page > 1) sp.set("page", String(page));
    return `/incidents${sp.size ? `?${sp}` : ""}`;
  };
  return (
    <>
      <p className="muted small" data-testid="incident-total">
        {t("total", { count: total })}
      </p>
      <div className="table-wrap">
        <table className="data incidents" data-testid="incident-table">
          <thead>
            <tr>
              <th className="num">{t("heat")}</th>
              <th>{t("incident")}</th>
              <th>{t("trend")}</th>
              <th>{t("platforms")}</th>
              <th>{t("reach")}</th>
              <th>{t("seen")}</th>
              <th className="num">{t("flagged")}</th>
              <th>{t("state")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <IncidentTableRow key={r.id} r={r} />
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className="pager" aria-label={t("pages")}>
          <span>{t("pageOf", { page: filter.page, pages })}</span>
          <span className="pager-links">
            {filter.page > 1 ? (
              <Link href={pageLink(filter.page - 1)} rel="prev">
                {t("previous")}
              </Link>
            ) : (
              <span className="muted">{t("previous")}</span>
            )}
            {filter.page < pages ? (
              <Link href={pageLink(filter.page + 1)} rel="next">
                {t("next")}
              </Link>
            ) : (
              <span className="muted">{t("next")}</span>
            )}
          </span>
        </nav>
      )}
    </>
  );
}

function IncidentTableRow({ r }: { r: IncidentRow }) {
  const t = useTranslations("incidents.list");
  return (
    <tr data-testid="incident-row" data-incident-id={r.id}>
      <td className="num heat">
        <b>{heatText(r.heat)}</b>
        {r.bursting && <div className="badge danger">{t("bursting")}</div>}
      </td>
      <td className="incident-cell">
        <Link href={`/incidents/${r.id}`} className="incident-title">
          {r.title || t("untitled", { id: r.id })}
        </Link>
        {(r.topicName || r.keywords.length > 0) && (
          <div className="incident-keywords">
            {r.topicName && <span className="topic-chip">{r.topicName}</span>}
            {r.keywords.slice(0, 5).map((k) => (
              <span key={k} className="badge keyword">
                {k}
              </span>
            ))}
          </div>
        )}
      </td>
      <td>
        <Sparkline values={r.trend} bucket={r.trendBucket} />
      </td>
      <td>
        <div className="platform-list">
          {r.platforms.map((p) => (
            <PlatformBadge key={p} platform={p} short />
          ))}
        </div>
      </td>
      <td className="nowrap">
        {t("reachValue", { posts: r.size, accounts: r.accountCount })}
        <div className="muted small">{t("authors", { count: r.authorCount })}</div>
      </td>
      <td className="nowrap small" data-label={t("seen")}>
        <Time date={r.firstSeenAt} />
        <br />
        <Time date={r.lastSeenAt} />
      </td>
      <td className="num" data-label={t("flagged")}>
        {r.flaggedCount > 0 ? <span className="badge danger">{r.flaggedCount}</span> : <span className="muted">0</span>}
      </td>
      <td>
        <IncidentStatus status={r.status} />
      </td>
    </tr>
  );
}
