"use client";

import { useActionState, useRef } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
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
  const [deleteState, remove, deleting] = useActionState<FormState, FormData>(deleteAccountAction, {});
  const dialog = useRef<HTMLDialogElement>(null);
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <div className="row-actions">
      <form action={crawl}>
        <input type="hidden" name="id" value={id} />
        <button type="submit" className="small" disabled={crawling || queued || running} aria-label={`Crawl ${name} now`}>
          {running ? "Running…" : queued ? "Queued…" : "Crawl now"}
        </button>
      </form>
      <form action={toggle}>
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
        <button type="submit" className="small secondary" disabled={toggling} aria-label={`${enabled ? "Disable" : "Enable"} ${name}`}>
          {enabled ? "Disable" : "Enable"}
        </button>
      </form>
      <button type="button" className="small danger secondary" onClick={() => dialog.current?.showModal()} aria-label={`Delete ${name}`}>
        Delete
      </button>
      <dialog ref={dialog} aria-labelledby={`del-${id}-h`}>
        <form action={remove}>
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="confirm" value="delete" />
          <h2 id={`del-${id}-h`}>Delete “{name}”?</h2>
          <p>
            This deletes the account <b>and everything crawled from it</b>: {n(impact.posts)} posts and {n(impact.replies)} replies with their earlier
            versions, {n(impact.flags)} flags ({n(impact.reviewed)} already reviewed, with their review notes) and {n(impact.runs)} crawl runs. Exports
            made earlier are not affected. This cannot be undone.
          </p>
          <p className="muted small">To keep the posts but stop crawling, disable the account instead.</p>
          {deleteState.message && (
            <div className="form-error" role="alert">
              {deleteState.message}
            </div>
          )}
          <div className="button-row">
            <button type="submit" className="danger" disabled={deleting}>
              {deleting ? "Deleting…" : "Delete account and its posts"}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
      {(toggleState.message && !toggleState.ok) || (crawlState.message && !crawlState.ok) ? (
        <span className="inline-error" role="alert">
          {toggleState.message ?? crawlState.message}
        </span>
      ) : null}
    </div>
  );
}
