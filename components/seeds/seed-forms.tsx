"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { ConfirmDelete } from "../confirm-delete";
import { FormStatus, SubmitButton } from "../form";
import { UPLOAD_LIMITS, formatLimit } from "@/lib/limits";
import { useFileLimit } from "../use-file-limit";
import { createSeedSetAction, deleteSeedSetAction, importSeedsAction, removeSeedUrlAction } from "@/app/(dashboard)/seeds/actions";

function Report({ state }: { state: FormState }) {
  return (
    <div aria-live="polite">
      <FormStatus message={state.message} ok={state.ok} />
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

function UrlInputs({ state, prefix, tooLarge }: { state: FormState; prefix: string; tooLarge: boolean }) {
  const t = useTranslations("seeds.form");
  const limit = formatLimit(UPLOAD_LIMITS.seedsBytes);
  const err = tooLarge ? t("tooLarge", { limit }) : state.errors?.file?.join(" ");
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-file`}>{t("file", { limit })}</label>
        <input id={`${prefix}-file`} name="file" type="file" accept=".txt,text/plain" aria-describedby={`${prefix}-file-error`} aria-invalid={Boolean(err)} />
        <div id={`${prefix}-file-error`} className="field-error" aria-live="polite">
          {err}
        </div>
      </div>
      <div className="field wide">
        <label htmlFor={`${prefix}-urls`}>{t("paste")}</label>
        <textarea
          id={`${prefix}-urls`}
          name="urls"
          rows={4}
          defaultValue={state.values?.urls ?? ""}
          placeholder={t("pastePlaceholder")}
          aria-describedby={`${prefix}-urls-error`}
          aria-invalid={Boolean(state.errors?.urls)}
        />
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
  const t = useTranslations("seeds");
  return (
    <form action={action} onSubmit={limit.onSubmit} noValidate aria-label={t("newSet")}>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="seed-name">{t("form.name")}</label>
          <input
            id="seed-name"
            name="name"
            type="text"
            defaultValue={state.values?.name ?? ""}
            aria-invalid={Boolean(state.errors?.name)}
            aria-describedby="seed-name-error"
            placeholder={t("form.namePlaceholder")}
          />
          <div id="seed-name-error" className="field-error" aria-live="polite">
            {state.errors?.name?.join(" ")}
          </div>
        </div>
        <UrlInputs state={state} prefix="new" tooLarge={limit.tooLarge} />
      </div>
      <Report state={state.ok ? {} : { message: state.message }} />
      <div className="button-row">
        <SubmitButton pending={pending} pendingLabel={t("form.importing")}>
          {t("form.createAndImport")}
        </SubmitButton>
      </div>
    </form>
  );
}

export function ImportSeedsForm({ id }: { id: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(importSeedsAction, {});
  const limit = useFileLimit(UPLOAD_LIMITS.seedsBytes);
  const t = useTranslations("seeds.form");
  return (
    <form action={action} onSubmit={limit.onSubmit} noValidate aria-label={t("importAria")}>
      <input type="hidden" name="id" value={id} />
      <div className="form-grid">
        <UrlInputs state={state} prefix="imp" tooLarge={limit.tooLarge} />
      </div>
      <Report state={state} />
      <div className="button-row">
        <SubmitButton pending={pending} pendingLabel={t("importing")}>
          {t("import")}
        </SubmitButton>
      </div>
    </form>
  );
}

export function RemoveSeedUrl({ id, urlId }: { id: number; urlId: number }) {
  const [, action, pending] = useActionState<FormState, FormData>(removeSeedUrlAction, {});
  const t = useTranslations("seeds.form");
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="urlId" value={urlId} />
      <SubmitButton className="small secondary" pending={pending} aria-label={t("removeAria")}>
        {t("remove")}
      </SubmitButton>
    </form>
  );
}

export function DeleteSeedSet({ id, name, urls }: { id: number; name: string; urls: number }) {
  const t = useTranslations("seeds.form");
  return (
    <ConfirmDelete
      action={deleteSeedSetAction}
      id={id}
      dialogId="del-seed-h"
      title={t("deleteTitle", { name })}
      trigger={t("deleteSet")}
      submit={t("deleteSet")}
    >
      <p>{t("deleteBody", { urls })}</p>
    </ConfirmDelete>
  );
}
