/**
 * The message catalogues. Both are small and imported statically (typed, bundled once); the
 * English file is the reference for the message types (i18n/next-intl.d.ts).
 */
import en from "@/messages/en.json";
import zhCN from "@/messages/zh-CN.json";
import { CLIENT_NAMESPACES, type Locale } from "./config";

export type Messages = typeof en;

const CATALOGUES: Readonly<Record<Locale, Messages>> = { "zh-CN": zhCN, en };

/** Every message of `locale`. */
export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/** Only the namespaces client components use ({@link CLIENT_NAMESPACES}), for NextIntlClientProvider. */
export function clientMessagesFor(locale: Locale): Pick<Messages, (typeof CLIENT_NAMESPACES)[number]> {
  const all = messagesFor(locale);
  return Object.fromEntries(CLIENT_NAMESPACES.map((ns) => [ns, all[ns]])) as Pick<Messages, (typeof CLIENT_NAMESPACES)[number]>;
}
