"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ClearSettingForm } from "./clear-setting-form";
import { FormStatus, SubmitButton } from "../form";
import { clearCookiesAction, setCookiesAction } from "@/app/(dashboard)/accounts/cookie-actions";

/** Paste a Cookie header or upload cookies.txt / a JSON export; forget the stored cookies. */
export function CookieForms({ accountId, hasCookies }: { accountId: number; hasCookies: boolean }) {
  const t = useTranslations("accounts.cookies");
  const [state, setAction, saving] = useActionState<FormState, FormData>(setCookiesAction, {});
  const err = state.errors?.cookies?.join(" ");
  return (
    <>
      <form action={setAction} aria-label={t("formLabel")}>
        <input type="hidden" name="id" value={accountId} />
        <div className="field">
          <label htmlFor="cookie-text">{t("paste")}</label>
          <textarea
            id="cookie-text"
            name="text"
            rows={3}
            autoComplete="off"
            spellCheck={false}
            placeholder={t("placeholder")}
            aria-invalid={Boolean(err)}
            aria-describedby="cookie-error cookie-help"
          />
          <div id="cookie-help" className="help">
            {t("help")}
          </div>
        </div>
        <div className="field">
          <label htmlFor="cookie-file">{t("file")}</label>
          <input id="cookie-file" name="file" type="file" accept=".txt,.json,text/plain,application/json" />
        </div>
        <div id="cookie-error" className="field-error" aria-live="polite">
          {err}
        </div>
        <div className="button-row">
          <SubmitButton pending={saving}>{t("save")}</SubmitButton>
        </div>
        <div aria-live="polite">
          <FormStatus message={state.message} ok={state.ok} />
          {state.details && state.details.length > 0 && (
            <ul className="error-list">
              {state.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      </form>
      {hasCookies && <ClearSettingForm accountId={accountId} action={clearCookiesAction} label={t("clear")} confirmText={t("confirmClear")} />}
    </>
  );
}
