"use client";

import { useActionState, useRef } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
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
  const [state, action, pending] = useActionState<FormState, FormData>(deleteTopicAction, {});
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="danger secondary" onClick={() => dialog.current?.showModal()}>
        Delete topic
      </button>
      <dialog ref={dialog} aria-labelledby="del-topic-h">
        <form action={action}>
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="confirm" value="delete" />
          <h2 id="del-topic-h">Delete topic “{name}”?</h2>
          <p>
            Its {flags.toLocaleString("en-US")} flags with their reviews, every post's score for it, its {samples.toLocaleString("en-US")} training samples, its
            model and its notification history are deleted. The posts themselves stay. This cannot be undone; to pause the topic, disable it instead.
          </p>
          {state.message && <div className="form-error" role="alert">{state.message}</div>}
          <div className="button-row">
            <button type="submit" className="danger" disabled={pending}>
              Delete topic
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
