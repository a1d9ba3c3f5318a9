"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";

const PLATFORMS = [
  { value: "weibo", label: "微博 Weibo" },
  { value: "tieba", label: "贴吧 Tieba" },
  { value: "discuz", label: "论坛 Discuz!" },
  { value: "blog", label: "博客 Blog" },
];

export interface Preset {
  label: string;
  cron: string;
}

interface Props {
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  presets: readonly Preset[];
  /** Edit mode: the account's current values. */
  initial?: { id: number; url: string; platform: string; name: string; cron: string };
  submitLabel: string;
}

const shanghai = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", month: "2-digit", day: "2-digit", weekday: "short", hour: "2-digit", minute: "2-digit", hour12: false });

/**
 * Register or edit an account. The platform is recognised from the URL as it is typed (and can be
 * changed); the interval is a preset or a cron expression with its next five runs. Errors come
 * back from the server action next to their fields, and nothing typed is lost.
 */
export function AccountForm({ action, presets, initial, submitLabel }: Props) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  const v = state.values;
  const initialInterval = initial ? (presets.some((p) => p.cron === initial.cron) ? initial.cron : "custom") : (presets[2]?.cron ?? "custom");
  const [url, setUrl] = useState(v?.url ?? initial?.url ?? "");
  const [platform, setPlatform] = useState(v?.platform ?? initial?.platform ?? "auto");
  const [interval, setInterval] = useState(v?.interval ?? initialInterval);
  const [cron, setCron] = useState(v?.cron ?? (initialInterval === "custom" ? (initial?.cron ?? "") : ""));
  const [detected, setDetected] = useState<{ platform: string | null; problem: string | null } | null>(null);
  const [preview, setPreview] = useState<{ times?: string[]; error?: string } | null>(null);
  const prevValues = useRef(v);

  // After a failed submit, show what was submitted (useActionState returns it in `values`).
  useEffect(() => {
    if (v && v !== prevValues.current) {
      prevValues.current = v;
      setUrl(v.url ?? "");
      setPlatform(v.platform ?? "auto");
      setInterval(v.interval ?? "custom");
      setCron(v.cron ?? "");
    }
  }, [v]);

  useEffect(() => {
    if (!url.trim()) {
      setDetected(null);
      return;
    }
    const ctl = new AbortController();
    const t = setTimeout(() => {
      fetch(`/api/accounts/recognise?url=${encodeURIComponent(url)}`, { signal: ctl.signal })
        .then((r) => (r.ok ? r.json() : null))
        .then((j) => j && setDetected(j))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [url]);

  const expr = interval === "custom" ? cron : interval;
  useEffect(() => {
    if (!expr.trim()) {
      setPreview(null);
      return;
    }
    const ctl = new AbortController();
    const t = setTimeout(() => {
      fetch(`/api/cron-preview?expr=${encodeURIComponent(expr)}`, { signal: ctl.signal })
        .then(async (r) => {
          const j = await r.json();
          setPreview(r.ok ? { times: j.times } : { error: j.error?.message ?? "invalid" });
        })
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [expr]);

  const err = (name: string) => state.errors?.[name]?.join(" ");
  const detectedLabel = detected?.platform ? PLATFORMS.find((p) => p.value === detected.platform)?.label : null;
  const idp = initial ? `edit-${initial.id}` : "new";
  return (
    <form action={formAction} noValidate className="account-form" aria-label={initial ? "Edit account" : "Add account"}>
      {initial && <input type="hidden" name="id" value={initial.id} />}
      <div className="form-grid">
        <div className="field wide">
          <label htmlFor={`${idp}-url`}>Account URL</label>
          <input
            id={`${idp}-url`}
            name="url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://tieba.baidu.com/f?kw=北江大学 · https://weibo.com/u/… · forum.php?mod=forumdisplay&fid=… · a blog"
            aria-invalid={Boolean(err("url"))}
            aria-describedby={`${idp}-url-error ${idp}-url-detected`}
            required
          />
          <div id={`${idp}-url-error`} className="field-error" aria-live="polite">
            {err("url")}
          </div>
          <div id={`${idp}-url-detected`} className="detected" aria-live="polite">
            {detected && !err("url") && (detected.problem ? <span className="field-error">{detected.problem}</span> : detectedLabel ? `Recognised: ${detectedLabel}` : null)}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-platform`}>Platform</label>
          <select id={`${idp}-platform`} name="platform" value={platform} onChange={(e) => setPlatform(e.target.value)} aria-invalid={Boolean(err("platform"))} aria-describedby={`${idp}-platform-error`}>
            <option value="auto">Recognise from URL{detectedLabel ? ` (${detectedLabel})` : ""}</option>
            {PLATFORMS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          <div id={`${idp}-platform-error`} className="field-error" aria-live="polite">
            {err("platform")}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-name`}>Name</label>
          <input id={`${idp}-name`} name="name" type="text" defaultValue={v?.name ?? initial?.name ?? ""} key={v ? `n-${v.name}` : "n"} placeholder="Optional: from the URL" aria-invalid={Boolean(err("name"))} aria-describedby={`${idp}-name-error`} />
          <div id={`${idp}-name-error`} className="field-error" aria-live="polite">
            {err("name")}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-interval`}>Interval</label>
          <select id={`${idp}-interval`} name="interval" value={interval} onChange={(e) => setInterval(e.target.value)}>
            {presets.map((p) => (
              <option key={p.cron} value={p.cron}>
                {p.label}
              </option>
            ))}
            <option value="custom">Cron expression…</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${idp}-cron`}>Cron expression</label>
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
                Next runs (Asia/Shanghai):
                <ol>
                  {preview.times.map((t) => (
                    <li key={t}>{shanghai.format(new Date(t))}</li>
                  ))}
                </ol>
              </>
            )}
            {preview?.error && !err("cron") && <span className="field-error">{preview.error}</span>}
          </div>
        </div>
      </div>
      {state.message && (
        <div className="form-error" role="alert">
          {state.message}
        </div>
      )}
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
