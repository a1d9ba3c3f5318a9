import Link from "next/link";
import { db } from "@/lib/db";
import { headlineCounts } from "@/lib/queries/overview";

const n = (x: number) => x.toLocaleString("en-US");

/** Headline figures of the flagged and posts pages. */
export async function HeadlineStats() {
  const c = await headlineCounts(db);
  return (
    <div className="stats" data-testid="headline-stats">
      <Link className="stat accent" href="/?review=open" data-testid="stat-open-flags">
        <b>{n(c.openFlags)}</b>open flags to review
      </Link>
      <div className="stat">
        <b>{n(c.flagsToday)}</b>flagged today · {n(c.reviewedToday)} reviewed
      </div>
      <Link className="stat" href="/posts">
        <b>{n(c.posts)}</b>posts &amp; replies · {n(c.postsToday)} today
      </Link>
      <Link className={`stat${c.accountsFailing ? " danger" : ""}`} href="/accounts">
        <b>{n(c.accountsEnabled)}</b>
        {c.accountsFailing ? `accounts watched · ${c.accountsFailing} failing` : `accounts watched of ${n(c.accounts)}`}
      </Link>
      <Link className="stat" href="/runs">
        <b>{n(c.runningCrawls)}</b>crawls running · {n(c.topics)} topics
      </Link>
    </div>
  );
}
