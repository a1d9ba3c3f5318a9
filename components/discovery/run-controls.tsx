"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { pauseDiscoveryAction, resumeDiscoveryAction } from "@/app/(dashboard)/discovery/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

/** Pause or resume a run (admins). Which button shows depends on the run's status. */
export function RunControls({ runId, status, stale, finished }: { runId: number; status: string; stale: boolean; finished: boolean }) {
  const [pauseState, pause, pausing] = useActionState<FormState, FormData>(pauseDiscoveryAction, {});
  const [resumeState, resume, resuming] = useActionState<FormState, FormData>(resumeDiscoveryAction, {});
  const t = useTranslations("discovery.controls");
  const message = resumeState.message ?? pauseState.message;
  const ok = (resumeState.message ? resumeState.ok : pauseState.ok) === true;
  return (
    <div className="button-row">
      {(status === "running" || status === "queued") && !stale && (
        <form action={pause}>
          <input type="hidden" name="id" value={runId} />
          <SubmitButton className="secondary" pending={pausing}>
            {t("pause")}
          </SubmitButton>
        </form>
      )}
      {(status === "paused" || status === "failed" || stale || (status === "done" && !finished)) && (
        <form action={resume}>
          <input type="hidden" name="id" value={runId} />
          <SubmitButton pending={resuming}>{stale ? t("takeOver") : t("resume")}</SubmitButton>
        </form>
      )}
      <FormStatus message={message} ok={ok} inline role="status" />
    </div>
  );
}
