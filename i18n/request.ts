/**
 * next-intl's per-request configuration (found by the plugin in next.config.ts): the locale
 * (i18n/resolve.ts: cookie → Accept-Language → default), its messages, the display time zone and
 * the request's `now`, so every relative time on one page is measured from the same instant.
 */
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { DISPLAY_TIME_ZONE, isLocale, LOCALE_COOKIE } from "./config";
import { messagesFor } from "./messages";
import { resolveLocale } from "./resolve";

export default getRequestConfig(async ({ locale: requested }) => {
  // An explicit `getTranslations({ locale })` wins over the request.
  const locale = isLocale(requested)
    ? requested
    : resolveLocale({ cookie: (await cookies()).get(LOCALE_COOKIE)?.value, acceptLanguage: (await headers()).get("accept-language") });
  return {
    locale,
    messages: messagesFor(locale),
    timeZone: DISPLAY_TIME_ZONE,
    now: new Date(),
  };
});
