"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

/**
 * The "forget it" button of an account's stored secret (login cookies, proxy): asks first, then
 * runs `action` with the account id and shows its answer next to the button.
 */
export function ClearSettingForm({
  accountId,
  action,
  label,
  confirmText,
}: {
  accountId: number;
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  label: string;
  confirmText: string;
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  return (
    <form
      action={formAction}
      className="button-row"
      onSubmit={(e) => {
        if (!confirm(confirmText)) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={accountId} />
      <SubmitButton className="small danger secondary" pending={pending}>
        {label}
      </SubmitButton>
      <FormStatus message={state.message} ok inline role={null} />
    </form>
  );
}
