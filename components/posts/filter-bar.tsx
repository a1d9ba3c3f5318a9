import Link from "next/link";
import { db } from "@/lib/db";
import { filterOptions } from "@/lib/queries/overview";
import type { PostFilter } from "@/lib/queries/posts";
import { platformName } from "../platform-badge";

const PLATFORMS = ["weibo", "tieba", "discuz", "blog"] as const;

/**
 * The filters of the flagged and posts lists: a plain GET form, so a filtered view is a URL
 * that can be bookmarked, shared and exported.
 */
export async function FilterBar({ filter, action }: { filter: PostFilter; action: "/" | "/posts" }) {
  const { topics, accounts } = await filterOptions(db);
  const flagged = action === "/";
  return (
    <form className="filters panel" method="get" action={action} role="search" aria-label="Filter posts">
      <div className="filter-field grow">
        <label htmlFor="f-q">Search title and text</label>
        <input id="f-q" name="q" type="search" defaultValue={filter.q ?? ""} placeholder="如：作弊 期末考试" />
      </div>
      <div className="filter-field">
        <label htmlFor="f-topic">Topic</label>
        <select id="f-topic" name="topic" defaultValue={filter.topicId ?? ""}>
          <option value="">All topics</option>
          {topics.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
              {t.enabled ? "" : " (disabled)"}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor="f-platform">Platform</label>
        <select id="f-platform" name="platform" defaultValue={filter.platform ?? ""}>
          <option value="">All platforms</option>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {platformName(p)}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor="f-account">Account</label>
        <select id="f-account" name="account" defaultValue={filter.accountId ?? ""}>
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor="f-from">From</label>
        <input id="f-from" name="from" type="date" defaultValue={filter.from ?? ""} />
      </div>
      <div className="filter-field">
        <label htmlFor="f-to">To</label>
        <input id="f-to" name="to" type="date" defaultValue={filter.to ?? ""} />
      </div>
      <div className="filter-field">
        <label htmlFor="f-review">Review</label>
        <select id="f-review" name="review" defaultValue={filter.review ?? ""}>
          <option value="">{flagged ? "All flags" : "Any"}</option>
          <option value="open">Unreviewed</option>
          <option value="reviewed">Reviewed</option>
          <option value="confirmed">Confirmed</option>
          <option value="dismissed">Dismissed</option>
        </select>
      </div>
      <div className="filter-field narrow">
        <label htmlFor="f-min">Min score</label>
        <input id="f-min" name="minScore" type="number" min={0} max={1} step={0.05} defaultValue={filter.minScore ?? ""} placeholder="0–1" />
      </div>
      {!flagged && (
        <div className="filter-field">
          <label htmlFor="f-kind">Kind</label>
          <select id="f-kind" name="kind" defaultValue={filter.kind ?? ""}>
            <option value="">Posts and replies</option>
            <option value="post">Posts only</option>
            <option value="reply">Replies only</option>
          </select>
        </div>
      )}
      <div className="filter-actions">
        <button type="submit">Apply</button>
        <Link className="button secondary" href={action}>
          Reset
        </Link>
      </div>
    </form>
  );
}
