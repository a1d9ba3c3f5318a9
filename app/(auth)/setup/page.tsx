import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { setupLinkState } from "@/lib/auth/setup";
import { SetupForm } from "@/components/setup-form";
import { LocaleSwitch } from "@/components/locale-switch";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("setup");
  return { title: t("title") };
}

/**
 * The one-time first-admin page. Public (there is nobody to sign in yet), so it shows a form only
 * for a valid, unused token under 24 hours old while the database has no user; anything else gets a refusal.
 */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : undefined;
  const [state, t, tc] = await Promise.all([setupLinkState(db, token), getTranslations("setup"), getTranslations("common")]);
  return (
    <main className="signin">
      <div className="panel">
        <h1>{tc("appName")}</h1>
        {state === "valid" && token && (
          <>
            <p className="muted">{t("intro")}</p>
            <SetupForm token={token} />
          </>
        )}
        {state === "done" && <p role="alert">{t.rich("done", { link: (chunks) => <Link href="/sign-in">{chunks}</Link> })}</p>}
        {state === "invalid" && <p role="alert">{t.rich("invalid", { code: (chunks) => <code>{chunks}</code> })}</p>}
        {state === "expired" && <p role="alert">{t.rich("expired", { code: (chunks) => <code>{chunks}</code> })}</p>}
        <LocaleSwitch />
      </div>
    </main>
  );
}
