"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { UPLOAD_LIMITS, formatLimit } from "@/lib/limits";
import { useFileLimit } from "../use-file-limit";
import { createSeedSetAction, deleteSeedSetAction, importSeedsAction, removeSeedUrlAction } from "@/app/(dashboard)/seeds/actions";

function Report({ state }: { state: FormState }) {
  return (
    <div aria-live="polite">
      {state.message && <div className={state.ok ? "form-ok" : "form-error"} role={state.ok ? "status" : "alert"}>{state.message}</div>}
      {state.details && state.details.length > 0 && (
        <ul className="error-list" data-testid="seed-invalid">
          {state.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function UrlInputs({ state, prefix, fileError }: { state: FormState; prefix: string; fileError: string | null }) {
  const err = fileError ?? state.errors?.file?.join(" ");
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-file`}>Text file (one URL per line, up to {formatLimit(UPLOAD_LIMITS.seedsBytes)})</label>
        <input id={`${prefix}-file`} name="file" type="file" accept=".txt,text/plain" aria-describedby={`${prefix}-file-error`} aria-invalid={Boolean(err)} />
        <div id={`${prefix}-file-error`} className="field-error" aria-live="polite">
          {err}
        </div>
      </div>
      <div className="field wide">
        <label htmlFor={`${prefix}-urls`}>…or paste URLs</label>
        <textarea id={`${prefix}-urls`} name="urls" rows={4} defaultValue={state.values?.urls ?? ""} placeholder={"https://bbs.example.edu.cn/\nhttps://tieba.baidu.com/f?kw=…"} aria-describedby={`${prefix}-urls-error`} aria-invalid={Boolean(state.errors?.urls)} />
        <div id={`${prefix}-urls-error`} className="field-error" aria-live="polite">
          {state.errors?.urls?.join(" ")}
        </div>
      </div>
    </>
  );
}

export function NewSeedSetForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createSeedSetAction, {});
  const limit = useFileLimit(UPLOAD_LIMITS.seedsBytes);
  return (
    <form action={action} onSubmit={limit.onSubmit} noValidate aria-label="New seed set">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="seed-name">Name</label>
          <input id="seed-name" name="name" type="text" defaultValue={state.values?.name ?? ""} aria-invalid={Boolean(state.errors?.name)} aria-describedby="seed-name-error" placeholder="高校论坛入口" />
          <div id="seed-name-error" className="field-error" aria-live="polite">
            {state.errors?.name?.join(" ")}
          </div>
        </div>
        <UrlInputs state={state} prefix="new" fileError={limit.error} />
      </div>
      <Report state={state.ok ? {} : { message: state.message }} />
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? "Importing…" : "Create and import"}
        </button>
      </div>
    </form>
  );
}

export function ImportSeedsForm({ id }: { id: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(importSeedsAction, {});
  const limit = useFileLimit(UPLOAD_LIMITS.seedsBytes);
  return (
    <form action={action} onSubmit={limit.onSubmit} noValidate aria-label="Import URLs">
      <input type="hidden" name="id" value={id} />
      <div className="form-grid">
        <UrlInputs state={state} prefix="imp" fileError={limit.error} />
      </div>
      <Report state={state} />
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? "Importing…" : "Import"}
        </button>
      </div>
    </form>
  );
}

export function RemoveSeedUrl({ id, urlId }: { id: number; urlId: number }) {
  const [, action, pending] = useActionState<FormState, FormData>(removeSeedUrlAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="urlId" value={urlId} />
      <button type="submit" className="small secondary" disabled={pending} aria-label="Remove URL">
        Remove
      </button>
    </form>
  );
}

export function DeleteSeedSet({ id, name, urls }: { id: number; name: string; urls: number }) {
  return (
    <ConfirmDelete action={deleteSeedSetAction} id={id} dialogId="del-seed-h" title={<>Delete “{name}”?</>} trigger="Delete set" submit="Delete set">
      <p>Its {urls} URLs are deleted. Discovery runs started from it are kept (without their seed set).</p>
    </ConfirmDelete>
  );
}
