"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { dateText } from "@/i18n/format";
import { useDateTools } from "@/i18n/use-date-tools";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { PLATFORMS, WATCH_PLATFORMS } from "@/lib/platforms";
import { usePlatformName } from "../platform-badge";
import { WatchFields } from "./watch-fields";
import { AccountSwitches, type SwitchValues } from "./account-switches";
import { FormStatus, SubmitButton } from "../form";

export interface Preset {
  label: string;
  cron: string;
  /** The label's key in the `accounts.presets` messages. */
  key: "every5" | "every10" | "every30" | "hourly" | "daily";
}

/** What /api/accounts/recognise answers for a URL. */
interface Detected {
  platform: string | null;
  problem: string | null;
}

/** What /api/cron-preview answers: the next run times, or an error (lib/http.ts jsonError). */
interface CronPreviewAnswer {
  times?: string[];
  error?: { message?: string };
}

interface Props {
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  presets: readonly Preset[];
  /** Edit mode: the account's current values. */
  initial?: {
    id: number;
    url: string;
    platform: string;
    name: string;
    cron: string;
    /** Its switches (enabled, OCR, fetch mode, backfill, re-check, adaptive). */
    switches: SwitchValues;
  };
  submitLabel: string;
}

/**
 * Register or edit an account. The platform is recognised from the URL as it is typed (and can be
 * changed); the interval is a preset or a cron expression with its next five runs; the switches
 * are those of `campuswatch accounts set`. Editing the URL asks whether the account keeps its
 * history marks or starts over. Errors come back from the server action next to their fields,
 * and nothing typed is lost.
 */
