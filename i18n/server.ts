/** Server-side access to the request's formatting tools (server components and server actions). */
import { getFormatter, getLocale, getNow, getTimeZone, getTranslations } from "next-intl/server";
import type { DateTools } from "./format";

/** The {@link DateTools} of the current request; next-intl caches each part per request. */
export async function getDateTools(): Promise<DateTools> {
  const [locale, format, t, now, timeZone] = await Promise.all([getLocale(), getFormatter(), getTranslations("format"), getNow(), getTimeZone()]);
  return { locale, format, t, now, timeZone };
}
