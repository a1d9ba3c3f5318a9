"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import { DISPLAY_TIME_ZONE } from "@/i18n/config";
import type { LiveStatus } from "@/server/runs";

/**
 * Polls the live crawl status and re-renders the page (server components included) when a crawl
 * starts or ends or a "crawl now" request is picked up. Optionally shows the running crawls.
 */
export function LiveCrawls({ intervalMs = 2000, show = true }: { intervalMs?: number; show?: boolean }) {
  const router = useRouter();
  const [live, setLive] = useState<LiveStatus | null>(null);
  const stamp = useRef<string | null>(null);
  const t = useTranslations("posts.live");
  const format = useFormatter();
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      try {
        const r = await fetch("/api/runs/live", { cache: "no-store" });
        if (!r.ok) return;
        const j = (await r.json()) as LiveStatus;
        if (stop) return;
        setLive(j);
        if (stamp.current !== null && stamp.current !== j.stamp) router.refresh();
        stamp.current = j.stamp;
      } catch {
        /* the next tick tries again */
      }
    };
    void tick();
    // tick catches its own errors (the next tick tries again), so nothing is lost by not awaiting it.
    const t = setInterval(() => void tick(), intervalMs);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [intervalMs, router]);
  if (!show || !live || (live.running.length === 0 && live.queued.length === 0)) return null;
  return (
    <div className="panel live" data-testid="live-crawls" aria-live="polite">
      <b>
        <span className="live-dot" />
        {t("running", { count: live.running.length })}
      </b>
      {live.queued.length > 0 && <span className="muted">{t("waiting", { names: live.queued.map((q) => q.name).join("、") })}</span>}
      <ul className="live-list">
        {live.running.map((r) => (
          <li key={r.id}>
            <a href={`/runs/${r.id}`}>#{r.id}</a> {r.account.name}:{" "}
            {t("item", { pages: r.pagesList + r.pagesItem + r.pagesOther, newPosts: r.newPosts, changed: r.changedPosts })}
            {r.errorCount ? t("errors", { count: r.errorCount }) : null}
            {t("since", {
              time: format.dateTime(new Date(r.startedAt), {
                timeZone: DISPLAY_TIME_ZONE,
                hour: "2-digit",
                minute: "2-digit",
                second: "2-digit",
                hourCycle: "h23",
              }),
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}
