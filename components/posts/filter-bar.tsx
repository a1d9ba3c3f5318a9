import Link from "next/link";
import { db } from "@/lib/db";
import { filterOptions } from "@/lib/queries/overview";
import type { PostFilter } from "@/lib/queries/posts";
import { platformName } from "../platform-badge";
import { FilterSelect } from "../filter-select";

const PLATFORMS = ["weibo", "tieba", "discuz", "blog"] as const;
const REVIEW_OPTIONS = [
  { value: "open", label: "Unreviewed" },
  { value: "reviewed", label: "Reviewed" },
  { value: "confirmed", label: "Confirmed" },
  { value: "dismissed", label: "Dismissed" },
];
const KIND_OPTIONS = [
  { value: "post", label: "Posts only" },
  { value: "reply", label: "Replies only" },
];

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
      <FilterSelect
        id="f-topic"
        name="topic"
        label="Topic"
        value={filter.topicId}
        anyLabel="All topics"
        options={topics.map((t) => ({ value: t.id, label: t.enabled ? t.name : `${t.name} (disabled)` }))}
      />
      <FilterSelect id="f-platform" name="platform" label="Platform" value={filter.platform} anyLabel="All platforms" options={PLATFORMS.map((p) => ({ value: p, label: platformName(p) }))} />
      <FilterSelect id="f-account" name="account" label="Account" value={filter.accountId} anyLabel="All accounts" options={accounts.map((a) => ({ value: a.id, label: a.name }))} />
      <div className="filter-field">
        <label htmlFor="f-from">From</label>
        <input id="f-from" name="from" type="date" defaultValue={filter.from ?? ""} />
      </div>
      <div className="filter-field">
        <label htmlFor="f-to">To</label>
        <input id="f-to" name="to" type="date" defaultValue={filter.to ?? ""} />
      </div>
      <FilterSelect id="f-review" name="review" label="Review" value={filter.review} anyLabel={flagged ? "All flags" : "Any"} options={REVIEW_OPTIONS} />
      <div className="filter-field narrow">
        <label htmlFor="f-min">Min score</label>
        <input id="f-min" name="minScore" type="number" min={0} max={1} step={0.05} defaultValue={filter.minScore ?? ""} placeholder="0–1" />
      </div>
      {!flagged && (
        <FilterSelect id="f-kind" name="kind" label="Kind" value={filter.kind} anyLabel="Posts and replies" options={KIND_OPTIONS} />
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
