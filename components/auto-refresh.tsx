"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { LiveStatus } from "@/lib/queries/runs";

/**
 * Polls the live crawl status and re-renders the page (server components included) when a crawl
 * starts or ends or a "crawl now" request is picked up. Optionally shows the running crawls.
 */
export function LiveCrawls({ intervalMs = 2000, show = true }: { intervalMs?: number; show?: boolean }) {
  const router = useRouter();
  const [live, setLive] = useState<LiveStatus | null>(null);
  const stamp = useRef<string | null>(null);
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
    const t = setInterval(tick, intervalMs);
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
        {live.running.length} crawl{live.running.length === 1 ? "" : "s"} running
      </b>
      {live.queued.length > 0 && <span className="muted"> · waiting to start: {live.queued.map((q) => q.name).join("、")}</span>}
      <ul className="live-list">
        {live.running.map((r) => (
          <li key={r.id}>
            <a href={`/runs/${r.id}`}>#{r.id}</a> {r.account.name}: {r.pagesList + r.pagesItem + r.pagesOther} pages, {r.newPosts} new, {r.changedPosts} changed
            {r.errorCount ? `, ${r.errorCount} errors` : ""} · since {new Date(r.startedAt).toLocaleTimeString("zh-CN", { timeZone: "Asia/Shanghai", hour12: false })}
          </li>
        ))}
      </ul>
    </div>
  );
}
