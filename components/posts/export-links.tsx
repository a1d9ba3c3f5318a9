import { getTranslations } from "next-intl/server";

/**
 * "Export: CSV JSON" for a post list filter (the flagged and posts lists, an author's page): links
 * to the streamed download (/api/export), which checks the export permission itself.
 * @param query the filter as query-string pairs (filterToParams), with `flagged=1` for the flagged view
 * @param label what the links export, for screen readers
 */
export async function ExportLinks({ query, label }: { query: URLSearchParams; label: string }) {
  const t = await getTranslations("posts.view");
  return (
    <span className="export-links" aria-label={label}>
      {t("export")}
      <a href={`/api/export?format=csv&${query}`} download>
        {t("csv")}
      </a>
      <a href={`/api/export?format=jsonl&${query}`} download>
        {t("json")}
      </a>
    </span>
  );
}
