/**
 * A case on an incident's or a post's page: its status, assignee, due time and note, its history
 * (who did what, when, with which note), and for those who may handle cases the assign and status
 * forms. Without a case yet it says so and offers the assignment.
 */
import { useTranslations } from "next-intl";
import { CASE_STATES, CASE_TRANSITIONS, OPEN_CASE_STATES, type CaseState, type CaseView } from "@/server/cases";
import { SHANGHAI_OFFSET_MS } from "@/lib/time";
import { Time } from "../time";
import { AssignForm, CaseStatusForm } from "./case-forms";

const BADGE: Readonly<Record<CaseState, string>> = { new: "info", in_progress: "warn", resolved: "ok", false_positive: "status-dismissed" };

/** A case status as a badge (an unknown value is shown as stored). */
export function CaseStatus({ status }: { status: string }) {
  const t = useTranslations("cases.status");
  const known = (CASE_STATES as readonly string[]).includes(status);
  return (
    <span className={`badge ${known ? BADGE[status as CaseState] : ""}`} data-testid="case-status">
      {known ? t(status as CaseState) : status}
    </span>
  );
}

/** The value of a `datetime-local` field for a time: Beijing time, to the minute. */
function localInput(d: Date | null): string {
  return d ? new Date(d.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 16) : "";
}

export function CasePanel({
  subject,
  kase,
  users,
  canHandle,
  title,
  now,
}: {
  subject: { kind: "incident" | "flag"; id: number };
  kase: CaseView | null;
  users: readonly { id: number; username: string }[];
  canHandle: boolean;
  title: string;
  now: Date;
}) {
  const t = useTranslations("cases.panel");
  const idPrefix = `case-${subject.kind}-${subject.id}`;
  const status = kase?.status as CaseState | undefined;
  const overdue = kase && status && OPEN_CASE_STATES.includes(status) && kase.dueAt && kase.dueAt.getTime() < now.getTime();
  return (
    <section className="panel" aria-labelledby={`${idPrefix}-title`} data-testid={idPrefix} id={subject.kind === "flag" ? `flag-${subject.id}` : "case"}>
      <h2 id={`${idPrefix}-title`}>
        {title} {kase && <CaseStatus status={kase.status} />}
      </h2>
      {kase ? (
        <dl className="facts">
          <dt>{t("assignee")}</dt>
          <dd data-testid="case-assignee">{kase.assignee?.username ?? t("deletedUser")}</dd>
          <dt>{t("due")}</dt>
          <dd>
            {kase.dueAt ? <Time date={kase.dueAt} withYear /> : <span className="muted">{t("noDue")}</span>}{" "}
            {overdue && <span className="badge danger">{t("overdue")}</span>}
          </dd>
          {kase.note && (
            <>
              <dt>{t("note")}</dt>
              <dd>{kase.note}</dd>
            </>
          )}
        </dl>
      ) : (
        <p className="muted">{t("none")}</p>
      )}
      {kase && kase.events.length > 0 && (
        <>
          <h3>{t("history")}</h3>
          <CaseHistory events={kase.events} />
        </>
      )}
      {canHandle ? (
        <div className="incident-forms">
          <AssignForm
            subjectKind={subject.kind}
            subjectId={subject.id}
            users={users}
            current={kase ? { assigneeId: kase.assigneeId, due: localInput(kase.dueAt), note: kase.note } : null}
            idPrefix={idPrefix}
          />
          {kase && status && CASE_TRANSITIONS[status] && <CaseStatusForm caseId={kase.id} moves={CASE_TRANSITIONS[status]} idPrefix={idPrefix} />}
        </div>
      ) : (
        <p className="muted small">{t("readOnly")}</p>
      )}
    </section>
  );
}

/** Every change of a case, oldest first: what, who, when, and the note. */
function CaseHistory({ events }: { events: CaseView["events"] }) {
  const t = useTranslations("cases.history");
  const ts = useTranslations("cases.status");
  const tp = useTranslations("cases.panel");
  const statusName = (s: string) => ((CASE_STATES as readonly string[]).includes(s) ? ts(s as CaseState) : s);
  return (
    <ol className="incident-history" data-testid="case-history">
      {events.map((e) => (
        <li key={e.id} data-testid="case-event" data-kind={e.kind}>
          <div>
            {e.kind === "assign" ? t("assign", { assignee: e.assignee }) : t("status", { from: statusName(e.fromStatus), to: statusName(e.toStatus) })}
            {e.kind === "assign" && e.dueAt && (
              <span className="muted">
                {" "}
                · {tp("due")} <Time date={e.dueAt} withYear />
              </span>
            )}
          </div>
          <div className="muted small">
            <Time date={e.createdAt} withYear /> · {t("by", { user: e.userId === null && e.actor === "cli" ? t("byCli") : e.actor })}
          </div>
          {e.note && <div className="small">{t("note", { note: e.note })}</div>}
        </li>
      ))}
    </ol>
  );
}
