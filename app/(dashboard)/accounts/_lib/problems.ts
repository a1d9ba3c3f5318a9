/**
 * The account form's field errors in the reader's language. lib/, server/ and the crawler keep
 * their messages in English (the CLI prints them) and name each refusal with a code of a code
 * book (lib/validation.ts codeBook): the URL's (lib/validation.ts urlCronProblems, server/accounts.ts
 * platformUrlProblems, server/accounts.ts searchUrlProblems) and the cron expression's. They are
 * said here from the code and its values; no English text is matched.
 */
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { issueCode, urlCronProblems, type IssueCode, type ValidationError } from "@/lib/validation";
import { codedIssueMessage, codedMessage, genericIssueMessage } from "@/i18n/validation";
import { parseUnrecognisedError, UNRECOGNISED } from "@/lib/account-problems";
import { FALLBACK_PLATFORM, PLATFORMS, platformEntry, type Platform } from "@/lib/platforms";
import { buildSearchUrl, DISCUZ_BOARD_FORMS, discuzBoardFromUrl, MAX_SEARCH_PAGES, SEARCH_PLATFORMS, type SearchPlatform } from "@/crawler/adapters";
import { platformUrlProblems, searchUrlProblems } from "@/server/accounts";

type T = Awaited<ReturnType<typeof getTranslations<"accounts.validation">>>;
type TW = Awaited<ReturnType<typeof getTranslations<"accounts.watch">>>;
type TS = Awaited<ReturnType<typeof getTranslations<"accounts.structure">>>;
type TP = Awaited<ReturnType<typeof getTranslations<"platforms">>>;

/** The translators {@link urlMessage} needs. */
export interface UrlTranslators {
  t: T;
  tw: TW;
  tp: TP;
}

/** The longest word and bar a watch takes (longer is a paste gone wrong). */
const MAX_WORD = 60;

/**
 * A refusal of the account URL (lib/validation.ts httpUrl, server/accounts.ts platformProblemCode,
 * crawler/adapters searchUrlProblemCode), said from its code; a code of no book keeps its English.
 */
export function urlMessage({ t, tw, tp }: UrlTranslators, problem: IssueCode & { message: string }): string {
  if (problem.code === "platformShape") {
    // The code names the platform; its shape ("a Weibo user") is the `platforms` messages'.
    const named = String(problem.values?.platform);
    const platform = (PLATFORMS as readonly string[]).includes(named) ? (named as Platform) : FALLBACK_PLATFORM;
    return t("platformShape", { shape: tp(`${platform}.shape`), example: String(problem.values?.example ?? "") });
  }
  return (
    codedMessage(problem, platformUrlProblems, t) ??
    codedMessage(problem, searchUrlProblems, (key, values) => tw(`errors.${key}`, values)) ??
    codedMessage(problem, urlCronProblems, t) ??
    problem.message
  );
}

/** What the "keyword watch" mode of the add-account form builds: the search URL, or why not per field. */
export type WatchForm = { url: string; platform: SearchPlatform; errors?: undefined } | { errors: Record<string, string[]>; url?: undefined };

/**
 * Build a keyword watch's entry URL from the form's fields (platform, word, Tieba bar, Discuz!
 * board URL, result pages), refusing each bad field with its own message.
 */
export async function watchFromForm(values: Record<string, string>): Promise<WatchForm> {
  const tw = await getTranslations("accounts.watch");
  const errors: Record<string, string[]> = {};
  const platform = (values.watchPlatform ?? "") as SearchPlatform;
  const word = (values.word ?? "").replace(/\s+/g, " ").trim();
  const bar = (values.bar ?? "").replace(/\s+/g, " ").trim();
  const pagesText = (values.pages ?? "").trim();
  const pages = pagesText === "" ? undefined : Number(pagesText);
  if (!SEARCH_PLATFORMS.includes(platform)) errors.watchPlatform = [tw("errors.platformRequired")];
  if (!word) errors.word = [tw("errors.wordRequired")];
  else if (word.length > MAX_WORD) errors.word = [tw("errors.wordTooLong", { max: MAX_WORD })];
  const scope = SEARCH_PLATFORMS.includes(platform) ? platformEntry(platform).features.keywordWatch : null;
  if (scope === "bar" && bar.length > MAX_WORD) errors.bar = [tw("errors.barTooLong", { max: MAX_WORD })];
  if (pages !== undefined && !(Number.isInteger(pages) && pages >= 1 && pages <= MAX_SEARCH_PAGES))
    errors.pages = [tw("errors.pagesInvalid", { max: MAX_SEARCH_PAGES })];
  let base: string | undefined;
  if (scope === "board") {
    const board = (values.board ?? "").trim();
    let parsed: URL | null = null;
    try {
      parsed = board ? new URL(board) : null;
    } catch {
      parsed = null;
    }
    const found = parsed && (parsed.protocol === "http:" || parsed.protocol === "https:") ? discuzBoardFromUrl(parsed) : null;
    if (!board) errors.board = [tw("errors.boardRequired")];
    else if (!found) errors.board = [tw("errors.boardInvalid", { example: DISCUZ_BOARD_FORMS[0] })];
    else base = found.base;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    url: buildSearchUrl({
      platform,
      word,
      bar,
      ...(base ? { base } : {}),
      ...(pages ? { pages } : {}),
    }),
    platform,
  };
}

