"use client";

import { useActionState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { ToggleForm } from "../toggle-form";
import { FormStatus, SubmitButton } from "../form";
import { crawlNowAction, deleteAccountAction, toggleAccountAction } from "@/app/(dashboard)/accounts/actions";

/** Enable/disable, crawl now and delete (with a dialog saying what goes with the account). */
export function AccountActions({
  id,
  name,
  enabled,
  queued,
  running,
  impact,
}: {
  id: number;
  name: string;
  enabled: boolean;
  queued: boolean;
  running: boolean;
  impact: { posts: number; replies: number; flags: number; reviewed: number; runs: number };
}) {
  const [toggleState, toggle, toggling] = useActionState<FormState, FormData>(toggleAccountAction, {});
  const [crawlState, crawl, crawling] = useActionState<FormState, FormData>(crawlNowAction, {});
  const t = useTranslations("accounts.actions");
  const format = useFormatter();
  const n = (x: number) => format.number(x);
  return (
    <div className="row-actions">
      <form action={crawl}>
        <input type="hidden" name="id" value={id} />
        <SubmitButton className="small" pending={crawling} disabled={queued || running} aria-label={t("crawlAria", { name })}>
          {running ? t("running") : queued ? t("queued") : t("crawlNow")}
        </SubmitButton>
      </form>
      <ToggleForm action={toggle} id={id} field="enabled" next={!enabled} label={enabled ? t("disable") : t("enable")} name={name} pending={toggling} />
      <ConfirmDelete
        action={deleteAccountAction}
        id={id}
        dialogId={`del-${id}-h`}
        title={t("deleteTitle", { name })}
        trigger={t("delete")}
        triggerClassName="small danger secondary"
        triggerAriaLabel={t("deleteAria", { name })}
        submit={t("deleteSubmit")}
        pendingLabel={t("deleting")}
      >
        <p>
          {t.rich("deleteBody", {
            b: (chunks) => <b>{chunks}</b>,
            posts: n(impact.posts),
            replies: n(impact.replies),
            flags: n(impact.flags),
            reviewed: n(impact.reviewed),
            runs: n(impact.runs),
          })}
        </p>
        <p className="muted small">{t("deleteHint")}</p>
      </ConfirmDelete>
      <FormStatus
        message={(toggleState.message && !toggleState.ok) || (crawlState.message && !crawlState.ok) ? (toggleState.message ?? crawlState.message) : null}
        inline
      />
    </div>
  );
}
