import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { TopicScope } from "@/lib/topic-scope";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { db } from "@/lib/db";
import { getIncident, mergeChoices, MEMBER_LIMIT } from "@/server/incidents";
import { Notice, PageHeader } from "@/components/page-header";
import { PanelSkeleton } from "@/components/skeletons";
import { PlatformBadge } from "@/components/platform-badge";
import { Time } from "@/components/time";
import { PlatformDailyChart } from "@/components/charts/daily-chart";
import { IncidentStatus, heatText } from "@/components/incidents/status-badge";
import { MemberTable } from "@/components/incidents/members";
import { IncidentHistory } from "@/components/incidents/history";
import { MergeForm, RenameForm, SplitForm, StatusForm } from "@/components/incidents/review-forms";
import { EvidenceDownload } from "@/components/evidence/download-button";
import { AuthorName } from "@/components/posts/post-marks";
import { CasePanel } from "@/components/cases/case-panel";
import { assignableUsers, getCase } from "@/server/cases";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("incidents.pages");
  return { title: t("incidentTitle") };
}
export const dynamic = "force-dynamic";

type Params = { id: string };
type Search = { done?: string; new?: string };
const DONE = ["merge", "split", "rename", "handle", "reopen", "dismiss"];

export default async function IncidentPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const incidentId = Number(id);
  if (!Number.isSafeInteger(incidentId) || incidentId <= 0) notFound();
  const t = await getTranslations("incidents.detail");
  const done = typeof sp.done === "string" && DONE.includes(sp.done) ? sp.done : null;
  const newId = Number(sp.new);
  return (
    <Suspense fallback={<PanelSkeleton height={400} label={t("loading")} />}>
      <IncidentView
        incidentId={incidentId}
        scope={user.topics}
        canReview={can(user.role, "review")}
        canExport={can(user.role, "export")}
        canHandle={can(user.role, "cases")}
        done={done}
        newId={Number.isSafeInteger(newId) && newId > 0 ? newId : null}
      />
    </Suspense>
  );
}

/** The moves a status allows (crawler/incidents/review.ts refuses the others). */
function statusMoves(status: string): ("handle" | "reopen" | "dismiss")[] {
  if (status === "candidate" || status === "open") return ["handle", "dismiss"];
  if (status === "handled") return ["reopen", "dismiss"];
  if (status === "dismissed") return ["reopen"];
  return [];
}