/** A problem of a cron expression (lib/validation.ts cronProblemCode), translated from its code. */
export function cronMessage(t: T, problem: IssueCode & { message: string }): string {
  return codedMessage(problem, urlCronProblems, t) ?? problem.message;
}

/** The switches of the account form that take a whole number, and those that take a duration. */
const WHOLE_FIELDS = new Set(["backfillDays", "backfillPages", "recheckDays"]);
const DURATION_FIELDS = new Set(["minIntervalS", "maxIntervalS"]);

/**
 * Translated messages per field for a failed parse of the account form. The switches' issues
 * (server/accounts.ts accountSettingsSchema, under `settings.`) are shown on their own fields.
 */
export async function accountIssues(issues: readonly z.core.$ZodIssue[]): Promise<Record<string, string[]>> {
  const [t, tw, tp, tv] = await Promise.all([
    getTranslations("accounts.validation"),
    getTranslations("accounts.watch"),
    getTranslations("platforms"),
    getTranslations("validation"),
  ]);
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    const setting = path[0] === "settings" && path.length > 1;
    const field = (setting ? path.slice(1) : path).join(".") || "_";
    let text = issue.message;
    const found = issueCode(issue);
    if (field === "url") text = found ? urlMessage({ t, tw, tp }, { ...found, message: issue.message }) : issue.message;
    else if (field === "cron") text = codedIssueMessage(issue, urlCronProblems, t) ?? issue.message;
    else if (field === "name" && issue.code === "too_big") text = t("nameTooLong", { max: Number(issue.maximum) });
    else if (field === "interval") text = t("chooseInterval");
    else if (setting && issue.code === "invalid_type" && WHOLE_FIELDS.has(field)) text = t("wholeNumber");
    else if (setting && DURATION_FIELDS.has(field) && issue.code === "invalid_type") text = t("durationInvalid");
    // The bounds are the settings schema's own, in seconds (crawler/adaptive-interval.ts).
    else if (setting && DURATION_FIELDS.has(field) && issue.code === "too_small") text = t("intervalTooShort", { seconds: Number(issue.minimum) });
    else if (setting && DURATION_FIELDS.has(field) && issue.code === "too_big") text = t("intervalTooLong", { days: Number(issue.maximum) / 86_400 });
    else if (setting || field === "marks") {
      const { key, values } = genericIssueMessage(issue);
      text = tv(key, values);
    }
    (errors[field] ??= []).push(text);
  }
  return errors;
}

/**
 * A refusal of the account's adaptive bounds (server/accounts.ts: both bounds needed, the minimum
 * not over the maximum) on its field in the reader's language; null for any other error.
 */
export async function adaptiveBoundsErrors(e: ValidationError): Promise<Record<string, string[]> | null> {
  const code = e.detail.code;
  if (code !== "adaptiveBounds" && code !== "adaptiveOrder") return null;
  const t = await getTranslations("accounts.validation");
  return Object.fromEntries(Object.keys(e.fieldErrors).map((field) => [field, [t(code)]]));
}

/**
 * The "页面结构无法识别" notice of an account (lib/account-problems.ts): which page two runs in a
 * row recognised and read nothing from, and what the adapter expected on it; null in any other
 * state. The expectation names selectors, so it stays as the crawler wrote it.
 */
export function structureNotice(t: TS, account: { status: string; lastError: string | null }): string | null {
  if (account.status !== UNRECOGNISED) return null;
  const found = parseUnrecognisedError(account.lastError);
  return t("notice", { url: found?.url ?? "—", expected: found?.expected ?? "—" });
}
