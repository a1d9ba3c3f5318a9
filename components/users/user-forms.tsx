"use client";

import { useActionState, useRef } from "react";
import { useTranslations } from "next-intl";
import { MIN_PASSWORD_LENGTH } from "@/lib/limits";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ToggleForm } from "../toggle-form";
import { FormStatus, SubmitButton } from "../form";
import {
  changeRoleAction,
  createUserAction,
  deleteUserAction,
  resetPasswordAction,
  setTopicsAction,
  setUserDisabledAction,
} from "@/app/(dashboard)/users/actions";

/** The form that creates a user (username, initial password, role). */
export function NewUserForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createUserAction, {});
  const t = useTranslations("users.new");
  const err = (k: string) => state.errors?.[k]?.join(" ");
  return (
    <form action={action} noValidate aria-label={t("heading")}>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="u-name">{t("username")}</label>
          <input
            id="u-name"
            name="username"
            type="text"
            autoComplete="off"
            defaultValue={state.values?.username ?? ""}
            key={state.values?.username}
            aria-invalid={Boolean(err("username"))}
            aria-describedby="u-name-error"
          />
          <div id="u-name-error" className="field-error" aria-live="polite">
            {err("username")}
          </div>
        </div>
        <div className="field">
          <label htmlFor="u-pass">{t("password")}</label>
          <input
            id="u-pass"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(err("password"))}
            aria-describedby="u-pass-error"
          />
          <div id="u-pass-error" className="field-error" aria-live="polite">
            {err("password")}
          </div>
        </div>
        <div className="field">
          <label htmlFor="u-role">{t("role")}</label>
          <select
            id="u-role"
            name="role"
            defaultValue={state.values?.role ?? "reviewer"}
            key={state.values?.role}
            aria-invalid={Boolean(err("role"))}
            aria-describedby="u-role-error"
          >
            <option value="reviewer">{t("reviewerOption")}</option>
            <option value="admin">{t("adminOption")}</option>
            <option value="viewer">{t("viewerOption")}</option>
          </select>
          <div id="u-role-error" className="field-error" aria-live="polite">
            {err("role")}
          </div>
        </div>
      </div>
      <FormStatus message={state.message} />
      <div className="button-row">
        <SubmitButton pending={pending}>{t("submit")}</SubmitButton>
      </div>
    </form>
  );
}

/** Role, password, disable/enable and delete for one user row. */
export function UserRowActions({ id, username, role, self, disabled }: { id: number; username: string; role: string; self: boolean; disabled: boolean }) {
  const [roleState, roleAction, rolePending] = useActionState<FormState, FormData>(changeRoleAction, {});
  const [disState, disAction, disPending] = useActionState<FormState, FormData>(setUserDisabledAction, {});
  const [pwState, pwAction, pwPending] = useActionState<FormState, FormData>(resetPasswordAction, {});
  const [delState, delAction, delPending] = useActionState<FormState, FormData>(deleteUserAction, {});
  const pwDialog = useRef<HTMLDialogElement>(null);
  const delDialog = useRef<HTMLDialogElement>(null);
  const message = [roleState, disState, pwState, delState].find((s) => s.message);
  const t = useTranslations("users.row");
  const tc = useTranslations("common");
  const roles = useTranslations("roles");
  return (
    <div className="row-actions">
      <form action={roleAction} className="field-inline">
        <input type="hidden" name="id" value={id} />
        <label className="sr-only" htmlFor={`role-${id}`}>
          {t("roleOf", { username })}
        </label>
        <select id={`role-${id}`} name="role" defaultValue={role} style={{ width: "auto", padding: "3px 6px" }}>
          <option value="reviewer">{roles("reviewer")}</option>
          <option value="admin">{roles("admin")}</option>
          <option value="viewer">{roles("viewer")}</option>
        </select>
        <SubmitButton className="small secondary" pending={rolePending}>
          {t("setRole")}
        </SubmitButton>
      </form>
      <button type="button" className="small secondary" onClick={() => pwDialog.current?.showModal()}>
        {t("resetPassword")}
      </button>
      {!self && (
        <ToggleForm
          action={disAction}
          id={id}
          field="disabled"
          next={!disabled}
          label={disabled ? t("enable") : t("disable")}
          name={username}
          pending={disPending}
        />
      )}
      {!self && (
        <button type="button" className="small danger secondary" onClick={() => delDialog.current?.showModal()}>
          {t("delete")}
        </button>
      )}
      <dialog ref={pwDialog} aria-labelledby={`pw-${id}-h`}>
        <form action={pwAction} noValidate>
          <input type="hidden" name="id" value={id} />
          <h2 id={`pw-${id}-h`}>{t("passwordHeading", { username })}</h2>
          <label htmlFor={`pw-${id}`}>{t("passwordLabel", { min: MIN_PASSWORD_LENGTH })}</label>
          <input
            id={`pw-${id}`}
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(pwState.errors?.password)}
            aria-describedby={`pw-${id}-error`}
          />
          <div id={`pw-${id}-error`} className="field-error" aria-live="polite">
            {pwState.errors?.password?.join(" ")}
          </div>
          <FormStatus message={pwState.ok ? pwState.message : null} ok role={null} />
          <div className="button-row">
            <SubmitButton pending={pwPending}>{t("setPassword")}</SubmitButton>
            <button type="button" className="secondary" onClick={() => pwDialog.current?.close()}>
              {tc("close")}
            </button>
          </div>
        </form>
      </dialog>
      <dialog ref={delDialog} aria-labelledby={`del-u-${id}-h`}>
        <form action={delAction}>
          <input type="hidden" name="id" value={id} />
          <h2 id={`del-u-${id}-h`}>{t("deleteHeading", { username })}</h2>
          <p>{t("deleteText")}</p>
          <FormStatus message={delState.message} />
          <div className="button-row">
            <SubmitButton className="danger" pending={delPending}>
              {t("deleteSubmit")}
            </SubmitButton>
            <button type="button" className="secondary" onClick={() => delDialog.current?.close()}>
              {tc("cancel")}
            </button>
          </div>
        </form>
      </dialog>
      <FormStatus message={message && !message.ok && message !== delState ? message.message : null} inline />
      {[roleState, disState].map((st, i) => (
        <FormStatus key={i} message={st.ok ? st.message : null} ok inline role={null} />
      ))}
    </div>
  );
}

/** The topics a user sees: one box per topic; none ticked means every topic. */
export function UserTopicsForm({
  id,
  username,
  topics,
  scope,
}: {
  id: number;
  username: string;
  topics: { id: number; name: string }[];
  scope: readonly number[] | null;
}) {
  const [state, action, pending] = useActionState<FormState, FormData>(setTopicsAction, {});
  const t = useTranslations("users.row");
  return (
    <form action={action} data-testid={`user-topics-${id}`}>
      <input type="hidden" name="id" value={id} />
      <fieldset>
        <legend className="small muted">{t("topicsOf", { username })}</legend>
        {topics.map((topic) => (
          <label key={topic.id} className="field-inline">
            <input type="checkbox" name="topic" value={topic.id} defaultChecked={scope?.includes(topic.id) ?? false} /> {topic.name}
          </label>
        ))}
      </fieldset>
      <SubmitButton className="small secondary" pending={pending}>
        {t("setTopics")}
      </SubmitButton>
      <FormStatus message={state.message ?? null} ok={Boolean(state.ok)} />
    </form>
  );
}
