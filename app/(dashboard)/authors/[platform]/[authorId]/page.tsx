import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Fragment, Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { authorFromRoute, type AuthorKey } from "@/lib/authors";
import type { Role } from "@/lib/auth/session";
import { can } from "@/lib/permissions";
import { db } from "@/lib/db";
import { authorFilter, FLAG_STATUSES, getAuthorPage } from "@/server/authors";
import { decodeCursor, filterToParams, type Cursor } from "@/server/posts";
import { PageHeader } from "@/components/page-header";
import { PlatformBadge } from "@/components/platform-badge";
import { PostTable } from "@/components/posts/post-list";
import { ExportLinks } from "@/components/posts/export-links";
import { FlagStatus } from "@/components/posts/reasons";
import { IncidentStatus } from "@/components/incidents/status-badge";
import { PanelSkeleton } from "@/components/skeletons";
import { Time } from "@/components/time";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("posts.author");
  return { title: t("pageTitle") };
}
export const dynamic = "force-dynamic";

type Params = { platform: string; authorId: string };
type Search = { after?: string; before?: string };

/**
 * An author's page: everything one person wrote on the watched accounts (by the platform's stable
 * author id, whatever names they used), their flags and incidents. Any signed-in user may read it.
 */
export default async function AuthorPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { platform, authorId } = await params;
  // An unknown platform or an unusable id is refused like an unknown author: there is no such page.
  const key = authorFromRoute(platform, authorId);
  if (!key) notFound();
  const sp = await searchParams;
  const after = decodeCursor(typeof sp.after === "string" ? sp.after : undefined);
  const before = decodeCursor(typeof sp.before === "string" ? sp.before : undefined);
  const t = await getTranslations("posts.author");
  return (
    <Suspense fallback={<PanelSkeleton height={400} label={t("loading")} />}>
      <AuthorView authorKey={key} after={after} before={before} role={user.role} />
    </Suspense>
  );
}

async function AuthorView({ authorKey, after, before, role }: { authorKey: AuthorKey; after?: Cursor; before?: Cursor; role: Role }) {
  const [author, t] = await Promise.all([getAuthorPage(db, authorKey, { after, before }), getTranslations("posts.author")]);
  if (!author) notFound();
  const filter = authorFilter(authorKey);
  const query = filterToParams(filter);
  const basePath = `/authors/${authorKey.platform}/${encodeURIComponent(authorKey.authorId)}`;
  const b = (chunks: React.ReactNode) => <b>{chunks}</b>;
  const latestName = author.names[0]?.name || authorKey.authorId;
  return (
    <>
      <p className="crumbs">
        <Link href="/posts">{t("crumbPosts")}</Link> / {t("crumbAuthor")}
      </p>
      <PageHeader
        title={latestName}
        subtitle={
          <span className="post-meta">
            <PlatformBadge platform={authorKey.platform} />
            <span data-testid="author-key">{t("authorId", { id: authorKey.authorId })}</span>
          </span>
        }
      >
        {can(role, "export") && <ExportLinks query={query} label={t("exportLabel")} />}
      </PageHeader>

      <div className="stats" data-testid="author-stats">
        <div className="stat">{t.rich("posts", { b, count: author.posts })}</div>
        <div className="stat">{t.rich("replies", { b, count: author.replies })}</div>
        <div className="stat">
          {t("firstPublished")}
          <b>
            <Time date={author.firstPublishedAt} withYear />
          </b>
        </div>
        <div className="stat">
          {t("lastPublished")}
          <b>
            <Time date={author.lastPublishedAt} withYear />
          </b>
        </div>
        <Link className={`stat${author.flags.open ? " accent" : ""}`} href={`/?${query}&review=open`} data-testid="author-open-flags">
          {t.rich("openFlags", { b, count: author.flags.open })}
        </Link>
        <Link className="stat" href={`/?${query}&review=reviewed`}>
          {t.rich("reviewedFlags", { b, confirmed: author.flags.confirmed, dismissed: author.flags.dismissed })}
        </Link>
        {author.deleted > 0 && (
          <Link className="stat danger" href={`/posts?${query}&deleted=yes`}>
            {t.rich("deleted", { b, count: author.deleted })}
          </Link>
        )}
      </div>

      <div className="two-col">
        <section className="panel" aria-labelledby="author-seen-h">
          <h2 id="author-seen-h">{t("aboutTitle")}</h2>
          <dl className="facts">
            <dt>{t("names")}</dt>
            <dd data-testid="author-names">
              {author.names.map((n) => (
                <span key={n.name} className="badge" title={t("nameTitle", { count: n.count })}>
                  {n.name || t("noName")}
                </span>
              ))}
            </dd>
            <dt>{t("accounts")}</dt>
            <dd>
              {author.accounts.map((a) => (
                <Link key={a.id} href={`/posts?account=${a.id}&${query}`} className="badge">
                  {t("accountCount", { name: a.name, count: a.count })}
                </Link>
              ))}
            </dd>
            <dt>{t("firstSeen")}</dt>
            <dd>
              <Time date={author.firstSeenAt} withYear />
            </dd>
            <dt>{t("lastSeen")}</dt>
            <dd>
              <Time date={author.lastSeenAt} withYear />
            </dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="author-flags-h">
          <h2 id="author-flags-h">{t("flagsTitle")}</h2>
          {author.flagsByTopic.length === 0 ? (
            <p className="muted">{t("noFlags")}</p>
          ) : (
            <dl className="facts" data-testid="author-flags">
              {author.flagsByTopic.map((f) => (
                <Fragment key={f.topicId}>
                  <dt>
                    <Link href={`/?${query}&topic=${f.topicId}`}>{f.topicName}</Link>
                  </dt>
                  <dd>
                    {FLAG_STATUSES.filter((s) => f.counts[s] > 0).map((s) => (
                      <span key={s}>
                        <FlagStatus status={s} /> {f.counts[s]}
                      </span>
                    ))}
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
          <h2 id="author-incidents-h">{t("incidentsTitle")}</h2>
          {author.incidents.length === 0 ? (
            <p className="muted">{t("noIncidents")}</p>
          ) : (
            <ul className="small" data-testid="author-incidents">
              {author.incidents.map((i) => (
                <li key={i.id}>
                  <IncidentStatus status={i.status} /> <Link href={`/incidents/${i.id}`}>{i.title || t("untitledIncident", { id: i.id })}</Link>{" "}
                  <span className="muted small">
                    {t("incidentPosts", { count: i.posts })} · <Time date={i.lastSeenAt} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <h2>{t("postsTitle")}</h2>
      <PostTable page={author.page} filter={filter} after={after} before={before} basePath={basePath} role={role} />
    </>
  );
}
