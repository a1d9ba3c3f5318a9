import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { headlineCounts } from "@/server/overview";

const b = (chunks: React.ReactNode) => <b>{chunks}</b>;

/** Headline figures of the flagged and posts pages (counts with the locale's digit grouping). */
export async function HeadlineStats() {
  const [c, t] = await Promise.all([headlineCounts(db), getTranslations("posts.stats")]);
  return (
    <div className="stats" data-testid="headline-stats">
      <Link className="stat accent" href="/?review=open" data-testid="stat-open-flags">
        {t.rich("openFlags", { b, count: c.openFlags })}
      </Link>
      <div className="stat">{t.rich("flaggedToday", { b, count: c.flagsToday, reviewed: c.reviewedToday })}</div>
      <Link className="stat" href="/posts">
        {t.rich("posts", { b, count: c.posts, today: c.postsToday })}
      </Link>
      <Link className={`stat${c.accountsFailing ? " danger" : ""}`} href="/accounts">
        {c.accountsFailing
          ? t.rich("accountsFailing", { b, count: c.accountsEnabled, failing: c.accountsFailing })
          : t.rich("accountsOf", { b, count: c.accountsEnabled, total: c.accounts })}
      </Link>
      <Link className="stat" href="/runs">
        {t.rich("crawls", { b, count: c.runningCrawls, topics: c.topics })}
      </Link>
    </div>
  );
}
