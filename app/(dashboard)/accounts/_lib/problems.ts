/**
 * The account form's field errors in the reader's language. lib/ keeps its messages in English
 * (the CLI prints them); a cron refusal carries its code (lib/validation.ts urlCronProblems), said
 * here with its values. The URL refusals of the platform and search checks (server/accounts.ts
 * platformProblem, crawler/adapters/search) are still matched by their English text: they move
 * to codes with the platform registry.
 */
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { urlCronProblems, urlProblemCode, type IssueCode } from "@/lib/validation";
import { codedIssueMessage, codedMessage } from "@/i18n/validation";
import { parseUnrecognisedError, UNRECOGNISED } from "@/lib/account-problems";
import { FALLBACK_PLATFORM, PLATFORM_ENTRIES, platformEntry } from "@/lib/platforms";
import { buildSearchUrl, DISCUZ_BOARD_FORMS, discuzBoardFromUrl, MAX_SEARCH_PAGES, SEARCH_PLATFORMS, type SearchPlatform } from "@/crawler/adapters";

type T = Awaited<ReturnType<typeof getTranslations<"accounts.validation">>>;
type TW = Awaited<ReturnType<typeof getTranslations<"accounts.watch">>>;
type TS = Awaited<ReturnType<typeof getTranslations<"accounts.structure">>>;
type TP = Awaited<ReturnType<typeof getTranslations<"platforms">>>;

const NO_WORD = /^a search URL with no word: add the word to search for, like (.+)$/;
const PAGES_PARAM = /^cw_pages must be a whole number of result pages from 1 to (\d+)$/;

/** The longest word and bar a watch takes (longer is a paste gone wrong). */
const MAX_WORD = 60;

const SHAPE = /^unknown URL shape for a (.+?): expected something like (.+)$/;

/** A problem of the account URL (from lib/validation.ts or server/accounts.ts platformProblem), translated. */
export function urlMessage(t: T, tp: TP, url: string, english: string): string {
  const p = urlProblemCode(url);
  if (p && p.message === english) return t(p.code as "urlInvalid", p.values);
  if (english === "URL is required") return t("urlRequired");
  if (english === "not a valid URL") return t("platformUrlInvalid");
  if (english === "only http and https URLs can be crawled") return t("platformProtocol");
  if (english === "cannot tell the platform from this URL; choose one") return t("platformUnknown");
  const shape = SHAPE.exec(english);
  if (shape) {
    // The English names what the entry URL should name (the registry entry's `shapeLabel`).
    const platform = PLATFORM_ENTRIES.find((e) => e.shapeLabel === shape[1])?.id ?? FALLBACK_PLATFORM;
    return t("platformShape", { shape: tp(`${platform}.shape`), example: shape[2]! });
  }
  return english;
}

/** A keyword watch's refusal of a search URL (server/accounts.ts via searchUrlProblem), translated, or null. */
function watchUrlMessage(tw: TW, english: string): string | null {
  const noWord = NO_WORD.exec(english);
  if (noWord) return tw("errors.noWord", { example: noWord[1]! });
  const pages = PAGES_PARAM.exec(english);
  if (pages) return tw("errors.pagesParam", { max: Number(pages[1]) });
  return null;
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

/** Translated messages per field for a failed parse of the account form. */
export async function accountIssues(issues: readonly z.core.$ZodIssue[], values: Record<string, string>): Promise<Record<string, string[]>> {
  const [t, tw, tp] = await Promise.all([getTranslations("accounts.validation"), getTranslations("accounts.watch"), getTranslations("platforms")]);
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "_";
    let text = issue.message;
    if (field === "url") text = watchUrlMessage(tw, issue.message) ?? urlMessage(t, tp, (values.url ?? "").trim(), issue.message);
    else if (field === "cron") text = codedIssueMessage(issue, urlCronProblems, t) ?? issue.message;
    else if (field === "name" && issue.code === "too_big") text = t("nameTooLong", { max: Number(issue.maximum) });
    else if (field === "interval") text = t("chooseInterval");
    (errors[field] ??= []).push(text);
  }
  return errors;
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
