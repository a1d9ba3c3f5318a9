"use client";

import { useActionState, useRef } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "./form";

/**
 * A delete button that opens a dialog saying what goes with the thing, then posts
 * `{ id, confirm: "delete" }` to a server action (which checks the role itself).
 */
export function ConfirmDelete({
  action,
  id,
  dialogId,
  title,
  trigger,
  triggerClassName = "danger secondary",
  triggerAriaLabel,
  submit,
  pendingLabel,
  children,
}: {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  id: number;
  /** Unique id of the dialog heading (for aria-labelledby). */
  dialogId: string;
  title: React.ReactNode;
  /** Label of the button that opens the dialog. */
  trigger: string;
  triggerClassName?: string;
  triggerAriaLabel?: string;
  /** Label of the confirming button. */
  submit: string;
  /** Label of the confirming button while the action runs. @default submit */
  pendingLabel?: string;
  /** What the deletion removes and keeps. */
  children: React.ReactNode;
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  const t = useTranslations("common");
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={triggerClassName} onClick={() => dialog.current?.showModal()} aria-label={triggerAriaLabel}>
        {trigger}
      </button>
      <dialog ref={dialog} aria-labelledby={dialogId}>
        <form action={formAction}>
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="confirm" value="delete" />
          <h2 id={dialogId}>{title}</h2>
          {children}
          <FormStatus message={state.message} />
          <div className="button-row">
            <SubmitButton className="danger" pending={pending} pendingLabel={pendingLabel}>
              {submit}
            </SubmitButton>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              {t("cancel")}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
