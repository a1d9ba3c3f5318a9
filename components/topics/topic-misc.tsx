"use client";

import { useActionState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { FormStatus, SubmitButton } from "../form";
import { deleteTopicAction, retryNotificationAction } from "@/app/(dashboard)/topics/actions";

/** Retry one failed notification. */
export function RetryNotification({ topicId, notificationId }: { topicId: number; notificationId: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(retryNotificationAction, {});
  const t = useTranslations("topics.misc");
  return (
    <form action={action}>
      <input type="hidden" name="id" value={topicId} />
      <input type="hidden" name="notificationId" value={notificationId} />
      <SubmitButton className="small secondary" pending={pending} pendingLabel={t("retrying")}>
        {t("retry")}
      </SubmitButton>{" "}
      <FormStatus message={state.message} ok={state.ok} inline role={null} />
    </form>
  );
}

/** Delete a topic after a dialog saying what goes with it. */
export function DeleteTopic({ id, name, flags, samples }: { id: number; name: string; flags: number; samples: number }) {
  const t = useTranslations("topics.misc");
  const format = useFormatter();
  return (
    <ConfirmDelete
      action={deleteTopicAction}
      id={id}
      dialogId="del-topic-h"
      title={t("deleteTitle", { name })}
      trigger={t("deleteTopic")}
      submit={t("deleteTopic")}
    >
      <p>{t("deleteBody", { flags: format.number(flags), samples: format.number(samples) })}</p>
    </ConfirmDelete>
  );
}
