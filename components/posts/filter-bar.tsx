import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { PLATFORMS } from "@/lib/platforms";
import { SENTIMENTS } from "@/lib/sentiments";
import { filterOptions } from "@/server/overview";
import type { PostFilter } from "@/server/posts";
import { FilterSelect } from "../filter-select";

const REVIEW_OPTIONS = [
  { value: "open", key: "unreviewed" },
  { value: "reviewed", key: "reviewed" },
  { value: "confirmed", key: "confirmed" },
  { value: "dismissed", key: "dismissed" },
] as const;
const DELETED_OPTIONS = [
  { value: "yes", key: "deletedYes" },
  { value: "no", key: "deletedNo" },
] as const;
const KIND_OPTIONS = [
  { value: "post", key: "postsOnly" },
  { value: "reply", key: "repliesOnly" },
] as const;

/**
 * The filters of the flagged and posts lists: a plain GET form, so a filtered view is a URL
 * that can be bookmarked, shared and exported.
 */
export async function FilterBar({ filter, action }: { filter: PostFilter; action: "/" | "/posts" }) {
  const [{ topics, accounts }, t, tp] = await Promise.all([filterOptions(db), getTranslations("posts.filter"), getTranslations("platforms")]);
  const flagged = action === "/";
  return (
    <form className="filters panel" method="get" action={action} role="search" aria-label={t("ariaLabel")}>
      <div className="filter-field grow">
        <label htmlFor="f-q">{t("search")}</label>
        <input id="f-q" name="q" type="search" defaultValue={filter.q ?? ""} placeholder={t("searchPlaceholder")} />
      </div>
      <FilterSelect
        id="f-topic"
        name="topic"
        label={t("topic")}
        value={filter.topicId}
        anyLabel={t("allTopics")}
        options={topics.map((topic) => ({ value: topic.id, label: topic.enabled ? topic.name : t("disabledTopic", { name: topic.name }) }))}
      />
      <FilterSelect
        id="f-platform"
        name="platform"
        label={t("platform")}
        value={filter.platform}
        anyLabel={t("allPlatforms")}
        options={PLATFORMS.map((p) => ({ value: p, label: tp(`${p}.name`) }))}
      />
      <FilterSelect
        id="f-account"
        name="account"
        label={t("account")}
        value={filter.accountId}
        anyLabel={t("allAccounts")}
        options={accounts.map((a) => ({ value: a.id, label: a.name }))}
      />
      <div className="filter-field">
        <label htmlFor="f-from">{t("from")}</label>
        <input id="f-from" name="from" type="date" defaultValue={filter.from ?? ""} />
      </div>
      <div className="filter-field">
        <label htmlFor="f-to">{t("to")}</label>
        <input id="f-to" name="to" type="date" defaultValue={filter.to ?? ""} />
      </div>
      <FilterSelect
        id="f-review"
        name="review"
        label={t("review")}
        value={filter.review}
        anyLabel={flagged ? t("allFlags") : t("any")}
        options={REVIEW_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
      />
      <div className="filter-field narrow">
        <label htmlFor="f-min">{t("minScore")}</label>
        <input
          id="f-min"
          name="minScore"
          type="number"
          min={0}
          max={1}
          step={0.05}
          defaultValue={filter.minScore ?? ""}
          placeholder={t("minScorePlaceholder")}
        />
      </div>
      {/* In the flagged list too: a flagged post a moderator deleted is itself worth a look. */}
      <FilterSelect
        id="f-deleted"
        name="deleted"
        label={t("deleted")}
        value={filter.deleted}
        anyLabel={t("deletedAny")}
        options={DELETED_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
      />
      <FilterSelect
        id="f-sentiment"
        name="sentiment"
        label={t("sentiment")}
        value={filter.sentiment}
        anyLabel={t("sentimentAny")}
        options={SENTIMENTS.map((v) => ({ value: v, label: t(`sentiment_${v}`) }))}
      />
      {!flagged && (
        <FilterSelect
          id="f-kind"
          name="kind"
          label={t("kind")}
          value={filter.kind}
          anyLabel={t("postsAndReplies")}
          options={KIND_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
        />
      )}
      {filter.authorId && (
        // Only when a link brought an author (an author page's flag and account links): kept on
        // the next submit, cleared by emptying it.
        <div className="filter-field">
          <label htmlFor="f-author">{t("author")}</label>
          <input id="f-author" name="author" type="text" defaultValue={filter.authorId} />
        </div>
      )}
      <div className="filter-actions">
        <button type="submit">{t("apply")}</button>
        <Link className="button secondary" href={action}>
          {t("reset")}
        </Link>
      </div>
    </form>
  );
}
