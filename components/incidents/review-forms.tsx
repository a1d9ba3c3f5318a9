"use client";

import { useActionState, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { incidentStatusAction, mergeIncidentAction, renameIncidentAction, splitIncidentAction } from "@/app/(dashboard)/incidents/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

function FieldError({ id, state, field }: { id: string; state: FormState; field: string }) {
  return (
    <div id={id} className="field-error" aria-live="polite">
      {state.errors?.[field]?.join(" ")}
    </div>
  );
}

function NoteField({ id, state }: { id: string; state: FormState }) {
  const t = useTranslations("incidents.actions");
  return (
    <div className="field">
      <label htmlFor={id}>{t("note")}</label>
      <input
        id={id}
        type="text"
        name="note"
        maxLength={1000}
        defaultValue={state.values?.note ?? ""}
        placeholder={t("notePlaceholder")}
        aria-describedby={`${id}-error`}
      />
      <FieldError id={`${id}-error`} state={state} field="note" />
    </div>
  );
}

/** Rename: the new title is locked against clustering. */
export function RenameForm({ incidentId, title }: { incidentId: number; title: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(renameIncidentAction, {});
  const t = useTranslations("incidents.actions");
  return (
    <form action={action} className="incident-form" aria-label={t("rename")}>
      <h3>{t("rename")}</h3>
      <input type="hidden" name="incidentId" value={incidentId} />
      <div className="field">
        <label htmlFor="rename-title">{t("newTitle")}</label>
        <input
          id="rename-title"
          type="text"
          name="title"
          maxLength={200}
          required
          defaultValue={state.values?.title ?? title}
          aria-invalid={Boolean(state.errors?.title)}
          aria-describedby="rename-title-error"
        />
        <FieldError id="rename-title-error" state={state} field="title" />
      </div>
      <NoteField id="rename-note" state={state} />
      <p className="muted small">{t("renameHint")}</p>
      <SubmitButton pending={pending}>{t("renameButton")}</SubmitButton>
      <FormStatus message={state.message} />
    </form>
  );
}

/** Mark handled, reopen, or "not one incident": the buttons the incident's status allows. */
export function StatusForm({ incidentId, moves }: { incidentId: number; moves: readonly ("handle" | "reopen" | "dismiss")[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(incidentStatusAction, {});
  const t = useTranslations("incidents.actions");
  return (
    <form action={action} className="incident-form" aria-label={t("status")}>
      <h3>{t("status")}</h3>
      <input type="hidden" name="incidentId" value={incidentId} />
      <NoteField id="status-note" state={state} />
      <div className="button-row">
        {moves.map((m) => (
          <SubmitButton key={m} name="move" value={m} pending={pending} className={m === "dismiss" ? "secondary" : undefined}>
            {t(m)}
          </SubmitButton>
        ))}
      </div>
      <FormStatus message={state.message} />
    </form>
  );
}

/** Merge with another incident, in either direction. */
export function MergeForm({ incidentId, choices }: { incidentId: number; choices: readonly { id: number; label: string }[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(mergeIncidentAction, {});
  const t = useTranslations("incidents.actions");
  return (
    <form action={action} className="incident-form" aria-label={t("merge")}>
      <h3>{t("merge")}</h3>
      <input type="hidden" name="incidentId" value={incidentId} />
      {choices.length === 0 ? (
        <p className="muted">{t("noMergeChoices")}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="merge-other">{t("mergeWith")}</label>
            <select id="merge-other" name="otherId" defaultValue={state.values?.otherId ?? ""} aria-describedby="merge-other-error">
              <option value="">{t("chooseIncident")}</option>
              {choices.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
            <FieldError id="merge-other-error" state={state} field="otherId" />
          </div>
          <fieldset className="field">
            <legend>{t("direction")}</legend>
            <label className="field-inline">
              <input type="radio" name="direction" value="into-this" defaultChecked={state.values?.direction !== "into-other"} /> {t("intoThis")}
            </label>
            <label className="field-inline">
              <input type="radio" name="direction" value="into-other" defaultChecked={state.values?.direction === "into-other"} /> {t("intoOther")}
            </label>
          </fieldset>
          <NoteField id="merge-note" state={state} />
          <SubmitButton pending={pending}>{t("mergeButton")}</SubmitButton>
        </>
      )}
      <FormStatus message={state.message} />
    </form>
  );
}

/**
 * Split: wraps the member table (its rows carry `postId` checkboxes when `canSplit`), with the new
 * incident's title and the button below it. The count of ticked posts follows the checkboxes.
 */
export function SplitForm({ incidentId, canSplit, children }: { incidentId: number; canSplit: boolean; children: ReactNode }) {
  const [state, action, pending] = useActionState<FormState, FormData>(splitIncidentAction, {});
  const [chosen, setChosen] = useState(0);
  const t = useTranslations("incidents.actions");
  if (!canSplit) return <>{children}</>;
  return (
    <form
      action={action}
      aria-label={t("split")}
      onChange={(e) => {
        const form = e.currentTarget;
        setChosen(form.querySelectorAll('input[name="postId"]:checked').length);
      }}
    >
      <input type="hidden" name="incidentId" value={incidentId} />
      {children}
      <div className="split-bar">
        <p className="muted small">{t("splitHint")}</p>
        <div className="field">
          <label htmlFor="split-title">{t("splitTitle")}</label>
          <input id="split-title" type="text" name="title" maxLength={200} defaultValue={state.values?.title ?? ""} aria-describedby="split-title-error" />
          <FieldError id="split-title-error" state={state} field="title" />
        </div>
        <NoteField id="split-note" state={state} />
        <div className="button-row">
          <SubmitButton pending={pending} disabled={chosen === 0}>
            {t("splitButton")}
          </SubmitButton>
          <span className="muted small" aria-live="polite">
            {t("selected", { count: chosen })}
          </span>
        </div>
        <FormStatus message={state.message} />
      </div>
    </form>
  );
}
