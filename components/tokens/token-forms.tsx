"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { createTokenAction, revokeTokenAction, type TokenFormState } from "@/app/(dashboard)/tokens/actions";
import { FormStatus, SubmitButton } from "../form";

/** The new-token form; after a success it shows the token once, to copy. */
export function NewTokenForm({ canReview }: { canReview: boolean }) {
  const [state, action, pending] = useActionState<TokenFormState, FormData>(createTokenAction, {});
  const t = useTranslations("tokens");
  const err = (k: string) => state.errors?.[k]?.join(" ");
  return (
    <>
      {state.token && (
        <div className="form-ok" role="status" data-testid="new-token">
          <b>{t("created.heading")}</b>
          <p>{t("created.hint")}</p>
          <label htmlFor="t-token">{t("created.label")}</label>
          <input id="t-token" readOnly value={state.token} style={{ width: "100%", fontFamily: "monospace" }} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      <form action={action} noValidate aria-label={t("new.heading")}>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="t-name">{t("new.name")}</label>
            <input
              id="t-name"
              name="name"
              type="text"
              maxLength={100}
              autoComplete="off"
              defaultValue={state.ok ? "" : (state.values?.name ?? "")}
              key={`${state.values?.name}-${state.token}`}
              aria-invalid={Boolean(err("name"))}
              aria-describedby="t-name-error"
            />
            <div id="t-name-error" className="field-error" aria-live="polite">
              {err("name")}
            </div>
          </div>
          <div className="field">
            <label htmlFor="t-scope">{t("new.scope")}</label>
            <select
              id="t-scope"
              name="scope"
              defaultValue={state.values?.scope ?? "read"}
              aria-invalid={Boolean(err("scope"))}
              aria-describedby="t-scope-error"
            >
              <option value="read">{t("new.scopeRead")}</option>
              {canReview && <option value="review">{t("new.scopeReview")}</option>}
            </select>
            <div id="t-scope-error" className="field-error" aria-live="polite">
              {err("scope")}
            </div>
          </div>
          <div className="field">
            <label htmlFor="t-expires">{t("new.expires")}</label>
            <input
              id="t-expires"
              name="expiresInDays"
              type="number"
              min={1}
              max={3650}
              defaultValue={state.ok ? "" : (state.values?.expiresInDays ?? "")}
              aria-invalid={Boolean(err("expiresInDays"))}
              aria-describedby="t-expires-error"
            />
            <div id="t-expires-error" className="field-error" aria-live="polite">
              {err("expiresInDays")}
            </div>
          </div>
        </div>
        <FormStatus message={state.ok ? undefined : state.message} />
        <SubmitButton pending={pending}>{t("new.submit")}</SubmitButton>
      </form>
    </>
  );
}

/** A row's Revoke button, confirmed first. */
export function RevokeTokenForm({ id, name }: { id: number; name: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(revokeTokenAction, {});
  const t = useTranslations("tokens");
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm(t("revokeConfirm", { name }))) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <SubmitButton className="small danger" pending={pending} aria-label={`${t("revoke")} ${name}`}>
        {t("revoke")}
      </SubmitButton>
      <FormStatus message={state.message} ok={state.ok} inline />
    </form>
  );
}
