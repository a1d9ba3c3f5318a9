/**
 * Which locale a request gets (i18n/resolve.ts): the NEXT_LOCALE cookie, else Accept-Language
 * negotiated against zh-CN and en, else the default.
 */
import { describe, expect, test } from "vitest";
import { DEFAULT_LOCALE, DISPLAY_TIME_ZONE, isLocale, LOCALES } from "@/i18n/config";
import { negotiateLocale, resolveLocale } from "@/i18n/resolve";
import { TIME_ZONE } from "@/lib/validation";

describe("locale resolution", () => {
  test("a valid cookie beats Accept-Language", () => {
    expect(resolveLocale({ cookie: "en", acceptLanguage: "zh-CN,zh;q=0.9" })).toBe("en");
    expect(resolveLocale({ cookie: "zh-CN", acceptLanguage: "en-US,en;q=0.9" })).toBe("zh-CN");
  });

  test("an invalid or missing cookie is ignored", () => {
    expect(resolveLocale({ cookie: "fr", acceptLanguage: "en-GB" })).toBe("en");
    expect(resolveLocale({ cookie: "zh", acceptLanguage: "en-GB" })).toBe("en");
    expect(resolveLocale({ cookie: "", acceptLanguage: "zh" })).toBe("zh-CN");
    expect(resolveLocale({ cookie: null, acceptLanguage: "zh" })).toBe("zh-CN");
  });

  test.each(["zh", "zh-CN", "zh-Hans", "zh-Hans-CN", "zh-SG", "zh-cn"])("%s → zh-CN", (header) => {
    expect(negotiateLocale(header)).toBe("zh-CN");
  });

  // Only Simplified Chinese exists; a Traditional Chinese reader reads it far better than English.
  test.each(["zh-TW", "zh-HK", "zh-Hant"])("%s → zh-CN (no Traditional Chinese catalogue)", (header) => {
    expect(negotiateLocale(header)).toBe("zh-CN");
  });

  test.each(["en", "en-GB", "en-US", "en-AU,en;q=0.9"])("%s → en", (header) => {
    expect(negotiateLocale(header)).toBe("en");
  });

  test("quality values and order decide between the two", () => {
    expect(negotiateLocale("en;q=0.1,zh;q=0.9")).toBe("zh-CN");
    expect(negotiateLocale("zh;q=0.4,en-GB;q=0.8")).toBe("en");
    expect(negotiateLocale("fr-FR,fr;q=0.9,en;q=0.5,zh;q=0.3")).toBe("en");
    expect(negotiateLocale("ja,zh-CN;q=0.8,en;q=0.5")).toBe("zh-CN");
  });

  test("no language of ours, no header or a malformed one → the default", () => {
    for (const header of ["fr", "fr-FR,de;q=0.5", "*", "", "xx-!!", undefined, null]) {
      expect(negotiateLocale(header), String(header)).toBeNull();
      expect(resolveLocale({ acceptLanguage: header }), String(header)).toBe(DEFAULT_LOCALE);
    }
    // One malformed tag does not hide a good one.
    expect(negotiateLocale("xx-!!,en;q=0.5")).toBe("en");
  });

  test("the configuration is consistent", () => {
    expect(isLocale(DEFAULT_LOCALE)).toBe(true);
    expect(LOCALES).toEqual(["zh-CN", "en"]);
    expect(DISPLAY_TIME_ZONE).toBe(TIME_ZONE);
  });
});
