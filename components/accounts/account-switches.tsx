"use client";

import { useTranslations } from "next-intl";
import { durationInput } from "@/lib/time";

/** An account's switches as stored: what the edit form starts from. */
export interface SwitchValues {
  enabled: boolean;
  ocr: boolean;
  fetchMode: string;
  backfillDays: number | null;
  backfillPages: number | null;
  recheckDays: number;
  adaptive: boolean;
  minIntervalS: number | null;
  maxIntervalS: number | null;
}

/** A new account's switches: those of `campuswatch accounts add` without options. */
const NEW_ACCOUNT: SwitchValues = {
  enabled: true,
  ocr: false,
  fetchMode: "auto",
  backfillDays: null,
  backfillPages: null,
  recheckDays: 0,
  adaptive: false,
  minIntervalS: null,
  maxIntervalS: null,
};

const FETCH_MODES = ["auto", "http", "browser"] as const;

interface Props {
  /** Id prefix of the form's fields. */
  idp: string;
  /** What was submitted, after a failed submit. */
  values: Record<string, string> | undefined;
  /** The account's current switches (edit), or none (a new account). */
  initial?: SwitchValues;
  /** The field's error text, if any. */
  err: (name: string) => string | undefined;
}

/**
 * The account form's switches, the same as `campuswatch accounts set`'s: enabled, OCR, fetch
 * mode, backfill limits, re-check window, adaptive interval with its bounds. The hidden
 * `switches` field tells the server they were shown, so that an unticked box means "off"
 * (server/accounts.ts accountFormSchema). After a failed submit they show what was submitted.
 */
export function AccountSwitches({ idp, values: v, initial = NEW_ACCOUNT, err }: Props) {
  const t = useTranslations("accounts.form");
  const sent = v?.switches !== undefined ? v : undefined;
  const text = (name: keyof SwitchValues, stored: string) => sent?.[name] ?? stored;
  const limit = (n: number | null) => (n === null ? "" : String(n));
  const duration = (s: number | null) => (s === null ? "" : durationInput(s));
  // Remount the uncontrolled fields when a failed submit sends values back.
  const k = sent ? JSON.stringify(sent) : "stored";
  const box = (name: "enabled" | "ocr" | "adaptive") => (
    <label className="field-inline" key={`${name}-${k}`}>
      <input
        id={`${idp}-${name}`}
        name={name}
        type="checkbox"
        defaultChecked={sent ? sent[name] === "on" : initial[name]}
        aria-describedby={`${idp}-${name}-hint`}
      />{" "}
      {t(name)}
    </label>
  );
  const field = (name: "backfillDays" | "backfillPages" | "recheckDays" | "minIntervalS" | "maxIntervalS", stored: string, inputMode: "numeric" | "text") => (
    <div className="field" key={name}>
      <label htmlFor={`${idp}-${name}`}>{t(name)}</label>
      <input
        id={`${idp}-${name}`}
        name={name}
        type="text"
        inputMode={inputMode}
        defaultValue={text(name, stored)}
        key={`${name}-${k}`}
        placeholder={t(`${name}Placeholder`)}
        aria-invalid={Boolean(err(name))}
        aria-describedby={`${idp}-${name}-error ${idp}-${name}-hint`}
        spellCheck={false}
      />
      <div id={`${idp}-${name}-hint`} className="help">
        {t(`${name}Hint`)}
      </div>
      <div id={`${idp}-${name}-error`} className="field-error" aria-live="polite">
        {err(name)}
      </div>
    </div>
  );
  return (
    <fieldset className="field wide account-switches" data-testid="account-switches">
      <legend>{t("switches")}</legend>
      <input type="hidden" name="switches" value="1" />
      <div className="form-grid">
        <div className="field">
          {box("enabled")}
          <div id={`${idp}-enabled-hint`} className="help">
            {t("enabledHint")}
          </div>
        </div>
        <div className="field">
          {box("ocr")}
          <div id={`${idp}-ocr-hint`} className="help">
            {t("ocrHint")}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-fetchMode`}>{t("fetchMode")}</label>
          <select
            id={`${idp}-fetchMode`}
            name="fetchMode"
            defaultValue={text("fetchMode", initial.fetchMode)}
            key={`fetchMode-${k}`}
            aria-invalid={Boolean(err("fetchMode"))}
            aria-describedby={`${idp}-fetchMode-error ${idp}-fetchMode-hint`}
          >
            {FETCH_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`fetchModes.${m}`)}
              </option>
            ))}
          </select>
          <div id={`${idp}-fetchMode-hint`} className="help">
            {t("fetchModeHint")}
          </div>
          <div id={`${idp}-fetchMode-error`} className="field-error" aria-live="polite">
            {err("fetchMode")}
          </div>
        </div>
        {field("backfillDays", limit(initial.backfillDays), "numeric")}
        {field("backfillPages", limit(initial.backfillPages), "numeric")}
        {field("recheckDays", String(initial.recheckDays), "numeric")}
        <div className="field wide">
          {box("adaptive")}
          <div id={`${idp}-adaptive-hint`} className="help">
            {t("adaptiveHint")}
          </div>
        </div>
        {field("minIntervalS", duration(initial.minIntervalS), "text")}
        {field("maxIntervalS", duration(initial.maxIntervalS), "text")}
      </div>
    </fieldset>
  );
}
