"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { reviewAction } from "@/app/(dashboard)/posts/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

/** Confirm or dismiss one flag with an optional note (the detail page). */
export function ReviewForm({ flagId, topicName, status, returnTo }: { flagId: number; topicName: string; status: string; returnTo: string }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(reviewAction, {});
  const noteId = `note-${flagId}`;
  const t = useTranslations("posts.review");
  return (
    <form action={formAction} className="review-form" aria-label={t("ariaLabel", { topic: topicName })}>
      <input type="hidden" name="flagId" value={flagId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor={noteId}>
        {t("note")} {status !== "open" && <span className="muted">{t("again")}</span>}
      </label>
      <textarea
        id={noteId}
        name="note"
        rows={2}
        maxLength={1000}
        defaultValue={state.values?.note ?? ""}
        aria-invalid={Boolean(state.errors?.note)}
        aria-describedby={`${noteId}-error`}
        placeholder={t("placeholder")}
      />
      <div id={`${noteId}-error`} className="field-error" aria-live="polite">
        {state.errors?.note?.join(" ")}
      </div>
      <div className="button-row">
        <SubmitButton name="decision" value="confirm" pending={pending}>
          {t("confirm")}
        </SubmitButton>
        <SubmitButton name="decision" value="dismiss" className="secondary" pending={pending}>
          {t("dismiss")}
        </SubmitButton>
      </div>
      <FormStatus message={state.message} />
    </form>
  );
}
