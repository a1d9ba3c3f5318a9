import type { Metadata } from "next";
import { Fragment } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { clientMessagesFor } from "@/i18n/messages";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return {
    title: { default: t("appName"), template: `%s · ${t("appName")}` },
    description: t("description"),
  };
}

/**
 * The document in the request's language (i18n/request.ts), with the messages client components
 * use. The page is keyed by the locale: switching languages mounts it afresh, so no form keeps a
 * message it received in the other language (in its client-side action state).
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>
        <NextIntlClientProvider messages={clientMessagesFor(locale)}>
          <Fragment key={locale}>{children}</Fragment>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
