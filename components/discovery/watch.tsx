"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Watch a running discovery: re-render the page (its server components re-read the run) every
 * `intervalMs` while `active`. Stops by itself when the page re-renders with `active` false.
 */
export function WatchRun({ active, intervalMs = 2000 }: { active: boolean; intervalMs?: number }) {
  const router = useRouter();
  const t = useTranslations("discovery.watch");
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => router.refresh(), intervalMs);
    return () => clearInterval(t);
  }, [active, intervalMs, router]);
  if (!active) return null;
  return (
    <span className="muted small" aria-live="polite">
      <span className="live-dot" /> {t("live", { seconds: Math.round(intervalMs / 1000) })}
    </span>
  );
}
