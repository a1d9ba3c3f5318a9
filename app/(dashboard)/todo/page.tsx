import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { listMyCases } from "@/server/cases";
import { PageHeader } from "@/components/page-header";
import { TableSkeleton } from "@/components/skeletons";
import { Time } from "@/components/time";
import { CaseStatus } from "@/components/cases/case-panel";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases.todo");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

type Search = { closed?: string };

/**
 * 我的待办: the incidents and flags assigned to the signed-in user. Every signed-in user has the
 * page (a user who may not handle cases simply has none assigned); it lists only their own.
 */
export default async function TodoPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const includeClosed = (await searchParams).closed === "1";
  const t = await getTranslations("cases.todo");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("intro")}>
        <Link href={includeClosed ? "/todo" : "/todo?closed=1"} className="button secondary">
          {includeClosed ? t("hideClosed") : t("showClosed")}
        </Link>
      </PageHeader>
      <Suspense key={String(includeClosed)} fallback={<TableSkeleton rows={5} label={t("title")} />}>
        <TodoList userId={user.id} includeClosed={includeClosed} />
      </Suspense>
    </>
  );
}

async function TodoList({ userId, includeClosed }: { userId: number; includeClosed: boolean }) {
  const now = new Date();
  const [rows, t, tp] = await Promise.all([listMyCases(db, userId, { includeClosed, now }), getTranslations("cases.todo"), getTranslations("cases.panel")]);
  if (rows.length === 0) return <p className="panel muted">{t("empty")}</p>;
  return (
    <section className="panel">
      <p className="muted small">{t("count", { count: rows.length })}</p>
      <div className="table-wrap">
        <table className="data" data-testid="todo-table">
          <thead>
            <tr>
              <th>{t("item")}</th>
              <th>{t("topic")}</th>
              <th>{t("status")}</th>
              <th>{t("due")}</th>
              <th>{t("note")}</th>
              <th>{t("updated")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="todo-row" data-kind={r.subject.kind}>
                <td>
                  <Link href={r.href}>{r.subject.kind === "incident" ? t("incident", { id: r.subject.id }) : t("flag", { id: r.subject.id })}</Link>
                  <div className="small">{r.title || t("untitled")}</div>
                </td>
                <td>{r.topic ?? t("noTopic")}</td>
                <td>
                  <CaseStatus status={r.status} />
                </td>
                <td>
                  <Time date={r.dueAt} withYear /> {r.overdue && <span className="badge danger">{tp("overdue")}</span>}
                </td>
                <td className="small">{r.note}</td>
                <td>
                  <Time date={r.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