async function IncidentView({
  incidentId,
  scope,
  canReview,
  canExport,
  canHandle,
  done,
  newId,
}: {
  incidentId: number;
  scope: TopicScope;
  canReview: boolean;
  canExport: boolean;
  canHandle: boolean;
  done: string | null;
  newId: number | null;
}) {
  const [incident, kase, users, tc, t, ta, ts, tl] = await Promise.all([
    getIncident(db, incidentId, scope),
    getCase(db, { kind: "incident", id: incidentId }),
    canHandle ? assignableUsers(db) : [],
    getTranslations("cases.panel"),
    getTranslations("incidents.detail"),
    getTranslations("incidents.actions"),
    getTranslations("incidents.status"),
    getTranslations("incidents.list"),
  ]);
  if (!incident) notFound();
  const live = ["candidate", "open", "handled"].includes(incident.status);
  const choices = canReview && live ? await mergeChoices(db, incident.id) : [];
  const title = incident.title || tl("untitled", { id: incident.id });
  const negativePct = incident.size ? Math.round((incident.negativeCount / incident.size) * 100) : 0;
  const rep = incident.representative;
  const statusLabel = (s: string) => (["candidate", "open", "handled", "dismissed", "merged"].includes(s) ? ts(s as "open") : s);
  return (
    <>
      <p className="crumbs">
        <Link href="/incidents">{t("crumb")}</Link> / #{incident.id}
      </p>
      <PageHeader
        title={title}
        subtitle={
          <span className="incident-sub">
            <IncidentStatus status={incident.status} />
            {incident.bursting && <span className="badge danger">{tl("bursting")}</span>}
            <span>{incident.topic ? `${t("topic")}: ${incident.topic.name}` : t("noTopic")}</span>
            <span>
              {t("firstSeen")} <Time date={incident.firstSeenAt} withYear />
            </span>
            <span>
              {t("lastSeen")} <Time date={incident.lastSeenAt} withYear />
            </span>
          </span>
        }
      >
        {canExport && incident.flaggedCount > 0 && <EvidenceDownload kind="incident" id={incident.id} />}
      </PageHeader>
      {done && (
        <Notice>
          {t("done", { kind: done })} {newId && <Link href={`/incidents/${newId}`}>{t("newIncident", { id: newId })}</Link>}
        </Notice>
      )}
      {incident.mergedInto && (
        <Notice>
          {t.rich("mergedInto", {
            id: incident.mergedInto.id,
            title: incident.mergedInto.title,
            link: (c) => <Link href={`/incidents/${incident.mergedInto!.id}`}>{c}</Link>,
          })}
        </Notice>
      )}
      {incident.status === "dismissed" && <p className="hint panel">{t("dismissedNote")}</p>}

      <div className="stats incident-stats" data-testid="incident-figures" aria-label={t("figures")}>
        <div className="stat accent">
          <b>{heatText(incident.heat)}</b> {t("heat")}
        </div>
        <div className="stat" data-testid="figure-posts">
          <b>{incident.size}</b> {t("posts")}
        </div>
        <div className="stat">
          <b>{incident.threadCount}</b> {t("threads")}
        </div>
        <div className="stat">
          <b>{incident.authorCount}</b> {t("authors")}
        </div>
        <div className="stat">
          <b>{incident.accountCount}</b> {t("accounts")}
        </div>
        <div className="stat">
          <b>{incident.replyCount}</b> {t("replies")}
        </div>
        <div className={`stat${incident.flaggedCount ? " danger" : ""}`}>
          <b>{incident.flaggedCount}</b> {t("flagged")}
        </div>
        <div className="stat">
          <b>{t("negativeShare", { count: incident.negativeCount, pct: negativePct })}</b> {t("negative")}
        </div>
      </div>

      <div className="two-col incident-top">
        <section className="panel" aria-labelledby="rep-title">
          <h2 id="rep-title">{t("representative")}</h2>
          {rep ? (
            <div data-testid="representative">
              <div className="post-meta">
                <PlatformBadge platform={rep.account.platform} /> <span>{rep.account.name}</span>{" "}
                {rep.author && (
                  <span className="muted">
                    <AuthorName platform={rep.account.platform} author={rep.author} authorId={rep.authorId} />
                  </span>
                )}{" "}
                <Time date={rep.publishedAt} withYear />
              </div>
              {rep.title && <h3 className="rep-title">{rep.title}</h3>}
              <p className="rep-text">{rep.excerpt}</p>
              <Link href={`/posts/${rep.id}`}>{t("openPost", { id: rep.id })}</Link>
            </div>
          ) : (
            <p className="muted">{t("noRepresentative")}</p>
          )}
          <h3>{t("keywords")}</h3>
          {incident.keywords.length ? (
            <div className="incident-keywords" data-testid="incident-keywords">
              {incident.keywords.map((k) => (
                <span key={k} className="badge keyword">
                  {k}
                </span>
              ))}
            </div>
          ) : (
            <p className="muted">{t("noKeywords")}</p>
          )}
          <h3>{t("platforms")}</h3>
          <div className="platform-list">
            {incident.platforms.map((p) => (
              <PlatformBadge key={p} platform={p} />
            ))}
          </div>
        </section>
        <section className="panel chart-panel" aria-labelledby="timeline-title" data-testid="incident-timeline">
          <h2 id="timeline-title">{t("timeline")}</h2>
          <p className="muted small">{t("timelineBucket", { bucket: incident.timelineBucket })}</p>
          <PlatformDailyChart data={incident.timeline} keys={incident.platforms} kind="bar" height={220} />
        </section>
      </div>

      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">
          {t("members")} ({incident.size})
        </h2>
        {incident.size > MEMBER_LIMIT && <p className="muted small">{t("membersShown", { shown: MEMBER_LIMIT, total: incident.size })}</p>}
        <SplitForm incidentId={incident.id} canSplit={canReview && live && incident.members.length > 1}>
          <MemberTable members={incident.members} selectable={canReview && live && incident.members.length > 1} />
        </SplitForm>
      </section>

      {(kase || incident.status !== "merged") && (
        <CasePanel
          subject={{ kind: "incident", id: incident.id }}
          kase={kase}
          users={users}
          canHandle={canHandle && incident.status !== "merged"}
          title={tc("title")}
          now={new Date()}
        />
      )}

      {canReview ? (
        <section className="panel" aria-labelledby="review-title" data-testid="incident-review">
          <h2 id="review-title">{ta("title")}</h2>
          <div className="incident-forms">
            {incident.status !== "merged" && <RenameForm incidentId={incident.id} title={incident.title} />}
            {statusMoves(incident.status).length > 0 && <StatusForm incidentId={incident.id} moves={statusMoves(incident.status)} />}
            {live && (
              <MergeForm
                incidentId={incident.id}
                choices={choices.map((c) => ({
                  id: c.id,
                  label: ta("mergeChoice", { id: c.id, title: c.title || tl("untitled", { id: c.id }), size: c.size, status: statusLabel(c.status) }),
                }))}
              />
            )}
          </div>
        </section>
      ) : (
        <p className="muted small">{ta("readOnly")}</p>
      )}

      <section className="panel" aria-labelledby="history-title">
        <h2 id="history-title">{t("history")}</h2>
        <IncidentHistory actions={incident.actions} />
      </section>
    </>
  );
}
