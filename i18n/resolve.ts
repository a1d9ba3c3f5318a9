/**
 * Which locale a request gets: the `NEXT_LOCALE` cookie when it holds a valid locale, else the
 * best match of the Accept-Language header, else {@link DEFAULT_LOCALE}. Pure (no Next.js
 * request APIs) so that it is unit-tested directly; i18n/request.ts feeds it the request.
 *
 * Accept-Language is parsed by `negotiator` (quality values, order) and matched with
 * `@formatjs/intl-localematcher` (the ECMA-402 "best fit" algorithm) — the same two maintained
 * packages next-intl's own middleware uses. Best fit maps `zh`, `zh-Hans`, `zh-Hans-CN`, `zh-SG`
 * and also `zh-TW`/`zh-HK` to zh-CN: only Simplified Chinese exists, and a Traditional Chinese
 * reader reads it far better than English. `en-GB`, `en-US`… go to en.
 */
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./config";

/**
 * The locale Accept-Language asks for, or null when it names none of ours (or is absent). The
 * reader's order is kept: each language, most preferred first, is matched on its own, so
 * `en-GB, zh;q=0.4` gives en although zh is the closer match of the two (a best-fit match of
 * the whole list at once would weigh closeness over the reader's preference).
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const requested = new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages().filter(isWellFormedTag);
  for (const tag of requested) {
    // "und" (undetermined) as the default tells "no match" from a match of a real locale.
    const found = match([tag], [...LOCALES], "und");
    if (isLocale(found)) return found;
  }
  return null;
}

/** A malformed tag (`*`, `xx-!!`) would make the matcher throw for the whole header: skip it alone. */
function isWellFormedTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The request's locale: valid cookie → Accept-Language → {@link DEFAULT_LOCALE}. */
export function resolveLocale({ cookie, acceptLanguage }: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(cookie)) return cookie;
  return negotiateLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}
