"use client";

import { useActionState, useState } from "react";
import { useTranslations } from "next-intl";
import { reviewAction } from "@/app/(dashboard)/posts/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

/**
 * Wraps a list table: rows carry `flagId` checkboxes, and the toolbar confirms or dismisses the
 * selected flags with one optional note. Without JavaScript the form still posts.
 */
export function BulkReviewForm({ returnTo, children, canReview }: { returnTo: string; children: React.ReactNode; canReview: boolean }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(reviewAction, {});
  const [selected, setSelected] = useState(0);
  const t = useTranslations("posts.bulk");
  const recount = (form: HTMLFormElement) => setSelected(form.querySelectorAll<HTMLInputElement>('input[name="flagId"]:checked').length);
  return (
    <form
      action={formAction}
      className="bulk-form"
      onChange={(e) => {
        const target = e.target as HTMLInputElement;
        const form = e.currentTarget;
        if (target.dataset.selectAll !== undefined) {
          form.querySelectorAll<HTMLInputElement>('input[name="flagId"]').forEach((box) => {
            box.checked = target.checked;
          });
        }
        recount(form);
      }}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      {canReview && (
        <div className={`bulk-bar${selected ? " active" : ""}`} role="group" aria-label={t("ariaLabel")}>
          <span className="bulk-count" aria-live="polite">
            {selected ? t("selected", { count: selected }) : t("hint")}
          </span>
          <label className="sr-only" htmlFor="bulk-note">
            {t("note")}
          </label>
          <input id="bulk-note" name="note" type="text" placeholder={t("notePlaceholder")} maxLength={1000} defaultValue={state.values?.note ?? ""} />
          <SubmitButton name="decision" value="confirm" disabled={!selected} pending={pending}>
            {t("confirm")}
          </SubmitButton>
          <SubmitButton name="decision" value="dismiss" className="secondary" disabled={!selected} pending={pending}>
            {t("dismiss")}
          </SubmitButton>
          <FormStatus message={state.message} ok={state.ok} inline role="alert" />
        </div>
      )}
      {children}
    </form>
  );
}
