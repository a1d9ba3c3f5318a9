/**
 * The account form's field errors in the reader's language. lib/ keeps its messages in English
 * (the CLI prints them); the URL and cron refusals are re-derived here as codes of the
 * `accounts.validation` messages from what was submitted, so each is said with its values.
 */
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { cronProblemCode, urlProblemCode } from "@/lib/validation";

type T = Awaited<ReturnType<typeof getTranslations<"accounts.validation">>>;

const SHAPE = /^unknown URL shape for a (.+?): expected something like (.+)$/;
const SHAPE_PLATFORM: Record<string, string> = { "Weibo user": "weibo", "Tieba bar": "tieba", "Discuz! board": "discuz", blog: "blog" };

/** A problem of the account URL (from lib/validation.ts or lib/queries/accounts.ts platformProblem), translated. */
export function urlMessage(t: T, url: string, english: string): string {
  const p = urlProblemCode(url);
  if (p && p.message === english) return t(p.code as "urlInvalid", p.values);
  if (english === "URL is required") return t("urlRequired");
  if (english === "not a valid URL") return t("platformUrlInvalid");
  if (english === "only http and https URLs can be crawled") return t("platformProtocol");
  if (english === "cannot tell the platform from this URL; choose one") return t("platformUnknown");
  const shape = SHAPE.exec(english);
  if (shape) return t("platformShape", { platform: SHAPE_PLATFORM[shape[1]!] ?? "blog", example: shape[2]! });
  return english;
}

/** A problem of a cron expression, translated. */
export function cronMessage(t: T, expr: string, english: string): string {
  const p = cronProblemCode(expr);
  if (p && p.message === english) return t(p.code as "cronInvalid", p.values);
  if (english === "cron expression is required") return t("cronRequired");
  if (english === "enter a cron expression") return t("cronMissing");
  return english;
}

/** Translated messages per field for a failed parse of the account form. */
export async function accountIssues(issues: readonly z.core.$ZodIssue[], values: Record<string, string>): Promise<Record<string, string[]>> {
  const t = await getTranslations("accounts.validation");
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "_";
    let text = issue.message;
    if (field === "url") text = urlMessage(t, (values.url ?? "").trim(), issue.message);
    else if (field === "cron") text = cronMessage(t, (values.interval === "custom" ? (values.cron ?? "") : (values.interval ?? "")).trim(), issue.message);
    else if (field === "name" && issue.code === "too_big") text = t("nameTooLong", { max: Number(issue.maximum) });
    else if (field === "interval") text = t("chooseInterval");
    (errors[field] ??= []).push(text);
  }
  return errors;
}
