import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SignInForm } from "@/components/sign-in-form";
import { LocaleSwitch } from "@/components/locale-switch";
import { safeLocalPath } from "@/lib/safe-path";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth");
  return { title: t("title") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const [t, tc] = await Promise.all([getTranslations("auth"), getTranslations("common")]);
  return (
    <main className="signin">
      <div className="panel">
        <h1>{tc("appName")}</h1>
        <p className="muted" style={{ textAlign: "center", marginTop: -8 }}>
          {t("intro")}
        </p>
        <SignInForm next={safeLocalPath(next)} />
        <LocaleSwitch />
      </div>
    </main>
  );
}
