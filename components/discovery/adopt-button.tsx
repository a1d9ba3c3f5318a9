"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { adoptCandidateAction } from "@/app/(dashboard)/discovery/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

/** One click: register a discovered site or account as a monitored account. */
export function AdoptButton({ candidateId, adoptedAccountId }: { candidateId: number; adoptedAccountId: number | null }) {
  const [state, adopt, pending] = useActionState<FormState, FormData>(adoptCandidateAction, {});
  const t = useTranslations("discovery.candidates");
  if (adoptedAccountId !== null) {
    return <a href={`/accounts/${adoptedAccountId}`}>{t("accountLink", { id: adoptedAccountId })}</a>;
  }
  return (
    <form action={adopt} className="row-actions">
      <input type="hidden" name="id" value={candidateId} />
      <SubmitButton className="secondary" pending={pending}>
        {t("adopt")}
      </SubmitButton>
      <FormStatus message={state.message} ok={state.ok} inline role="status" />
    </form>
  );
}
