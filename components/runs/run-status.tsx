import { getTranslations } from "next-intl/server";

export const RUN_CLASS: Record<string, string> = { ok: "ok", running: "info", partial: "warn", failed: "danger", skipped: "" };

/** A crawl run's status as a coloured badge, in the reader's language. */
export async function RunStatus({ status }: { status: string }) {
  const t = await getTranslations("runs");
  return <span className={`badge ${RUN_CLASS[status] ?? ""}`}>{t("status", { status })}</span>;
}
