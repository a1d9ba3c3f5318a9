"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { deleteTopicAction, retryNotificationAction } from "@/app/(dashboard)/topics/actions";

/** Retry one failed notification. */
export function RetryNotification({ topicId, notificationId }: { topicId: number; notificationId: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(retryNotificationAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={topicId} />
      <input type="hidden" name="notificationId" value={notificationId} />
      <button type="submit" className="small secondary" disabled={pending}>
        {pending ? "Retrying…" : "Retry"}
      </button>
      {state.message && <span className={state.ok ? "inline-ok" : "inline-error"}> {state.message}</span>}
    </form>
  );
}

/** Delete a topic after a dialog saying what goes with it. */
export function DeleteTopic({ id, name, flags, samples }: { id: number; name: string; flags: number; samples: number }) {
  return (
    <ConfirmDelete action={deleteTopicAction} id={id} dialogId="del-topic-h" title={<>Delete topic “{name}”?</>} trigger="Delete topic" submit="Delete topic">
      <p>
        Its {flags.toLocaleString("en-US")} flags with their reviews, every post's score for it, its {samples.toLocaleString("en-US")} training samples, its
        model and its notification history are deleted. The posts themselves stay. This cannot be undone; to pause the topic, disable it instead.
      </p>
    </ConfirmDelete>
  );
}
