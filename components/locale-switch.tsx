import { getLocale, getTranslations } from "next-intl/server";
import { setLocaleAction } from "@/i18n/actions";
import { LOCALE_NAMES, LOCALES } from "@/i18n/config";

/**
 * 中文 / English: one submit button per locale posting to the language server action, so it works
 * before (or without) JavaScript. Each name is written in its own language and marked with `lang`.
 */
export async function LocaleSwitch() {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("localeSwitch")]);
  return (
    <form action={setLocaleAction} className="locale-switch" aria-label={t("label")}>
      {LOCALES.map((l) => (
        <button key={l} type="submit" name="locale" value={l} lang={l} className="link" aria-pressed={l === locale}>
          {LOCALE_NAMES[l]}
        </button>
      ))}
    </form>
  );
}
