"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { signIn, type SignInState } from "@/app/(auth)/sign-in/actions";
import { FormStatus, SubmitButton } from "./form";

/** The sign-in form: errors appear next to their field and the username survives a failed attempt. */
export function SignInForm({ next }: { next: string }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signIn, {});
  const t = useTranslations("auth");
  return (
    <form action={formAction} noValidate>
      <input type="hidden" name="next" value={next} />
      <label htmlFor="username">{t("username")}</label>
      <input
        id="username"
        name="username"
        type="text"
        autoComplete="username"
        defaultValue={state.username}
        aria-invalid={Boolean(state.errors?.username)}
        aria-describedby="username-error"
        autoFocus
      />
      <div id="username-error" className="field-error" aria-live="polite">
        {state.errors?.username?.join(" ")}
      </div>
      <label htmlFor="password">{t("password")}</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        aria-invalid={Boolean(state.errors?.password)}
        aria-describedby="password-error"
      />
      <div id="password-error" className="field-error" aria-live="polite">
        {state.errors?.password?.join(" ")}
      </div>
      <FormStatus message={state.message} />
      <SubmitButton pending={pending} pendingLabel={t("submitting")}>
        {t("submit")}
      </SubmitButton>
    </form>
  );
}
