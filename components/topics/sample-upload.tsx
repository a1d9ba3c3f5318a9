"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { clearSamplesAction, uploadSamplesAction } from "@/app/(dashboard)/topics/actions";
import { UPLOAD_LIMITS, formatLimit } from "@/lib/limits";
import { useFileLimit } from "../use-file-limit";
import { FormStatus, SubmitButton } from "../form";

/** Upload labelled samples (JSONL or CSV); the bad rows are listed with their line numbers. */
export function SampleUpload({ topicId, uploaded }: { topicId: number; uploaded: number }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(uploadSamplesAction, {});
  const [clearState, clearAction, clearing] = useActionState<FormState, FormData>(clearSamplesAction, {});
  const limit = useFileLimit(UPLOAD_LIMITS.samplesBytes);
  const t = useTranslations("topics.upload");
  const err = limit.tooLarge ? t("tooLarge", { limit: formatLimit(UPLOAD_LIMITS.samplesBytes) }) : state.errors?.file?.join(" ");
  return (
    <>
      <form action={formAction} onSubmit={limit.onSubmit} aria-label={t("formLabel")}>
        <input type="hidden" name="id" value={topicId} />
        <div className="form-grid">
          <div className="field">
            <label htmlFor="samples-file">{t("file")}</label>
            <input
              id="samples-file"
              name="file"
              type="file"
              accept=".jsonl,.json,.ndjson,.csv,.txt,text/csv,application/json"
              aria-invalid={Boolean(err)}
              aria-describedby="samples-file-error samples-file-help"
            />
            <div id="samples-file-help" className="help">
              {t.rich("help", {
                example: '{"label":"on-topic","text":"…"}',
                limit: formatLimit(UPLOAD_LIMITS.samplesBytes),
                code: (chunks) => <code>{chunks}</code>,
              })}
            </div>
            <div id="samples-file-error" className="field-error" aria-live="polite">
              {err}
            </div>
          </div>
          <div className="field">
            <label htmlFor="samples-format">{t("format")}</label>
            <select id="samples-format" name="format" defaultValue={state.values?.format ?? "auto"}>
              <option value="auto">{t("formatAuto")}</option>
              <option value="jsonl">{t("formatJsonl")}</option>
              <option value="csv">{t("formatCsv")}</option>
            </select>
          </div>
        </div>
        <div className="button-row">
          <SubmitButton pending={pending} pendingLabel={t("uploading")}>
            {t("submit")}
          </SubmitButton>
        </div>
        <div aria-live="polite">
          <FormStatus message={state.message} ok={state.ok} />
          {state.details && state.details.length > 0 && (
            <ul className="error-list" data-testid="sample-errors">
              {state.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      </form>
      {uploaded > 0 && (
        <form
          action={clearAction}
          className="button-row"
          onSubmit={(e) => {
            if (!confirm(t("confirmRemove", { count: uploaded }))) e.preventDefault();
          }}
        >
          <input type="hidden" name="id" value={topicId} />
          <SubmitButton className="small danger secondary" pending={clearing}>
            {t("remove")}
          </SubmitButton>
          <FormStatus message={clearState.message} ok inline role={null} />
        </form>
      )}
    </>
  );
}