export function AccountForm({ action, presets, initial, submitLabel }: Props) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  const t = useTranslations("accounts.form");
  const tp = useTranslations("accounts");
  const platformName = usePlatformName();
  const tools = useDateTools();
  const v = state.values;
  const initialInterval = initial ? (presets.some((p) => p.cron === initial.cron) ? initial.cron : "custom") : (presets[2]?.cron ?? "custom");
  const [url, setUrl] = useState(v?.url ?? initial?.url ?? "");
  const [platform, setPlatform] = useState(v?.platform ?? initial?.platform ?? "auto");
  const [interval, setInterval] = useState(v?.interval ?? initialInterval);
  const [cron, setCron] = useState(v?.cron ?? (initialInterval === "custom" ? (initial?.cron ?? "") : ""));
  const [fetchedDetected, setDetected] = useState<Detected | null>(null);
  const [fetchedPreview, setPreview] = useState<{
    times?: string[];
    error?: string;
  } | null>(null);
  // New accounts only: an account URL, or a keyword watch built from its fields.
  const [mode, setMode] = useState(v?.mode === "watch" ? "watch" : "account");
  const [watchPlatform, setWatchPlatform] = useState(v?.watchPlatform ?? WATCH_PLATFORMS[0]!);
  const tw = useTranslations("accounts.watch");
  const prevValues = useRef(v);

  // After a failed submit, show what was submitted (useActionState returns it in `values`).
  useEffect(() => {
    if (v && v !== prevValues.current) {
      prevValues.current = v;
      setUrl(v.url ?? "");
      setPlatform(v.platform ?? "auto");
      setInterval(v.interval ?? "custom");
      setCron(v.cron ?? "");
      setMode(v.mode === "watch" ? "watch" : "account");
      setWatchPlatform(v.watchPlatform ?? WATCH_PLATFORMS[0]!);
    }
  }, [v]);

  // A blank URL shows no recognition; derived here rather than reset from the effect (a state
  // update inside an effect renders twice).
  const detected = url.trim() ? fetchedDetected : null;
  useEffect(() => {
    if (!url.trim()) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/accounts/recognise?url=${encodeURIComponent(url)}`, {
        signal: ctl.signal,
      })
        .then((r) => (r.ok ? (r.json() as Promise<Detected>) : null))
        .then((j) => j && setDetected(j))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [url]);

  const expr = interval === "custom" ? cron : interval;
  const preview = expr.trim() ? fetchedPreview : null;
  useEffect(() => {
    if (!expr.trim()) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/cron-preview?expr=${encodeURIComponent(expr)}`, {
        signal: ctl.signal,
      })
        .then(async (r) => {
          const j = (await r.json()) as CronPreviewAnswer;
          setPreview(r.ok ? { times: j.times } : { error: j.error?.message ?? t("invalid") });
        })
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [expr, t]);

  const err = (name: string) => state.errors?.[name]?.join(" ");
  const platformLabel = (p: string) => platformName(p, "full");
  const detectedLabel = detected?.platform ? platformLabel(detected.platform) : null;
  const idp = initial ? `edit-${initial.id}` : "new";
  const watching = !initial && mode === "watch";
  // The stored URL is already normalised; a URL that only normalises to it is not a change (the server judges).
  const urlChanged = initial !== undefined && url.trim() !== initial.url;
  const marks = v?.marks === "reset" ? "reset" : "keep";
  return (
    <form action={formAction} noValidate className="account-form" aria-label={initial ? t("editAria") : t("addAria")}>
      {initial && <input type="hidden" name="id" value={initial.id} />}
      {!initial && (
        <fieldset className="field wide watch-mode">
          <legend>{tw("mode")}</legend>
          <label>
            <input type="radio" name="mode" value="account" checked={!watching} onChange={() => setMode("account")} /> {tw("modeAccount")}
          </label>
          <label>
            <input type="radio" name="mode" value="watch" checked={watching} onChange={() => setMode("watch")} /> {tw("modeWatch")}
          </label>
        </fieldset>
      )}
      {watching && <WatchFields idp={idp} values={v} platform={watchPlatform} onPlatform={setWatchPlatform} err={err} />}
      <div className="form-grid">
        {!watching && (
          <div className="field wide">
            <label htmlFor={`${idp}-url`}>{t("url")}</label>
            <input
              id={`${idp}-url`}
              name="url"
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder={t("urlPlaceholder")}
              aria-invalid={Boolean(err("url"))}
              aria-describedby={`${idp}-url-error ${idp}-url-detected`}
              required
            />
            <div id={`${idp}-url-error`} className="field-error" aria-live="polite">
              {err("url")}
            </div>
            <div id={`${idp}-url-detected`} className="detected" aria-live="polite">
              {detected &&
                !err("url") &&
                (detected.problem ? (
                  <span className="field-error">{detected.problem}</span>
                ) : detectedLabel ? (
                  t("recognised", { platform: detectedLabel })
                ) : null)}
            </div>
          </div>
        )}
        {urlChanged && (
          <fieldset className="field wide url-marks" data-testid="url-marks" key={`marks-${marks}`}>
            <legend>{t("marks")}</legend>
            <p className="help">{t("marksHint")}</p>
            <label className="field-inline">
              <input type="radio" name="marks" value="keep" defaultChecked={marks === "keep"} /> {t("marksKeep")}
            </label>
            <label className="field-inline">
              <input type="radio" name="marks" value="reset" defaultChecked={marks === "reset"} /> {t("marksReset")}
            </label>
            <div className="field-error" aria-live="polite">
              {err("marks")}
            </div>
          </fieldset>
        )}
        {!watching && (
          <div className="field">
            <label htmlFor={`${idp}-platform`}>{t("platform")}</label>
            <select
              id={`${idp}-platform`}
              name="platform"
              value={platform}
              onChange={(e) => setPlatform(e.target.value)}
              aria-invalid={Boolean(err("platform"))}
              aria-describedby={`${idp}-platform-error`}
            >
              <option value="auto">{detectedLabel ? t("recogniseWith", { platform: detectedLabel }) : t("recognise")}</option>
              {PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformLabel(p)}
                </option>
              ))}
            </select>
            <div id={`${idp}-platform-error`} className="field-error" aria-live="polite">
              {err("platform")}
            </div>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${idp}-name`}>{t("name")}</label>
          <input
            id={`${idp}-name`}
            name="name"
            type="text"
            defaultValue={v?.name ?? initial?.name ?? ""}
            key={v ? `n-${v.name}` : "n"}
            placeholder={t("namePlaceholder")}
            aria-invalid={Boolean(err("name"))}
            aria-describedby={`${idp}-name-error`}
          />
          <div id={`${idp}-name-error`} className="field-error" aria-live="polite">
            {err("name")}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-interval`}>{t("interval")}</label>
          <select id={`${idp}-interval`} name="interval" value={interval} onChange={(e) => setInterval(e.target.value)}>
            {presets.map((p) => (
              <option key={p.cron} value={p.cron}>
                {tp(`presets.${p.key}`)}
              </option>
            ))}
            <option value="custom">{t("cronOption")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-cron`}>{t("cron")}</label>
          <input
            id={`${idp}-cron`}
            name="cron"
            type="text"
            value={interval === "custom" ? cron : interval}
            onChange={(e) => {
              setInterval("custom");
              setCron(e.target.value);
            }}
            placeholder="*/20 8-22 * * *"
            aria-invalid={Boolean(err("cron"))}
            aria-describedby={`${idp}-cron-error ${idp}-cron-preview`}
            spellCheck={false}
          />
          <div id={`${idp}-cron-error`} className="field-error" aria-live="polite">
            {err("cron")}
          </div>
          <div id={`${idp}-cron-preview`} className="cron-preview" aria-live="polite">
            {preview?.times && (
              <>
                {t("nextRuns")}
                <ol>
                  {preview.times.map((time) => (
                    <li key={time}>{dateText({ ...tools, now: new Date() }, new Date(time))}</li>
                  ))}
                </ol>
              </>
            )}
            {preview?.error && !err("cron") && <span className="field-error">{preview.error}</span>}
          </div>
        </div>
      </div>
      <AccountSwitches idp={idp} values={v} initial={initial?.switches} err={err} />
      <FormStatus message={state.message} />
      <div className="button-row">
        <SubmitButton pending={pending} pendingLabel={t("saving")}>
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
