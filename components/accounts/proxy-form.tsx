"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ClearSettingForm } from "./clear-setting-form";
import { FormStatus, SubmitButton } from "../form";
import { clearProxyAction, setProxyAction } from "@/app/(dashboard)/accounts/proxy-actions";

/** Set an account's own proxy URL, or remove it. The stored URL is never put back in the field. */
export function ProxyForm({ accountId, hasProxy }: { accountId: number; hasProxy: boolean }) {
  const t = useTranslations("accounts.proxy");
  const [state, setAction, saving] = useActionState<FormState, FormData>(setProxyAction, {});
  const err = state.errors?.proxy?.join(" ");
  return (
    <>
      <form action={setAction} aria-label={t("formLabel")}>
        <input type="hidden" name="id" value={accountId} />
        <div className="field">
          <label htmlFor="proxy-url">{t("url")}</label>
          <input
            id="proxy-url"
            name="url"
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={t("placeholder")}
            aria-invalid={Boolean(err)}
            aria-describedby="proxy-error proxy-help"
          />
          <div id="proxy-help" className="help">
            {t("help")}
          </div>
        </div>
        <div id="proxy-error" className="field-error" aria-live="polite">
          {err}
        </div>
        <div className="button-row">
          <SubmitButton pending={saving}>{t("save")}</SubmitButton>
        </div>
        <div aria-live="polite">
          <FormStatus message={state.message} ok={state.ok} />
        </div>
      </form>
      {hasProxy && <ClearSettingForm accountId={accountId} action={clearProxyAction} label={t("clear")} confirmText={t("confirmClear")} />}
    </>
  );
}
