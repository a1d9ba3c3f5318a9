"use client";

import { useFormatter, useLocale, useNow, useTimeZone, useTranslations } from "next-intl";
import { DISPLAY_TIME_ZONE } from "./config";
import type { DateTools } from "./format";

/**
 * The {@link DateTools} inside a client component (the provider passes the server's locale,
 * time zone and `now`, so server and browser render the same text).
 */
export function useDateTools(): DateTools {
  const locale = useLocale();
  const format = useFormatter();
  const t = useTranslations("format");
  const now = useNow();
  const timeZone = useTimeZone() ?? DISPLAY_TIME_ZONE;
  return { locale, format, t, now, timeZone };
}
