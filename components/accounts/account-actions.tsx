"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { ToggleForm } from "../toggle-form";
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
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <div className="row-actions">
      <form action={crawl}>
        <input type="hidden" name="id" value={id} />
        <button type="submit" className="small" disabled={crawling || queued || running} aria-label={`Crawl ${name} now`}>
          {running ? "Running…" : queued ? "Queued…" : "Crawl now"}
        </button>
      </form>
      <ToggleForm action={toggle} id={id} field="enabled" next={!enabled} label={enabled ? "Disable" : "Enable"} name={name} pending={toggling} />
      <ConfirmDelete
        action={deleteAccountAction}
        id={id}
        dialogId={`del-${id}-h`}
        title={<>Delete “{name}”?</>}
        trigger="Delete"
        triggerClassName="small danger secondary"
        triggerAriaLabel={`Delete ${name}`}
        submit="Delete account and its posts"
        pendingLabel="Deleting…"
      >
        <p>
          This deletes the account <b>and everything crawled from it</b>: {n(impact.posts)} posts and {n(impact.replies)} replies with their earlier
          versions, {n(impact.flags)} flags ({n(impact.reviewed)} already reviewed, with their review notes) and {n(impact.runs)} crawl runs. Exports
          made earlier are not affected. This cannot be undone.
        </p>
        <p className="muted small">To keep the posts but stop crawling, disable the account instead.</p>
      </ConfirmDelete>
      {(toggleState.message && !toggleState.ok) || (crawlState.message && !crawlState.ok) ? (
        <span className="inline-error" role="alert">
          {toggleState.message ?? crawlState.message}
        </span>
      ) : null}
    </div>
  );
}
