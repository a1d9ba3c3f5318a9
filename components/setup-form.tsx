"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { completeSetupAction, type SetupState } from "@/app/(auth)/setup/actions";
import { FormStatus, SubmitButton } from "./form";

/** The first-admin form of the one-time setup link. */
export function SetupForm({ token }: { token: string }) {
  const [state, formAction, pending] = useActionState<SetupState, FormData>(completeSetupAction, {});
  const t = useTranslations("setup");
  const err = (k: string) => state.errors?.[k]?.join(" ");
  return (
    <form action={formAction} noValidate aria-label={t("formLabel")}>
      <input type="hidden" name="token" value={token} />
      <label htmlFor="setup-username">{t("username")}</label>
      <input
        id="setup-username"
        name="username"
        type="text"
        autoComplete="username"
        defaultValue={state.username}
        aria-invalid={Boolean(err("username"))}
        aria-describedby="setup-username-error"
        autoFocus
      />
      <div id="setup-username-error" className="field-error" aria-live="polite">
        {err("username")}
      </div>
      <label htmlFor="setup-password">{t("password")}</label>
      <input
        id="setup-password"
        name="password"
        type="password"
        autoComplete="new-password"
        aria-invalid={Boolean(err("password"))}
        aria-describedby="setup-password-error"
      />
      <div id="setup-password-error" className="field-error" aria-live="polite">
        {err("password")}
      </div>
      <label htmlFor="setup-confirm">{t("confirm")}</label>
      <input
        id="setup-confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        aria-invalid={Boolean(err("confirm"))}
        aria-describedby="setup-confirm-error"
      />
      <div id="setup-confirm-error" className="field-error" aria-live="polite">
        {err("confirm")}
      </div>
      <FormStatus message={state.message} />
      <SubmitButton pending={pending}>{t("submit")}</SubmitButton>
    </form>
  );
}
