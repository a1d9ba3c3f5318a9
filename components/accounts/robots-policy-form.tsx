"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { setRobotsPolicyAction } from "@/app/(dashboard)/accounts/robots-actions";
import { FormStatus, SubmitButton } from "../form";

/** Switch between obeying and ignoring robots.txt; ignoring asks for a confirmation first. */
export function RobotsPolicyForm({ accountId, policy }: { accountId: number; policy: "obey" | "ignore" }) {
  const t = useTranslations("accounts.robots");
  const [state, action, pending] = useActionState<FormState, FormData>(setRobotsPolicyAction, {});
  const next = policy === "ignore" ? "obey" : "ignore";
  return (
    <form
      action={action}
      className="button-row"
      onSubmit={(e) => {
        if (next === "ignore" && !confirm(t("confirmIgnore"))) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={accountId} />
      <input type="hidden" name="policy" value={next} />
      <SubmitButton className={next === "ignore" ? "secondary danger" : "secondary"} pending={pending}>
        {next === "ignore" ? t("ignore") : t("obey")}
      </SubmitButton>
      <FormStatus message={state.message} ok={state.ok} inline />
    </form>
  );
}
