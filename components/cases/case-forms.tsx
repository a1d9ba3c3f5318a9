"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { assignCaseAction, caseStatusAction } from "@/app/(dashboard)/todo/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import type { CaseMove } from "@/server/cases";
import { FormStatus, SubmitButton } from "../form";

function FieldError({ id, state, field }: { id: string; state: FormState; field: string }) {
  return (
    <div id={id} className="field-error" aria-live="polite">
      {state.errors?.[field]?.join(" ")}
    </div>
  );
}

/**
 * Assign (or reassign) an incident or a flag: the user, an optional due time (a `datetime-local`,
 * read as Beijing time) and a note. `idPrefix` keeps the ids apart when a page has several.
 */
export function AssignForm({
  subjectKind,
  subjectId,
  users,
  current,
  idPrefix,
}: {
  subjectKind: "incident" | "flag";
  subjectId: number;
  users: readonly { id: number; username: string }[];
  current: { assigneeId: number | null; due: string; note: string } | null;
  idPrefix: string;
}) {
  const [state, action, pending] = useActionState<FormState, FormData>(assignCaseAction, {});
  const t = useTranslations("cases.assign");
  const label = current ? t("reassign") : t("title");
  return (
    <form action={action} className="incident-form" aria-label={label} data-testid={`${idPrefix}-assign`}>
      <h3>{label}</h3>
      <input type="hidden" name="subjectKind" value={subjectKind} />
      <input type="hidden" name="subjectId" value={subjectId} />
      <div className="field">
        <label htmlFor={`${idPrefix}-user`}>{t("user")}</label>
        <select
          id={`${idPrefix}-user`}
          name="assigneeId"
          required
          defaultValue={state.values?.assigneeId ?? (current?.assigneeId ? String(current.assigneeId) : "")}
          aria-describedby={`${idPrefix}-user-error`}
        >
          <option value="">{t("chooseUser")}</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.username}
            </option>
          ))}
        </select>
        <FieldError id={`${idPrefix}-user-error`} state={state} field="assigneeId" />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-due`}>{t("due")}</label>
        <input
          id={`${idPrefix}-due`}
          type="datetime-local"
          name="due"
          defaultValue={state.values?.due ?? current?.due ?? ""}
          aria-describedby={`${idPrefix}-due-error`}
        />
        <FieldError id={`${idPrefix}-due-error`} state={state} field="due" />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-note`}>{t("note")}</label>
        <input
          id={`${idPrefix}-note`}
          type="text"
          name="note"
          maxLength={1000}
          defaultValue={state.values?.note ?? current?.note ?? ""}
          placeholder={t("notePlaceholder")}
          aria-describedby={`${idPrefix}-note-error`}
        />
        <FieldError id={`${idPrefix}-note-error`} state={state} field="note" />
      </div>
      <SubmitButton pending={pending}>{t("button")}</SubmitButton>
      <FormStatus message={state.message} ok={state.ok} />
    </form>
  );
}

/** Move a case: one button per status its current one allows, with a note. */
export function CaseStatusForm({ caseId, moves, idPrefix }: { caseId: number; moves: readonly CaseMove[]; idPrefix: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(caseStatusAction, {});
  const t = useTranslations("cases.move");
  return (
    <form action={action} className="incident-form" aria-label={t("title")} data-testid={`${idPrefix}-status`}>
      <h3>{t("title")}</h3>
      <input type="hidden" name="caseId" value={caseId} />
      <div className="field">
        <label htmlFor={`${idPrefix}-status-note`}>{t("note")}</label>
        <input
          id={`${idPrefix}-status-note`}
          type="text"
          name="note"
          maxLength={1000}
          defaultValue={state.ok ? "" : (state.values?.note ?? "")}
          placeholder={t("notePlaceholder")}
          aria-describedby={`${idPrefix}-status-note-error`}
        />
        <FieldError id={`${idPrefix}-status-note-error`} state={state} field="note" />
      </div>
      <div className="button-row">
        {moves.map((m) => (
          <SubmitButton key={m} name="status" value={m} pending={pending} className={m === "false_positive" ? "secondary" : undefined}>
            {t(m)}
          </SubmitButton>
        ))}
      </div>
      <FormStatus message={state.message} ok={state.ok} />
    </form>
  );
}
