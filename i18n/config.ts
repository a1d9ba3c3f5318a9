/**
 * The one place that says which languages the dashboard speaks. URLs carry no locale: the
 * language comes from the `NEXT_LOCALE` cookie (the sidebar's switch) or the browser's
 * Accept-Language header (i18n/resolve.ts), and the messages from messages/<locale>.json.
 */
import { TIME_ZONE } from "@/lib/time";

/** The locales with a message file. Only Simplified Chinese exists (no zh-TW file). */
export const LOCALES = ["zh-CN", "en"] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The locale used when neither the cookie nor Accept-Language names one of {@link LOCALES}
 * (a browser asking only for French, a client sending no header). Chinese: CampusWatch is
 * used by Chinese universities' administrators.
 */
export const DEFAULT_LOCALE: Locale = "zh-CN";

/** The cookie the language switch sets (next-intl's conventional name). */
export const LOCALE_COOKIE = "NEXT_LOCALE";

/** A year: the choice outlives sessions (sign-out deletes only the session cookie). */
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Every date is shown in the platforms' own zone, whatever the reader's language: lib/time.ts's
 * TIME_ZONE (a module without server imports, so this file stays free of them too).
 */
export const DISPLAY_TIME_ZONE = TIME_ZONE;

/**
 * Each language's name in itself, for the switch: a reader who cannot read the current
 * language still finds their own. Not translated on purpose, so not in the message files.
 */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { "zh-CN": "中文", en: "English" };

/**
 * The message namespaces sent to the browser (client components' `useTranslations`). Server
 * components read every namespace on the server; add a namespace here when a client component
 * starts using it, or that component shows `namespace.key` instead of the text.
 */
export const CLIENT_NAMESPACES = [
  "common",
  "nav",
  "auth",
  "setup",
  "users",
  "roles",
  "format",
  "posts",
  "accounts",
  "runs",
  "workers",
  "topics",
  "charts",
  "seeds",
  "discovery",
  "platforms",
  "evidence",
  "tokens",
  "incidents",
  "cases",
] as const;

/** True when `value` is one of {@link LOCALES}. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}
