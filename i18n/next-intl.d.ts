// Typed keys and locales for next-intl: `t("users.titel")` or a missing key fails `tsc`.
import type { Locale } from "./config";
import type { Messages } from "./messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
